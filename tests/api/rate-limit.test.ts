import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env, resetEnvCache } from "@/lib/env";
import { BAN_MS } from "@/lib/http/rate-limit";
import { counterStore, setCounterStore } from "@/lib/rate-limit/shared-store";
import { setApiKeyPlan } from "@/lib/keys/service";
import { PostgresCounterStore } from "@/lib/rate-limit/postgres-store";
import { UNKNOWN_KEY, expectApiError, newKey } from "./helpers";
import {
  list,
  pin,
  unix,
  secondsUntil,
  minuteEnd,
  burst,
  statuses,
  countOf,
  enterprise,
  int,
  parseItems,
  expectRateHeaders,
  bannedUntil,
  rateLimitTestFile,
} from "./rate-limit-helpers";
import { rateLimitStoreContract } from "./rate-limit-store-contract";

// Spec section 8 and product.md "Rate limits", against the real route
// handlers and the default store (PostgreSQL, table rate_limit_counters).
// The rules every store keeps are in rate-limit-store-contract.ts (run here
// for PostgreSQL, in rate-limit-redis.test.ts for Redis); the tests below run
// on PostgreSQL only: the table's rows, sweeping, more of headers, anonymous
// callers and bans, plan changes, X-Forwarded-For, the disabled limiter.
// Counters are keyed by UTC window start, so every test pins the clock to an
// instant of its own (before the getPet sunset, 2030-12-05, so that route
// still answers) and uses keys/addresses of its own.

rateLimitTestFile();

// ---------------------------------------------------------------- helpers
async function counterRows(rateKey: string): Promise<{ key: string; window_start: Date; hits: number }[]> {
  return db().$queryRaw<{ key: string; window_start: Date; hits: number }[]>`
    SELECT key, window_start, hits FROM rate_limit_counters
    WHERE key LIKE ${`${rateKey}:%`} ORDER BY window_start, key`;
}

const RATE_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit", "retry-after"];

// ---------------------------------------------------------------- tests

rateLimitStoreContract({
  label: "PostgreSQL",
  kind: PostgresCounterStore,
  // The configured store: REDIS_URL is unset, so the one counterStore() builds from DATABASE_URL.
  use: () => setCounterStore(undefined),
  another: async () => new PostgresCounterStore(env().DATABASE_URL!),
  unreachable: () => new PostgresCounterStore("postgresql://postgres@127.0.0.1:1/none"),
  storedHits: async (rateKey) => (await counterRows(rateKey)).map((r): [string, number] => [r.key, r.hits]),
  plans: ["free", "pro", "business"],
});

describe("windows are fixed and aligned to UTC", () => {
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
});

describe("rate-limit headers on every answer", () => {
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

describe("temporary ban (a key that keeps sending while limited)", () => {
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

describe("cleanup", () => {
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
