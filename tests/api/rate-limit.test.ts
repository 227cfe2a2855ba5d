import { afterAll, afterEach, describe, expect, it } from "vitest";
import { flushBackground } from "@/lib/background";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { env, resetEnvCache } from "@/lib/env";
import { BAN_MS, counterStore, setCounterStore, usageToday } from "@/lib/http/rate-limit";
import { PLAN_LIMITS } from "@/lib/keys/plans";
import { setApiKeyPlan, unbanApiKey } from "@/lib/keys/service";
import { PostgresCounterStore } from "@/lib/rate-limit/postgres-store";
import { windowAt } from "@/lib/rate-limit/windows";
import { UNKNOWN_KEY, expectApiError, expectJson, newKey } from "./helpers";
import { type Expected, list, create, getPet, pin, unix, secondsUntil, minuteEnd, burst, statuses, countOf, enterprise, int, parseItems, expectRateHeaders } from "./rate-limit-helpers";

// Spec section 8 and product.md "Rate limits", against the real route
// handlers and the default store (PostgreSQL, table rate_limit_counters).
// Counters are keyed by UTC window start, so every test pins the clock to an
// instant of its own (before the getPet sunset, 2030-12-05, so that route
// still answers) and uses keys/addresses of its own.

// tests/setup.ts switches the limiter off for other files: switch it on here,
// before anything reads env(), and make sure X-Forwarded-For is not trusted.
const saved = { RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED, TRUST_PROXY: process.env.TRUST_PROXY };
process.env.RATE_LIMIT_ENABLED = "true";
delete process.env.TRUST_PROXY;
resetEnvCache();

afterEach(() => {
  setClock();
});

afterAll(async () => {
  setClock();
  await flushBackground();
  await setCounterStore(undefined);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
});

// ---------------------------------------------------------------- helpers
async function counterRows(rateKey: string): Promise<{ key: string; window_start: Date; hits: number }[]> {
  return db().$queryRaw<{ key: string; window_start: Date; hits: number }[]>`
    SELECT key, window_start, hits FROM rate_limit_counters
    WHERE key LIKE ${`${rateKey}:%`} ORDER BY window_start, key`;
}

async function bannedUntil(id: number): Promise<Date | null> {
  const rows = await db().$queryRaw<{ banned_until: Date | null }[]>`SELECT banned_until FROM api_keys WHERE id = ${BigInt(id)}`;
  expect(rows).toHaveLength(1);
  return rows[0]!.banned_until;
}

const RATE_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit", "retry-after"];

// ---------------------------------------------------------------- tests

it("the limiter is on in this file (guards every other test here)", () => {
  expect(env().RATE_LIMIT_ENABLED).toBe(true);
  expect(env().TRUST_PROXY).toBe(false);
});

describe("minute limits per plan (spec 8: free 60, pro 300, business 1,000 per minute)", () => {
  it.each([
    ["free", 60, "2030-03-04T09:01:05.000Z"],
    ["pro", 300, "2030-03-04T09:02:05.000Z"],
    ["business", 1_000, "2030-03-04T09:03:05.000Z"],
  ] as const)("%s: the %ith request of a minute succeeds, the next one is 429 rate_limited", async (plan, limit, iso) => {
    expect(PLAN_LIMITS[plan].perMinute).toBe(limit);
    const now = pin(iso);
    const { key } = await newKey(["pets:read"], `${plan} key`, { plan });

    const first = await burst(limit - 1, () => list({ key }));
    expect(countOf(first, 200), `statuses: ${statuses(first).join(",")}`).toBe(limit - 1);

    const last = await list({ key });
    expect(last.status).toBe(200);
    expect(int(last, "X-RateLimit-Limit")).toBe(limit);
    expect(int(last, "X-RateLimit-Remaining")).toBe(0);

    const over = await list({ key });
    await expectApiError(over, 429, "rate_limited");
    expect(int(over, "X-RateLimit-Limit")).toBe(limit);
    expect(int(over, "X-RateLimit-Remaining")).toBe(0);
    expect(int(over, "X-RateLimit-Reset")).toBe(unix(minuteEnd(now)));
    expect(int(over, "Retry-After")).toBe(55);
  });
});

describe("windows are fixed and aligned to UTC", () => {
  it("day window (enterprise 100/min, 5/day): 5 succeed, the 6th is 429 until the next UTC midnight, then requests pass again", async () => {
    const { key } = await enterprise(100, 5, "daily five");
    const now = pin("2030-03-10T22:30:15.250Z");
    const midnight = new Date("2030-03-11T00:00:00.000Z");

    for (let i = 1; i <= 5; i++) {
      const res = await list({ key });
      expect(res.status, `request ${i}`).toBe(200);
      // The day window binds (fewer left than in the minute): its figures are shown.
      expectRateHeaders(res, {
        now,
        limit: 5,
        remaining: 5 - i,
        reset: midnight,
        minute: { q: 100, r: 100 - i },
        day: { q: 5, r: 5 - i },
      });
    }

    const sixth = await list({ key });
    await expectApiError(sixth, 429, "rate_limited");
    expect(int(sixth, "X-RateLimit-Limit")).toBe(5);
    expect(int(sixth, "X-RateLimit-Remaining")).toBe(0);
    expect(int(sixth, "X-RateLimit-Reset")).toBe(unix(midnight));
    // 22:30:15.250 -> 24:00:00.000 is 5,384.75 s: rounded up, never early.
    expect(int(sixth, "Retry-After")).toBe(5_385);
    expect(int(sixth, "Retry-After")).toBe(secondsUntil(midnight, now));

    // Later the same day, in another minute: still the day's 429.
    pin("2030-03-10T23:59:59.999Z");
    const lastMs = await list({ key });
    await expectApiError(lastMs, 429, "rate_limited");
    expect(int(lastMs, "Retry-After")).toBe(1);
    expect(int(lastMs, "X-RateLimit-Reset")).toBe(unix(midnight));

    // The next UTC day opens a fresh window.
    const next = pin("2030-03-11T00:00:00.000Z");
    const fresh = await list({ key });
    expect(fresh.status).toBe(200);
    expectRateHeaders(fresh, {
      now: next,
      limit: 5,
      remaining: 4,
      reset: new Date("2030-03-12T00:00:00.000Z"),
      minute: { q: 100, r: 99 },
      day: { q: 5, r: 4 },
    });
  });

  it("both windows exceeded: Retry-After and X-RateLimit-* describe the one that reopens later (the day)", async () => {
    const { key } = await enterprise(2, 3, "both spent");
    pin("2030-03-12T10:00:10.000Z");
    expect(statuses(await burst(2, () => list({ key }), 1))).toEqual([200, 200]);
    const now = pin("2030-03-12T10:01:10.000Z");
    const midnight = new Date("2030-03-13T00:00:00.000Z");
    const results = await burst(3, () => list({ key }), 1);
    // 3rd of the day passes; 4th exceeds the day only; 5th exceeds the day and the minute (2 in it already).
    expect(statuses(results)).toEqual([200, 429, 429]);
    for (const res of results.slice(1)) {
      await expectApiError(res, 429, "rate_limited");
      expect(int(res, "Retry-After")).toBe(secondsUntil(midnight, now)); // 13 h 58 min 50 s, not the minute's 50 s
      expect(int(res, "X-RateLimit-Limit")).toBe(3);
      expect(int(res, "X-RateLimit-Remaining")).toBe(0);
      expect(int(res, "X-RateLimit-Reset")).toBe(unix(midnight));
    }
    expect(int(results[2]!, "Retry-After")).toBe(50_330);
  });

  it("minute edge: exhausted at hh:mm:59.9, a request at hh:(mm+1):00.0 passes", async () => {
    const { key } = await enterprise(3, 1_000, "minute edge");
    const before = pin("2030-03-04T10:14:59.900Z");
    expect(statuses(await burst(3, () => list({ key })))).toEqual([200, 200, 200]);
    const limited = await list({ key });
    await expectApiError(limited, 429, "rate_limited");
    expect(int(limited, "Retry-After")).toBe(1); // 0.1 s left, rounded up
    expect(int(limited, "X-RateLimit-Reset")).toBe(unix(minuteEnd(before)));

    const after = pin("2030-03-04T10:15:00.000Z");
    const passes = await list({ key });
    expect(passes.status).toBe(200);
    expectRateHeaders(passes, {
      now: after,
      limit: 3,
      remaining: 2,
      reset: new Date("2030-03-04T10:16:00.000Z"),
      minute: { q: 3, r: 2 },
      day: { q: 1_000, r: 1_000 - 5 },
    });
  });
});

describe("rate-limit headers on every answer", () => {
  it("200, 201, 400, 404 and 429 for one key: the same headers, Remaining down by one per request", async () => {
    const { key } = await enterprise(5, 1_000, "headers");
    const now = pin("2030-03-04T11:20:30.000Z");
    const reset = new Date("2030-03-04T11:21:00.000Z");
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

    const created = await create({ name: "Counted", categoryId: 1 }, { key });
    const pet = await expectJson<{ id: number }>(created, 201);
    expectRateHeaders(created, expected(2));

    const invalid = await create({}, { key });
    await expectApiError(invalid, 400, "invalid_body");
    expectRateHeaders(invalid, expected(3));

    const missing = await getPet(987_654_321, { key });
    await expectApiError(missing, 404, "not_found");
    expectRateHeaders(missing, expected(4));

    const found = await getPet(pet.id, { key });
    await expectJson(found, 200);
    expectRateHeaders(found, expected(5));

    const petsBefore = await db().pet.count();
    const limited = await create({ name: "Refused", categoryId: 1 }, { key });
    const body = await expectApiError(limited, 429, "rate_limited");
    expect(body).toEqual({ code: "rate_limited", message: expect.any(String), status: 429 });
    expectRateHeaders(limited, { ...expected(6), remaining: 0, minute: { q: 5, r: 0 } });
    expect(limited.headers.get("Retry-After")).toBe("30"); // integer delay-seconds until 11:21:00
    // A refused request does not run: nothing was created.
    expect(await db().pet.count()).toBe(petsBefore);
  });

  it("401 without a key: headers for the client address, at the free figures (60/min, 1,000/day)", async () => {
    const now = pin("2030-03-04T11:25:30.000Z");
    const reset = new Date("2030-03-04T11:26:00.000Z");
    for (let used = 1; used <= 2; used++) {
      const res = await list({ address: "203.0.113.7" });
      await expectApiError(res, 401, "unauthorized");
      expectRateHeaders(res, {
        now,
        limit: 60,
        remaining: 60 - used,
        reset,
        minute: { q: 60, r: 60 - used },
        day: { q: 1_000, r: 1_000 - used },
      });
    }
    // An invalid key is anonymous too: same address, same counter.
    const invalid = await list({ key: UNKNOWN_KEY, address: "203.0.113.7" });
    await expectApiError(invalid, 401, "unauthorized");
    expect(int(invalid, "X-RateLimit-Remaining")).toBe(57);
  });

  it("X-RateLimit-Reset is the end of the current UTC minute, Retry-After absent below the limit", async () => {
    const { key } = await newKey(["pets:read"], "reset", { plan: "pro" });
    for (const iso of ["2030-03-04T11:30:00.000Z", "2030-03-04T11:31:59.999Z", "2030-03-04T11:32:17.400Z"]) {
      const now = pin(iso);
      const res = await list({ key });
      expect(res.status).toBe(200);
      expect(int(res, "X-RateLimit-Reset")).toBe(unix(minuteEnd(now)));
      expect(int(res, "X-RateLimit-Limit")).toBe(300);
      expect(int(res, "X-RateLimit-Remaining")).toBe(299); // a new minute each time
      expect(res.headers.get("Retry-After")).toBeNull();
    }
  });
});

describe("every request counts, whatever its answer", () => {
  it("401s from one address spend that address's free budget: the 61st is 429; another address is unaffected", async () => {
    const now = pin("2030-03-04T12:00:20.000Z");
    const first = await burst(60, () => list({ address: "198.51.100.20" }));
    expect(countOf(first, 401), `statuses: ${statuses(first).join(",")}`).toBe(60);
    const remaining = first.map((r) => int(r, "X-RateLimit-Remaining")).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i)); // 0..59, each once

    const over = await list({ address: "198.51.100.20" });
    await expectApiError(over, 429, "rate_limited");
    expect(int(over, "Retry-After")).toBe(secondsUntil(minuteEnd(now), now));
    // A bad key from that address does not escape the address's counter either.
    await expectApiError(await list({ key: UNKNOWN_KEY, address: "198.51.100.20" }), 429, "rate_limited");

    const other = await list({ address: "198.51.100.21" });
    await expectApiError(other, 401, "unauthorized");
    expect(int(other, "X-RateLimit-Remaining")).toBe(59);
  });

  it("an address's anonymous budget is not a key's: a valid key from a limited address still passes", async () => {
    pin("2030-03-04T12:02:20.000Z");
    await burst(61, () => list({ address: "198.51.100.30" }));
    await expectApiError(await list({ address: "198.51.100.30" }), 429, "rate_limited");
    const { key } = await newKey(["pets:read"], "from a limited address", { plan: "free" });
    const res = await list({ key, address: "198.51.100.30" });
    expect(res.status).toBe(200);
    expect(int(res, "X-RateLimit-Remaining")).toBe(59);
  });

  it("X-Forwarded-For is ignored (TRUST_PROXY unset): same socket address, different X-Forwarded-For, one counter", async () => {
    pin("2030-03-04T12:05:20.000Z");
    const a = await list({ address: "192.0.2.50", headers: { "x-forwarded-for": "10.0.0.1" } });
    const b = await list({ address: "192.0.2.50", headers: { "x-forwarded-for": "10.0.0.2, 10.9.9.9" } });
    expect([a.status, b.status]).toEqual([401, 401]);
    expect([int(a, "X-RateLimit-Remaining"), int(b, "X-RateLimit-Remaining")]).toEqual([59, 58]);

    // And the forwarded address is not charged: a different socket sending the same XFF has its own counter.
    const c = await list({ address: "192.0.2.51", headers: { "x-forwarded-for": "10.0.0.1" } });
    expect(int(c, "X-RateLimit-Remaining")).toBe(59);
    expect(await counterRows("ip:10.0.0.1")).toEqual([]);
    expect((await counterRows("ip:192.0.2.50")).map((r) => r.hits)).toEqual([2, 2]);
  });
});

describe("concurrency", () => {
  it("100 parallel requests against 40 left in the minute: exactly 40 succeed, 60 are 429", async () => {
    const { key, id } = await enterprise(100, 10_000, "parallel");
    pin("2030-03-04T12:10:10.000Z");
    const warmup = await burst(60, () => list({ key }), 10);
    expect(countOf(warmup, 200)).toBe(60);

    const results = await Promise.all(Array.from({ length: 100 }, () => list({ key })));
    expect(countOf(results, 200), `statuses: ${statuses(results).join(",")}`).toBe(40);
    expect(countOf(results, 429)).toBe(60);
    // Every success saw a count of its own: Remaining 39..0, each exactly once.
    const remaining = results.filter((r) => r.status === 200).map((r) => int(r, "X-RateLimit-Remaining"));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    for (const r of results.filter((x) => x.status === 429)) await expectApiError(r, 429, "rate_limited");
    // All 160 were counted, in the minute and in the day.
    expect((await counterRows(`key:${id}`)).map((r) => [r.key, r.hits])).toEqual([
      [`key:${id}:day`, 160],
      [`key:${id}:minute`, 160],
    ]);
  });

  it("two store instances (two app instances) share one counter: parallel hits get distinct counts 1..N", async () => {
    const url = env().DATABASE_URL!;
    const a = new PostgresCounterStore(url);
    const b = new PostgresCounterStore(url);
    try {
      const windows = [windowAt("minute", new Date("2030-03-04T12:12:12.000Z")), windowAt("day", new Date("2030-03-04T12:12:12.000Z"))];
      const counts = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).hit("test:two-instances", windows)));
      expect(counts.map((c) => c[0]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
      expect(counts.map((c) => c[1]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    } finally {
      await a.close();
      await b.close();
    }
  });
});


describe("temporary ban (a key that keeps sending while limited)", () => {
  it("limit 3: 1-3 pass, 4-6 rate_limited, the 7th (count > 2×limit) bans for 15 min; the ban outlives the minute; unbanApiKey lifts it", async () => {
    expect(BAN_MS).toBe(15 * 60_000);
    const { key, id } = await enterprise(3, 1_000, "persistent");
    const now = pin("2030-03-04T13:40:10.000Z");
    const until = new Date(now.getTime() + 15 * 60_000);

    expect(statuses(await burst(3, () => list({ key }), 1))).toEqual([200, 200, 200]);
    for (let i = 4; i <= 6; i++) {
      const res = await list({ key });
      await expectApiError(res, 429, "rate_limited");
      expect(int(res, "Retry-After"), `request ${i}`).toBe(50);
    }
    expect(await bannedUntil(id)).toBeNull();

    const seventh = await list({ key });
    await expectApiError(seventh, 429, "key_temporarily_banned");
    expect(int(seventh, "Retry-After")).toBe(900);
    expect(int(seventh, "X-RateLimit-Remaining")).toBe(0);
    // Persisted, so every instance (and the staff page) sees it.
    expect((await bannedUntil(id))?.toISOString()).toBe(until.toISOString());

    const eighth = await list({ key });
    await expectApiError(eighth, 429, "key_temporarily_banned");
    expect(int(eighth, "Retry-After")).toBe(900);

    // A fresh minute does not end the ban: Retry-After counts the ban down.
    pin("2030-03-04T13:41:10.000Z");
    const later = await list({ key });
    await expectApiError(later, 429, "key_temporarily_banned");
    expect(int(later, "Retry-After")).toBe(840);
    expect(int(later, "X-RateLimit-Remaining")).toBe(0);

    pin("2030-03-04T13:55:09.500Z");
    const almost = await list({ key });
    await expectApiError(almost, 429, "key_temporarily_banned");
    expect(int(almost, "Retry-After")).toBe(1);

    // Staff lift it: the next request, in a fresh minute, passes.
    const summary = await unbanApiKey(id);
    expect(summary.bannedUntil).toBeNull();
    expect(await bannedUntil(id)).toBeNull();
    pin("2030-03-04T13:56:00.000Z");
    const lifted = await list({ key });
    expect(lifted.status).toBe(200);
    expect(int(lifted, "X-RateLimit-Remaining")).toBe(2);
  });

  it("the ban ends by itself when its 15 minutes are over", async () => {
    const { key, id } = await enterprise(3, 1_000, "served its time");
    const now = pin("2030-03-04T13:20:30.000Z");
    const results = await burst(7, () => list({ key }), 1);
    expect(statuses(results)).toEqual([200, 200, 200, 429, 429, 429, 429]);
    await expectApiError(results[6]!, 429, "key_temporarily_banned");
    expect(await bannedUntil(id)).toEqual(new Date(now.getTime() + BAN_MS));

    pin("2030-03-04T13:35:29.999Z");
    await expectApiError(await list({ key }), 429, "key_temporarily_banned");
    pin("2030-03-04T13:35:30.000Z");
    expect((await list({ key })).status).toBe(200);
  });

  it("requests while banned are still counted, and they do not move the ban's end", async () => {
    const { key, id } = await enterprise(2, 1_000, "still counted");
    const now = pin("2030-03-04T13:10:05.000Z");
    expect(statuses(await burst(5, () => list({ key }), 1))).toEqual([200, 200, 429, 429, 429]);
    const until = await bannedUntil(id);
    expect(until).toEqual(new Date(now.getTime() + BAN_MS));
    await list({ key });
    const rows = await counterRows(`key:${id}`);
    expect(rows.find((r) => r.key.endsWith(":minute"))?.hits).toBe(6);
    expect(await bannedUntil(id)).toEqual(until);
  });

  it("an anonymous caller is limited but never 'banned' (there is no key to ban)", async () => {
    pin("2030-03-04T13:05:40.000Z");
    const results = await burst(125, () => list({ address: "198.51.100.99" }));
    expect(countOf(results, 401)).toBe(60);
    expect(countOf(results, 429)).toBe(65);
    for (const r of results.filter((x) => x.status === 429)) await expectApiError(r, 429, "rate_limited");
  });
});

describe("plan change", () => {
  it("takes effect on the next request: a free key at its 60 is 429; moved to pro, the next request is 200 with X-RateLimit-Limit 300", async () => {
    const { key, id } = await newKey(["pets:read"], "upgrade", { plan: "free" });
    pin("2030-03-04T14:10:20.000Z");
    expect(countOf(await burst(60, () => list({ key })), 200)).toBe(60);
    await expectApiError(await list({ key }), 429, "rate_limited");

    const summary = await setApiKeyPlan(id, "pro");
    expect(summary.perMinute).toBe(300);

    const res = await list({ key });
    expect(res.status).toBe(200);
    expect(int(res, "X-RateLimit-Limit")).toBe(300);
    // The counts carry over: 62 requests made this minute.
    expect(int(res, "X-RateLimit-Remaining")).toBe(300 - 62);
    expect(parseItems(res.headers.get("RateLimit-Policy"))).toEqual({ minute: { q: 300, w: 60 }, day: { q: 10_000, w: 86_400 } });
  });

  it("a downgrade also applies at once: pro with 70 used, moved to free, is 429", async () => {
    const { key, id } = await newKey(["pets:read"], "downgrade", { plan: "pro" });
    pin("2030-03-04T14:12:20.000Z");
    expect(countOf(await burst(70, () => list({ key })), 200)).toBe(70);
    await setApiKeyPlan(id, "free");
    const res = await list({ key });
    await expectApiError(res, 429, "rate_limited");
    expect(int(res, "X-RateLimit-Limit")).toBe(60);
  });
});

describe("store failure", () => {
  it("an unreachable counter store answers 503 service_unavailable with Retry-After and a generic message, never lets the request through", async () => {
    const { key } = await newKey(["pets:read", "pets:write"], "store down", { plan: "pro" });
    pin("2030-03-04T14:30:00.000Z");
    const petsBefore = await db().pet.count();
    await setCounterStore(new PostgresCounterStore("postgresql://postgres@127.0.0.1:1/none"));
    try {
      for (const res of [
        await list({ key }),
        await create({ name: "Uncounted", categoryId: 1 }, { key }),
        await list({ address: "203.0.113.80" }),
      ]) {
        const body = await expectApiError(res, 503, "service_unavailable");
        expect(int(res, "Retry-After")).toBeGreaterThan(0);
        expect(body.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|connect|pool|stack|at /i);
        expect(res.headers.get("X-RateLimit-Remaining")).toBeNull();
      }
      expect(await db().pet.count()).toBe(petsBefore);
    } finally {
      await setCounterStore(undefined);
    }
    // Back on the configured store.
    const res = await list({ key });
    expect(res.status).toBe(200);
    expect(int(res, "X-RateLimit-Remaining")).toBe(299);
  });
});

describe("cleanup and usage", () => {
  it("sweep(now) deletes counters whose window has ended and keeps the current ones", async () => {
    const { key, id } = await newKey(["pets:read"], "sweep", { plan: "pro" });
    pin("2030-03-04T15:00:30.000Z");
    await list({ key });
    pin("2030-03-04T15:05:10.000Z");
    await list({ key });

    const before = await counterRows(`key:${id}`);
    expect(before.map((r) => [r.key, r.window_start.toISOString(), r.hits])).toEqual([
      [`key:${id}:day`, "2030-03-04T00:00:00.000Z", 2],
      [`key:${id}:minute`, "2030-03-04T15:00:00.000Z", 1],
      [`key:${id}:minute`, "2030-03-04T15:05:00.000Z", 1],
    ]);

    const swept = await counterStore().sweep(new Date("2030-03-04T15:05:20.000Z"));
    expect(swept).toBeGreaterThanOrEqual(1);
    expect((await counterRows(`key:${id}`)).map((r) => [r.key, r.window_start.toISOString()])).toEqual([
      [`key:${id}:day`, "2030-03-04T00:00:00.000Z"],
      [`key:${id}:minute`, "2030-03-04T15:05:00.000Z"],
    ]);

    // The day window ends at midnight UTC: swept then, with the last minute.
    await counterStore().sweep(new Date("2030-03-05T00:00:00.000Z"));
    expect(await counterRows(`key:${id}`)).toEqual([]);

    // Sweeping does not reset a live window: after it, the same minute goes on counting from where it was.
    pin("2030-03-06T10:00:10.000Z");
    await list({ key });
    await counterStore().sweep(new Date("2030-03-06T10:00:50.000Z"));
    const res = await list({ key });
    expect(int(res, "X-RateLimit-Remaining")).toBe(298);
  });

  it("usageToday([ids], now) returns the requests counted in that UTC day, per key", async () => {
    const a = await newKey(["pets:read"], "usage a", { plan: "pro" });
    const b = await newKey(["pets:read"], "usage b", { plan: "pro" });
    const unused = await newKey(["pets:read"], "usage unused", { plan: "pro" });

    pin("2030-03-07T08:00:10.000Z");
    await burst(3, () => list({ key: a.key }));
    await list({ key: b.key });
    pin("2030-03-07T09:30:00.000Z");
    await burst(2, () => list({ key: a.key }));
    await list({ address: "203.0.113.90" }); // anonymous: nobody's key
    pin("2030-03-08T00:00:01.000Z");
    await list({ key: a.key }); // the next day

    const usage = await usageToday([a.id, b.id, unused.id], new Date("2030-03-07T12:00:00.000Z"));
    expect(Object.fromEntries(usage)).toEqual({ [a.id]: 5, [b.id]: 1, [unused.id]: 0 });
    expect(Object.fromEntries(await usageToday([a.id, b.id], new Date("2030-03-08T12:00:00.000Z")))).toEqual({ [a.id]: 1, [b.id]: 0 });
    expect(Object.fromEntries(await usageToday([a.id], new Date("2030-03-06T23:59:59.999Z")))).toEqual({ [a.id]: 0 });
    expect((await usageToday([], new Date("2030-03-07T12:00:00.000Z"))).size).toBe(0);
  });
});

describe("disabled limiter (RATE_LIMIT_ENABLED=false)", () => {
  it("no rate-limit headers, never 429, nothing counted", async () => {
    const { key, id } = await newKey(["pets:read"], "unlimited", { plan: "free" });
    pin("2030-03-04T16:00:10.000Z");
    process.env.RATE_LIMIT_ENABLED = "false";
    resetEnvCache();
    try {
      const results = await burst(65, () => list({ key }));
      expect(countOf(results, 200)).toBe(65);
      const anonymous = await burst(62, () => list({ address: "203.0.113.100" }));
      expect(countOf(anonymous, 401)).toBe(62);
      for (const res of [...results, ...anonymous]) {
        for (const name of RATE_HEADERS) expect(res.headers.get(name), name).toBeNull();
      }
      expect(await counterRows(`key:${id}`)).toEqual([]);
      expect(await counterRows("ip:203.0.113.100")).toEqual([]);
    } finally {
      process.env.RATE_LIMIT_ENABLED = "true";
      resetEnvCache();
    }
    // On again: counting starts now.
    const res = await list({ key });
    expect(int(res, "X-RateLimit-Remaining")).toBe(59);
  });
});
