import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { flushBackground } from "@/lib/background";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { env, resetEnvCache } from "@/lib/env";
import { BAN_MS, counterStore, setCounterStore, usageToday } from "@/lib/http/rate-limit";
import { RedisCounterStore } from "@/lib/rate-limit/redis-store";
import { windowAt } from "@/lib/rate-limit/windows";
import { expectApiError, expectJson, newKey } from "./helpers";
import { type Expected, list, create, getPet, pin, unix, burst, statuses, countOf, enterprise, int, expectRateHeaders } from "./rate-limit-helpers";

// The core rate-limit rules (spec section 8, product.md "Rate limits") with
// the counters in a REAL Redis (RedisCounterStore), as when REDIS_URL is set.
// Needs TEST_REDIS_URL (CI: redis://127.0.0.1:6379/15); its database is
// flushed first. Every test pins the clock (before the getPet sunset,
// 2030-12-05) and uses keys/addresses of its own.

const REDIS_URL = process.env.TEST_REDIS_URL;

// tests/setup.ts switches the limiter off for other files: on here, before
// anything reads env(); X-Forwarded-For not trusted; REDIS_URL unset so the
// store is exactly the one each test installs.
const saved = {
  RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED,
  TRUST_PROXY: process.env.TRUST_PROXY,
  REDIS_URL: process.env.REDIS_URL,
};
process.env.RATE_LIMIT_ENABLED = "true";
delete process.env.TRUST_PROXY;
delete process.env.REDIS_URL;
resetEnvCache();

function restoreEnv(): void {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
}

// ---------------------------------------------------------------- helpers
/** Resolves once the store's connection is up, so connection time stays out of the measured requests. */
async function whenReady(store: RedisCounterStore): Promise<void> {
  const redis = (store as unknown as { redis: Redis }).redis;
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    redis.once("ready", () => resolve());
    redis.once("end", () => reject(new Error("redis connection ended before it was ready")));
  });
}

async function readyStore(): Promise<RedisCounterStore> {
  const store = new RedisCounterStore(REDIS_URL!);
  await whenReady(store);
  return store;
}

// ---------------------------------------------------------------- tests

describe.skipIf(!REDIS_URL)("rate limits with the counters in Redis", () => {
  let admin: Redis;

  beforeAll(async () => {
    admin = new Redis(REDIS_URL!);
    await admin.flushdb();
    await setCounterStore(await readyStore());
  });

  afterEach(() => {
    setClock();
  });

  afterAll(async () => {
    setClock();
    await flushBackground();
    await setCounterStore(undefined);
    admin?.disconnect();
    restoreEnv();
  });

  it("the limiter is on and counts in Redis (guards every other test here)", async () => {
    expect(env().RATE_LIMIT_ENABLED).toBe(true);
    expect(counterStore()).toBeInstanceOf(RedisCounterStore);
    const { key, id } = await newKey(["pets:read"], "redis guard", { plan: "pro" });
    pin("2030-04-01T08:00:10.000Z");
    expect((await list({ key })).status).toBe(200);
    const keys = await admin.keys(`petstore:rl:key:${id}:*`);
    expect(keys.sort()).toEqual([
      `petstore:rl:key:${id}:day:${Date.UTC(2030, 3, 1)}`,
      `petstore:rl:key:${id}:minute:${Date.UTC(2030, 3, 1, 8, 0)}`,
    ]);
    // Not in PostgreSQL.
    const rows = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM rate_limit_counters WHERE key LIKE ${`key:${id}:%`}`;
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it.each([
    ["free", 60, "2030-04-01T09:01:05.000Z"],
    ["pro", 300, "2030-04-01T09:02:05.000Z"],
  ] as const)("exact minute limit, %s: the %ith request succeeds, the next one is 429 rate_limited", async (plan, limit, iso) => {
    const now = pin(iso);
    const { key } = await newKey(["pets:read"], `redis ${plan}`, { plan });
    const first = await burst(limit - 1, () => list({ key }));
    expect(countOf(first, 200), `statuses: ${statuses(first).join(",")}`).toBe(limit - 1);
    const last = await list({ key });
    expect(last.status).toBe(200);
    expect(int(last, "X-RateLimit-Remaining")).toBe(0);
    const over = await list({ key });
    await expectApiError(over, 429, "rate_limited");
    expect(int(over, "X-RateLimit-Limit")).toBe(limit);
    expect(int(over, "X-RateLimit-Remaining")).toBe(0);
    expect(int(over, "X-RateLimit-Reset")).toBe(unix(windowAt("minute", now).end));
    expect(int(over, "Retry-After")).toBe(55);
  });

  it("concurrency: 100 parallel requests against 40 left in the minute → exactly 40 succeed, 60 are 429", async () => {
    const { key, id } = await enterprise(100, 10_000, "redis parallel");
    const now = pin("2030-04-01T10:10:10.000Z");
    expect(countOf(await burst(60, () => list({ key }), 10), 200)).toBe(60);

    const results = await Promise.all(Array.from({ length: 100 }, () => list({ key })));
    expect(countOf(results, 200), `statuses: ${statuses(results).join(",")}`).toBe(40);
    expect(countOf(results, 429)).toBe(60);
    const remaining = results.filter((r) => r.status === 200).map((r) => int(r, "X-RateLimit-Remaining"));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    for (const r of results.filter((x) => x.status === 429)) await expectApiError(r, 429, "rate_limited");
    expect(await counterStore().peek(`key:${id}`, [windowAt("minute", now), windowAt("day", now)])).toEqual([160, 160]);
  });

  it("two store instances (two app instances) on one Redis share one counter: parallel hits get distinct counts 1..N", async () => {
    const a = await readyStore();
    const b = await readyStore();
    try {
      const t = new Date("2030-04-01T10:12:12.000Z");
      const windows = [windowAt("minute", t), windowAt("day", t)];
      const counts = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).hit("test:two-instances", windows)));
      expect(counts.map((c) => c[0]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
      expect(counts.map((c) => c[1]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("day window (enterprise 100/min, 5/day): 5 succeed, the 6th is 429 until the next UTC midnight, then requests pass again", async () => {
    const { key } = await enterprise(100, 5, "redis daily five");
    const now = pin("2030-04-10T22:30:15.250Z");
    const midnight = new Date("2030-04-11T00:00:00.000Z");
    for (let i = 1; i <= 5; i++) {
      const res = await list({ key });
      expect(res.status, `request ${i}`).toBe(200);
      expectRateHeaders(res, { now, limit: 5, remaining: 5 - i, reset: midnight, minute: { q: 100, r: 100 - i }, day: { q: 5, r: 5 - i } });
    }
    const sixth = await list({ key });
    await expectApiError(sixth, 429, "rate_limited");
    expect(int(sixth, "X-RateLimit-Limit")).toBe(5);
    expect(int(sixth, "X-RateLimit-Remaining")).toBe(0);
    expect(int(sixth, "X-RateLimit-Reset")).toBe(unix(midnight));
    expect(int(sixth, "Retry-After")).toBe(5_385);

    pin("2030-04-10T23:59:59.999Z");
    await expectApiError(await list({ key }), 429, "rate_limited");

    const next = pin("2030-04-11T00:00:00.000Z");
    const fresh = await list({ key });
    expect(fresh.status).toBe(200);
    expectRateHeaders(fresh, {
      now: next,
      limit: 5,
      remaining: 4,
      reset: new Date("2030-04-12T00:00:00.000Z"),
      minute: { q: 100, r: 99 },
      day: { q: 5, r: 4 },
    });
  });

  it("minute edge: exhausted at hh:mm:59.9, a request at hh:(mm+1):00.0 passes", async () => {
    const { key } = await enterprise(3, 1_000, "redis minute edge");
    pin("2030-04-01T10:14:59.900Z");
    expect(statuses(await burst(3, () => list({ key })))).toEqual([200, 200, 200]);
    const limited = await list({ key });
    await expectApiError(limited, 429, "rate_limited");
    expect(int(limited, "Retry-After")).toBe(1);
    pin("2030-04-01T10:15:00.000Z");
    const passes = await list({ key });
    expect(passes.status).toBe(200);
    expect(int(passes, "X-RateLimit-Remaining")).toBe(2);
    expect(int(passes, "X-RateLimit-Reset")).toBe(unix(new Date("2030-04-01T10:16:00.000Z")));
  });

  it("headers on 200, 201, 400, 404 and 429: Remaining down by one per request", async () => {
    const { key } = await enterprise(5, 1_000, "redis headers");
    const now = pin("2030-04-01T11:20:30.000Z");
    const reset = new Date("2030-04-01T11:21:00.000Z");
    const expected = (used: number): Expected => ({
      now,
      limit: 5,
      remaining: 5 - used,
      reset,
      minute: { q: 5, r: 5 - used },
      day: { q: 1_000, r: 1_000 - used },
    });

    const listed = await list({ key });
    await expectJson(listed, 200);
    expectRateHeaders(listed, expected(1));
    const created = await create({ name: "Counted in Redis", categoryId: 1 }, { key });
    const pet = await expectJson<{ id: number }>(created, 201);
    expectRateHeaders(created, expected(2));
    const invalid = await create({ categoryId: 1 }, { key });
    await expectApiError(invalid, 400, "invalid_body");
    expectRateHeaders(invalid, expected(3));
    const missing = await getPet(987_654_321, { key });
    await expectApiError(missing, 404, "not_found");
    expectRateHeaders(missing, expected(4));
    const found = await getPet(pet.id, { key });
    await expectJson(found, 200);
    expectRateHeaders(found, expected(5));

    const limited = await list({ key });
    const body = await expectApiError(limited, 429, "rate_limited");
    expect(body).toEqual({ code: "rate_limited", message: expect.any(String), status: 429 });
    expectRateHeaders(limited, { ...expected(6), remaining: 0, minute: { q: 5, r: 0 } });
    expect(limited.headers.get("Retry-After")).toBe("30");
  });

  it("401s are counted per client address at the free figures; the 61st is 429; another address is unaffected", async () => {
    const now = pin("2030-04-01T11:25:30.000Z");
    const first = await list({ address: "203.0.113.7" });
    await expectApiError(first, 401, "unauthorized");
    expectRateHeaders(first, {
      now,
      limit: 60,
      remaining: 59,
      reset: new Date("2030-04-01T11:26:00.000Z"),
      minute: { q: 60, r: 59 },
      day: { q: 1_000, r: 999 },
    });
    // Same socket address, another X-Forwarded-For: still the same counter.
    const rest = await burst(59, () => list({ address: "203.0.113.7", headers: { "x-forwarded-for": "10.1.2.3" } }));
    expect(countOf(rest, 401)).toBe(59);
    await expectApiError(await list({ address: "203.0.113.7" }), 429, "rate_limited");
    const other = await list({ address: "203.0.113.8" });
    await expectApiError(other, 401, "unauthorized");
    expect(int(other, "X-RateLimit-Remaining")).toBe(59);
  });

  it("ban: limit 3 → 1-3 pass, 4-6 rate_limited, the 7th key_temporarily_banned for 900 s, still banned in the next minute", async () => {
    const { key } = await enterprise(3, 1_000, "redis persistent");
    const now = pin("2030-04-01T13:40:10.000Z");
    const results = await burst(7, () => list({ key }), 1);
    expect(statuses(results)).toEqual([200, 200, 200, 429, 429, 429, 429]);
    for (const r of results.slice(3, 6)) await expectApiError(r, 429, "rate_limited");
    await expectApiError(results[6]!, 429, "key_temporarily_banned");
    expect(int(results[6]!, "Retry-After")).toBe(BAN_MS / 1000);
    pin(new Date(now.getTime() + 60_000).toISOString());
    const later = await list({ key });
    await expectApiError(later, 429, "key_temporarily_banned");
    expect(int(later, "Retry-After")).toBe(840);
  });

  it("usageToday reads the day's count from Redis", async () => {
    const { key, id } = await newKey(["pets:read"], "redis usage", { plan: "pro" });
    pin("2030-04-07T08:00:10.000Z");
    await burst(3, () => list({ key }));
    pin("2030-04-07T09:30:00.000Z");
    await list({ key });
    expect(Object.fromEntries(await usageToday([id], new Date("2030-04-07T12:00:00.000Z")))).toEqual({ [id]: 4 });
    expect(Object.fromEntries(await usageToday([id], new Date("2030-04-08T12:00:00.000Z")))).toEqual({ [id]: 0 });
  });

  it("counters expire by themselves: every key has a TTL of at most its window + 60 s", async () => {
    const { key, id } = await newKey(["pets:read"], "redis ttl", { plan: "pro" });
    pin("2030-04-01T14:00:10.000Z");
    await list({ key });
    await list({ key });
    const minuteKey = `petstore:rl:key:${id}:minute:${Date.UTC(2030, 3, 1, 14, 0)}`;
    const dayKey = `petstore:rl:key:${id}:day:${Date.UTC(2030, 3, 1)}`;
    expect(await admin.get(minuteKey)).toBe("2");
    const [minuteTtl, dayTtl] = [await admin.pttl(minuteKey), await admin.pttl(dayKey)];
    expect(minuteTtl).toBeGreaterThan(0);
    expect(minuteTtl).toBeLessThanOrEqual(120_000);
    expect(dayTtl).toBeGreaterThan(120_000);
    expect(dayTtl).toBeLessThanOrEqual(86_400_000 + 60_000);
  });

  it("Redis down → 503 service_unavailable with Retry-After and a generic message; nothing gets through", async () => {
    const { key } = await newKey(["pets:read", "pets:write"], "redis down", { plan: "pro" });
    pin("2030-04-01T14:30:00.000Z");
    const petsBefore = await db().pet.count();
    await setCounterStore(new RedisCounterStore("redis://127.0.0.1:1"));
    try {
      for (const res of [await list({ key }), await create({ name: "Uncounted", categoryId: 1 }, { key }), await list({ address: "203.0.113.80" })]) {
        const body = await expectApiError(res, 503, "service_unavailable");
        expect(int(res, "Retry-After")).toBeGreaterThan(0);
        expect(body.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|redis|stream|offline|connect|stack|at /i);
      }
      expect(await db().pet.count()).toBe(petsBefore);
    } finally {
      await setCounterStore(await readyStore());
    }
    const res = await list({ key });
    expect(res.status).toBe(200);
    expect(int(res, "X-RateLimit-Remaining")).toBe(299);
  });

  describe("a freshly started instance (store created by the first request, REDIS_URL set)", () => {
    afterAll(async () => {
      await setCounterStore(undefined);
      delete process.env.REDIS_URL;
      resetEnvCache();
    });

    it("answers its first request instead of 503 while the Redis connection is still opening", async () => {
      const { key } = await newKey(["pets:read"], "redis cold start", { plan: "pro" });
      pin("2030-04-01T15:00:10.000Z");
      // As in production: REDIS_URL configured, no store yet; counterStore()
      // builds it inside the first request and sends the hit right away.
      await setCounterStore(undefined);
      process.env.REDIS_URL = REDIS_URL!;
      resetEnvCache();
      const first = await list({ key });
      expect(first.status, `first request after start: ${await first.clone().text()}`).toBe(200);
      expect(int(first, "X-RateLimit-Remaining")).toBe(299);
      expect(counterStore()).toBeInstanceOf(RedisCounterStore);
    });
  });
});
