import { createHash } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as signInPOST } from "@/app/v1/session/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import * as password from "@/lib/staff/password";
import { createStaff } from "@/lib/staff/service";
import { ACCOUNT_RULE, listLockouts, unlock } from "@/lib/staff/throttle";
import { call, expectApiError } from "./helpers";

// Guessing staff passwords costs the guesser: 5 failures in 15 minutes lock
// that account from that address, 100 in an hour lock the address, each
// further lock-out doubles; a locked caller costs no scrypt run; and no
// answer says whether the email exists.

const STAFF = { email: "throttled@petstore.test", password: "the right password here" };
const HOST = "127.0.0.1:3000";

beforeAll(async () => {
  await createStaff(STAFF, { organizationId: 1 });
});

afterEach(async () => {
  setClock();
  vi.restoreAllMocks();
  await db().signInThrottle.deleteMany();
});

let clock = Date.parse("2030-05-01T10:00:00Z");
/** A fresh instant per test, so no test meets another's windows. */
function pinFresh(): Date {
  clock += 3 * 86_400_000;
  const now = new Date(clock);
  setClock(now);
  return now;
}
const advance = (now: Date, ms: number) => {
  const later = new Date(now.getTime() + ms);
  setClock(later);
  return later;
};

const attempt = (email: string, pw: string, address = "198.51.100.10") =>
  call(signInPOST, "/v1/session", {
    method: "POST",
    json: { email, password: pw },
    headers: { host: HOST, origin: `http://${HOST}`, [SOCKET_ADDRESS_HEADER]: address },
  });

async function expectLocked(res: Response, seconds: number) {
  const body = await expectApiError(res, 429, "rate_limited");
  expect(body.message).toBe(`Too many failed sign-in attempts. Try again in ${Math.ceil(seconds / 60)} minutes.`);
  expect(Number(res.headers.get("retry-after"))).toBe(seconds);
  return body;
}

describe("per account and address", () => {
  it("5 failures lock the account from that address for 15 minutes: even the right password is refused, without a scrypt run", async () => {
    const now = pinFresh();
    for (let i = 0; i < ACCOUNT_RULE.maxFailures; i++) await expectApiError(await attempt(STAFF.email, "wrong password"), 401, "unauthorized");
    const verify = vi.spyOn(password, "verifyPassword");
    await expectLocked(await attempt(STAFF.email, STAFF.password), 900);
    expect(verify).not.toHaveBeenCalled();

    // Another address is not locked out of the account.
    expect((await attempt(STAFF.email, STAFF.password, "198.51.100.11")).status).toBe(200);
    // The lock ends after 15 minutes.
    advance(now, 15 * 60_000 + 1_000);
    expect((await attempt(STAFF.email, STAFF.password)).status).toBe(200);
  });

  it("an unknown email is treated exactly like a wrong password: same answers, same scrypt runs, same lock", async () => {
    pinFresh();
    const verify = vi.spyOn(password, "verifyPassword");
    const known = [];
    const unknown = [];
    for (let i = 0; i < 5; i++) {
      known.push(await attempt(STAFF.email, "wrong password", "198.51.100.20"));
      unknown.push(await attempt("nobody@petstore.test", "wrong password", "198.51.100.21"));
    }
    expect(verify).toHaveBeenCalledTimes(10);
    const bodies = async (list: Response[]) => Promise.all(list.map(async (r) => ({ status: r.status, body: await r.json() })));
    expect(await bodies(unknown)).toEqual(await bodies(known));
    const a = await attempt(STAFF.email, "wrong password", "198.51.100.20");
    const b = await attempt("nobody@petstore.test", "wrong password", "198.51.100.21");
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(await b.json()).toEqual(await a.json());
    expect(b.headers.get("retry-after")).toBe(a.headers.get("retry-after"));
    expect(verify).toHaveBeenCalledTimes(10);
  });

  it("lock-outs grow: 15, then 30, then 60 minutes", async () => {
    let now = pinFresh();
    for (const minutes of [15, 30, 60]) {
      for (let i = 0; i < 5; i++) await expectApiError(await attempt(STAFF.email, "wrong password"), 401, "unauthorized");
      await expectLocked(await attempt(STAFF.email, "wrong password"), minutes * 60);
      now = advance(now, minutes * 60_000 + 1_000);
    }
  });

  it("a successful sign-in forgets the account's failures (from every address)", async () => {
    pinFresh();
    for (let i = 0; i < 4; i++) await attempt(STAFF.email, "wrong password", "198.51.100.30");
    expect((await attempt(STAFF.email, STAFF.password, "198.51.100.31")).status).toBe(200);
    // Four more failures from the first address lock nothing: the count started again.
    for (let i = 0; i < 4; i++) await expectApiError(await attempt(STAFF.email, "wrong password", "198.51.100.30"), 401, "unauthorized");
    expect((await attempt(STAFF.email, STAFF.password, "198.51.100.30")).status).toBe(200);
  });

  it("20 parallel guesses run at most 5 scrypt checks; the rest are refused at once", async () => {
    pinFresh();
    const verify = vi.spyOn(password, "verifyPassword");
    const answers = await Promise.all(Array.from({ length: 20 }, () => attempt(STAFF.email, "wrong password", "198.51.100.40")));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(verify).toHaveBeenCalledTimes(5);
  });
});

describe("per address", () => {
  it("100 failures in an hour, over any emails, lock the address for an hour", { timeout: 60_000 }, async () => {
    pinFresh();
    for (let i = 0; i < 100; i++) {
      const res = await attempt(`guess${i % 25}@petstore.test`, `wrong ${i}`, "198.51.100.50");
      expect(res.status).toBe(401);
    }
    await expectLocked(await attempt(STAFF.email, STAFF.password, "198.51.100.50"), 3600);
    expect((await attempt(STAFF.email, STAFF.password, "198.51.100.51")).status).toBe(200);
  });
});

describe("what the table keeps", () => {
  it("no email: a keyed hash of it (HMAC under a key derived from SESSION_SECRET), so a copy of the table names no account", async () => {
    pinFresh();
    const guessed = "someone.else@petstore.test";
    for (let i = 0; i < 3; i++) {
      await attempt(STAFF.email, "wrong password", "198.51.100.60");
      await attempt(guessed, "wrong password", "198.51.100.60");
    }
    const rows = await db().$queryRaw<Record<string, unknown>[]>`SELECT * FROM sign_in_throttles`;
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows).toLowerCase();
    for (const email of [STAFF.email, guessed]) {
      expect(text).not.toContain(email);
      // Nor a plain hash of it, which a list of likely emails reverses.
      expect(text).not.toContain(createHash("sha256").update(email).digest("hex").slice(0, 32));
    }
  });
});

describe("staff see and lift lock-outs", () => {
  it("lists them and lifts them by account or by address", async () => {
    const now = pinFresh();
    for (let i = 0; i < 5; i++) await attempt(STAFF.email, "wrong password", "2001:db8:1:2::7");
    const listed = await listLockouts(now);
    // Staff accounts are named (their emails hash to what is kept); the address as a whole is not an account.
    expect(listed).toEqual(
      expect.arrayContaining([
        { scope: "staff", email: STAFF.email, address: "ip6:2001:db8:1:2::/64", attempts: 0, lockedUntil: new Date(now.getTime() + 900_000), lockouts: 1 },
        { scope: "address", email: null, address: "ip6:2001:db8:1:2::/64", attempts: 5, lockedUntil: null, lockouts: 0 },
      ]),
    );
    // The same /64 is the same client.
    await expectApiError(await attempt(STAFF.email, STAFF.password, "2001:db8:1:2::99"), 429, "rate_limited");
    expect(await unlock({ email: STAFF.email })).toBe(1);
    expect((await attempt(STAFF.email, STAFF.password, "2001:db8:1:2::99")).status).toBe(200);
    expect(await unlock({ address: "2001:db8:1:2::1" })).toBe(1);
  });

  it("guesses of an email that is no staff account are listed as such, and lifted by that email", async () => {
    const now = pinFresh();
    for (let i = 0; i < 5; i++) await attempt("not.staff@petstore.test", "wrong password", "198.51.100.70");
    const [guess] = (await listLockouts(now)).filter((l) => l.scope !== "address");
    expect(guess).toEqual({
      scope: "unknown_email",
      email: null,
      address: "ip:198.51.100.70",
      attempts: 0,
      lockedUntil: new Date(now.getTime() + 900_000),
      lockouts: 1,
    });
    expect(await unlock({ email: "not.staff@petstore.test" })).toBe(1);
  });
});
