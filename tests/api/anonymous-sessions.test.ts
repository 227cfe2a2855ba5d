import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as listGET } from "@/app/v1/pets/route";
import { DELETE as signOutDELETE, GET as sessionGET } from "@/app/v1/session/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { ADDRESS_CEILING } from "@/lib/http/auth";
import { SOCKET_ADDRESS_HEADER as SOCKET } from "@/lib/core/socket-address";
import { mintAnonymousToken, verifyAnonymousToken } from "@/lib/sessions/anonymous";
import { ensureBrowserSession } from "@/lib/sessions/service";
import { call, expectApiError, expectJson } from "./helpers";
import { rateLimitTestFile } from "./rate-limit-helpers";

// Adopters' sessions are signed, stateless tokens: minting one writes
// nothing, and dropping the cookie buys at most the client address's
// ceiling, not a fresh Free budget per cookie.

rateLimitTestFile();

const COOKIE = "petstore_session";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.stubEnv("RATE_LIMIT_ENABLED", "true");
  vi.stubEnv("TRUST_PROXY", undefined);
  vi.stubEnv("REDIS_URL", undefined);
  resetEnvCache();
});

const asBrowser = (token: string, address: string) => ({ headers: { cookie: `${COOKIE}=${token}`, [SOCKET]: address } });

describe("anonymous tokens", () => {
  const now = new Date("2030-03-04T12:00:00Z");

  it("verify when signed with the secret, and only then", () => {
    const { token, sessionId } = mintAnonymousToken(now);
    expect(token).toMatch(/^a1\.[A-Za-z0-9_-]{22}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyAnonymousToken(token, now)?.sessionId).toBe(sessionId);

    const [v, id, exp, sig] = token.split(".");
    const tampered = [
      `${v}.${"A".repeat(22)}.${exp}.${sig}`, // another session id
      `${v}.${id}.${(Number.parseInt(exp!, 36) + 86_400).toString(36)}.${sig}`, // a later expiry
      `${v}.${id}.${exp}.${sig!.slice(0, 10)}${sig![10] === "A" ? "B" : "A"}${sig!.slice(11)}`, // a changed signature
      // The same signature bytes spelled another way (the last character's two unused bits).
      `${v}.${id}.${exp}.${sig!.slice(0, -1)}${String.fromCharCode(sig!.charCodeAt(42) ^ 1)}`,
      `a2.${id}.${exp}.${sig}`,
      token.slice(0, -1),
    ];
    for (const t of tampered) expect(verifyAnonymousToken(t, now), t).toBeNull();

    vi.stubEnv("SESSION_SECRET", "another-secret-that-is-at-least-32-characters");
    resetEnvCache();
    expect(verifyAnonymousToken(token, now)).toBeNull();
  });

  it("expire after 30 days", () => {
    const { token } = mintAnonymousToken(now);
    expect(verifyAnonymousToken(token, new Date(now.getTime() + 29 * 86_400_000))).not.toBeNull();
    expect(verifyAnonymousToken(token, new Date(now.getTime() + 31 * 86_400_000))).toBeNull();
  });

  it("survive a rotation: SESSION_SECRET_PREVIOUS still verifies what the old secret signed", () => {
    const old = process.env.SESSION_SECRET!;
    const { token } = mintAnonymousToken(now);
    vi.stubEnv("SESSION_SECRET", "the-new-secret-after-rotation-0123456789");
    vi.stubEnv("SESSION_SECRET_PREVIOUS", old);
    resetEnvCache();
    expect(verifyAnonymousToken(token, now)).not.toBeNull();
    // New tokens are signed with the new secret.
    const fresh = mintAnonymousToken(now).token;
    vi.stubEnv("SESSION_SECRET_PREVIOUS", undefined);
    resetEnvCache();
    expect(verifyAnonymousToken(fresh, now)).not.toBeNull();
    expect(verifyAnonymousToken(token, now)).toBeNull();
  });
});

describe("minting sessions", () => {
  it("writes nothing: 300 cookieless visits leave the sessions table as it was", async () => {
    const before = await db().session.count();
    const now = new Date();
    for (let i = 0; i < 300; i++) {
      const minted = await ensureBrowserSession(undefined, now);
      expect(minted).not.toBeNull();
    }
    expect(await db().session.count()).toBe(before);
  });

  it("a valid token needs no new one; a forged or expired one is replaced", async () => {
    const now = new Date();
    const { token } = mintAnonymousToken(now);
    expect(await ensureBrowserSession(token, now)).toBeNull();
    expect(await ensureBrowserSession(`${token.slice(0, -2)}xx`, now)).not.toBeNull();
    expect(await ensureBrowserSession(token, new Date(now.getTime() + 31 * 86_400_000))).not.toBeNull();
  });

  it("a token is an adopter's session on the API", async () => {
    const { token } = mintAnonymousToken(new Date());
    const res = await call(sessionGET, "/v1/session", asBrowser(token, "198.51.100.60"));
    expect(await expectJson(res)).toEqual({
      kind: "anonymous",
      email: null,
      scopes: ["pets:read", "applications:write"],
      organizationId: null,
      platformAdmin: false,
    });
  });
});

describe("dropping the cookie does not multiply the budget", () => {
  it("a client minting a fresh session for every request is stopped at its address's ceiling", async () => {
    const now = new Date("2030-03-04T12:00:05.000Z");
    setClock(now);
    const address = "198.51.100.77";
    const statuses: number[] = [];
    for (let i = 0; i < ADDRESS_CEILING.perMinute; i++) {
      const { token } = mintAnonymousToken(now);
      const res = await call(listGET, "/v1/pets?limit=1", asBrowser(token, address));
      statuses.push(res.status);
      if (i === 0) {
        // The headers name both budgets: the session's and the address's.
        expect(res.headers.get("ratelimit-policy")).toBe(
          '"minute";q=60;w=60, "day";q=1000;w=86400, "address-minute";q=600;w=60, "address-day";q=10000;w=86400',
        );
        expect(res.headers.get("x-ratelimit-limit")).toBe("60");
      }
    }
    expect(statuses.every((s) => s === 200)).toBe(true);

    const over = await call(listGET, "/v1/pets?limit=1", asBrowser(mintAnonymousToken(now).token, address));
    const body = await expectApiError(over, 429, "rate_limited");
    expect(body.message).toContain("from your network address");
    expect(over.headers.get("x-ratelimit-limit")).toBe(String(ADDRESS_CEILING.perMinute));
    expect(Number(over.headers.get("retry-after"))).toBe(55);

    // Another address is not affected; nor is a session holding its own
    // cookie elsewhere.
    expect((await call(listGET, "/v1/pets?limit=1", asBrowser(mintAnonymousToken(now).token, "198.51.100.78"))).status).toBe(200);
  });

  it("one session that keeps its cookie still has its own Free budget", async () => {
    const now = new Date("2030-03-04T12:10:05.000Z");
    setClock(now);
    const { token } = mintAnonymousToken(now);
    for (let i = 0; i < 60; i++) expect((await call(listGET, "/v1/pets?limit=1", asBrowser(token, "198.51.100.90"))).status).toBe(200);
    await expectApiError(await call(listGET, "/v1/pets?limit=1", asBrowser(token, "198.51.100.90")), 429, "rate_limited");
  });
});

describe("sign-out", () => {
  it("is never refused for the rate limit: it counts, carries the headers, and works", async () => {
    const now = new Date("2030-03-04T12:20:05.000Z");
    setClock(now);
    const { token } = mintAnonymousToken(now);
    for (let i = 0; i < 60; i++) await call(listGET, "/v1/pets?limit=1", asBrowser(token, "198.51.100.95"));
    await expectApiError(await call(listGET, "/v1/pets?limit=1", asBrowser(token, "198.51.100.95")), 429, "rate_limited");
    const out = await call(signOutDELETE, "/v1/session", {
      method: "DELETE",
      headers: { ...asBrowser(token, "198.51.100.95").headers, origin: "http://localhost" },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(out.headers.get("set-cookie")).toMatch(/^petstore_session=; Path=\/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970/);
  });
});
