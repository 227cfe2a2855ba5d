import { afterAll, afterEach, expect, vi } from "vitest";
import { GET as getPetRoute } from "@/app/v1/pets/[petId]/route";
import { GET, POST } from "@/app/v1/pets/route";
import { flushBackground } from "@/lib/background";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { windowAt } from "@/lib/rate-limit/windows";
import { call, newKey } from "./helpers";

// What the rate-limit test files share: the limiter switched on, requests as
// a given caller, a pinned clock, bursts, and exact checks of every
// rate-limit header.

/**
 * tests/setup.ts switches the limiter off for other files: call this at the
 * top level of a rate-limit test file, before anything reads env(). The
 * limiter is on, X-Forwarded-For is not trusted, and REDIS_URL is unset so
 * the store is exactly the one the file installs (the default: PostgreSQL).
 * After each test the clock is real again; after the file, background work
 * is awaited, the store closed and the environment restored (also when every
 * test of the file was skipped).
 */
export function rateLimitTestFile(): void {
  vi.stubEnv("RATE_LIMIT_ENABLED", "true");
  vi.stubEnv("TRUST_PROXY", undefined);
  vi.stubEnv("REDIS_URL", undefined);
  resetEnvCache();

  afterEach(() => {
    setClock();
  });

  afterAll(async () => {
    setClock();
    await flushBackground();
    await setCounterStore(undefined);
    vi.unstubAllEnvs();
    resetEnvCache();
  });
}

export interface Who {
  /** An API key, sent as a bearer token. */
  key?: string;
  /** The client's socket address (the header our server always overwrites). */
  address?: string;
  headers?: Record<string, string>;
}

export const headersFor = ({ address, headers }: Who) => ({
  ...(address ? { [SOCKET_ADDRESS_HEADER]: address } : {}),
  ...headers,
});

export const list = (who: Who = {}) => call(GET, "/v1/pets?limit=1", { key: who.key, headers: headersFor(who) });
export const create = (json: unknown, who: Who = {}) => call(POST, "/v1/pets", { method: "POST", key: who.key, json, headers: headersFor(who) });
export const getPet = (petId: number, who: Who = {}) =>
  call(getPetRoute, `/v1/pets/${petId}`, { key: who.key, headers: headersFor(who), params: { petId: String(petId) } });

export const pin = (iso: string): Date => {
  const now = new Date(iso);
  setClock(now);
  return now;
};

export const unix = (d: Date) => Math.floor(d.getTime() / 1000);
export const secondsUntil = (end: Date, now: Date) => Math.ceil((end.getTime() - now.getTime()) / 1000);
export const minuteEnd = (now: Date) => windowAt("minute", now).end;
export const dayEnd = (now: Date) => windowAt("day", now).end;

/** Sends `n` requests, at most `batch` at a time, and returns the answers in order of sending. */
export async function burst(n: number, send: () => Promise<Response>, batch = 50): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < n; i += batch) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => send()))));
  }
  return out;
}

export const statuses = (responses: Response[]) => responses.map((r) => r.status);
export const countOf = (responses: Response[], status: number) => responses.filter((r) => r.status === status).length;

/** The key's persisted ban (api_keys.banned_until), as every instance and the staff page see it. */
export async function bannedUntil(id: number): Promise<Date | null> {
  const rows = await db().$queryRaw<{ banned_until: Date | null }[]>`SELECT banned_until FROM api_keys WHERE id = ${BigInt(id)}`;
  expect(rows).toHaveLength(1);
  return rows[0]!.banned_until;
}

export const enterprise = (perMinute: number, perDay: number, name = "enterprise key") =>
  newKey(["pets:read", "pets:write"], name, { plan: "enterprise", perMinute, perDay });

export function int(res: Response, name: string): number {
  const value = res.headers.get(name);
  expect(value, `header ${name}`).not.toBeNull();
  expect(value, `header ${name} is an integer`).toMatch(/^\d+$/);
  return Number(value);
}

/** `"name";a=1;b=2, "other";a=3` → { name: { a: 1, b: 2 }, other: { a: 3 } } (IETF ratelimit-headers draft). */
export function parseItems(header: string | null): Record<string, Record<string, number>> {
  expect(header).not.toBeNull();
  const out: Record<string, Record<string, number>> = {};
  for (const item of header!.split(",")) {
    const [name, ...params] = item.trim().split(";");
    const key = name!.trim().replace(/^"(.*)"$/, "$1");
    out[key] = Object.fromEntries(
      params.map((p) => {
        const [k, v] = p.trim().split("=");
        return [k!, Number(v)];
      }),
    );
  }
  return out;
}

export interface Expected {
  now: Date;
  /** X-RateLimit-*: the binding window. */
  limit: number;
  remaining: number;
  reset: Date;
  /** Quotas and remaining per window, for RateLimit-Policy and RateLimit. */
  minute: { q: number; r: number };
  day: { q: number; r: number };
}

/** Every rate-limit header, exactly. */
export function expectRateHeaders(res: Response, e: Expected): void {
  expect({
    limit: int(res, "X-RateLimit-Limit"),
    remaining: int(res, "X-RateLimit-Remaining"),
    reset: int(res, "X-RateLimit-Reset"),
  }).toEqual({ limit: e.limit, remaining: e.remaining, reset: unix(e.reset) });
  expect(parseItems(res.headers.get("RateLimit-Policy"))).toEqual({
    minute: { q: e.minute.q, w: 60 },
    day: { q: e.day.q, w: 86_400 },
  });
  expect(parseItems(res.headers.get("RateLimit"))).toEqual({
    minute: { r: e.minute.r, t: secondsUntil(minuteEnd(e.now), e.now) },
    day: { r: e.day.r, t: secondsUntil(dayEnd(e.now), e.now) },
  });
}
