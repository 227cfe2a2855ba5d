import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { BAN_MS } from "@/lib/http/rate-limit";
import { counterStore, setCounterStore, usageToday } from "@/lib/rate-limit/shared-store";
import { PLAN_LIMITS } from "@/lib/keys/plans";
import * as keyQueries from "@/lib/keys/queries";
import { unbanApiKey } from "@/lib/keys/service";
import { countersFor, type CounterStore } from "@/lib/rate-limit/store";
import { CoalescingCounterStore } from "@/lib/rate-limit/coalesce";
import { windowAt } from "@/lib/rate-limit/windows";
import { PLATFORM } from "@/lib/organizations/tenancy";
import { UNKNOWN_KEY, expectApiError, expectJson, newKey } from "./helpers";
import {
  type Expected,
  list,
  create,
  getPet,
  pin,
  unix,
  secondsUntil,
  minuteEnd,
  burst,
  statuses,
  countOf,
  enterprise,
  int,
  expectRateHeaders,
  bannedUntil,
} from "./rate-limit-helpers";

// The rules of spec section 8 and product.md "Rate limits" that hold whatever
// store keeps the counters, against the real route handlers. Each test file
// calls rateLimitStoreContract() once for its store, after
// rateLimitTestFile(). Counters are keyed by UTC window start, so every test
// pins the clock to an instant of its own (before the getPet sunset,
// 2030-12-05, so that route still answers) and uses keys/addresses of its
// own. The two stores run the same instants: their counters live apart
// (a table vs a Redis database), and each run creates its own keys.

/** The exact minute limits tried, with spec 8's figures and an instant each. */
const MINUTE_LIMITS = [
  ["free", 60, "2030-03-04T09:01:05.000Z"],
  ["pro", 300, "2030-03-04T09:02:05.000Z"],
  ["business", 1_000, "2030-03-04T09:03:05.000Z"],
] as const;

type MinuteLimitPlan = (typeof MINUTE_LIMITS)[number][0];

export interface StoreUnderTest {
  /** The store's name in the test titles. */
  label: string;
  /** What counterStore() is once `use` has run. */
  kind: new (...args: never[]) => CounterStore;
  /** Installs the store (run before the contract's tests, and again after one of them swapped in an unreachable store). */
  use: () => Promise<void>;
  /** Another store on the same backend, as a second app instance would have (closed by the test). */
  another: () => Promise<CounterStore>;
  /** A store of the same kind whose server cannot be reached. */
  unreachable: () => CounterStore;
  /** What the backend itself holds for a rate key, read around the store: [`${rateKey}:${window}`, hits], by window start. */
  storedHits: (rateKey: string) => Promise<[string, number][]>;
  /** Plans whose exact minute limit is tried (business is 1,000 requests). */
  plans: readonly MinuteLimitPlan[];
}

/** Declares the tests every counter store must pass. */
export function rateLimitStoreContract(store: StoreUnderTest): void {
  describe(`rules every counter store keeps: ${store.label}`, () => {
    beforeAll(store.use);

    it(`the limiter is on, X-Forwarded-For not trusted, the counters in ${store.label} (guards every other test here)`, () => {
      expect(env().RATE_LIMIT_ENABLED).toBe(true);
      expect(env().TRUST_PROXY).toBe(false);
      expect(counterStore()).toBeInstanceOf(CoalescingCounterStore);
      expect((counterStore() as CoalescingCounterStore).inner).toBeInstanceOf(store.kind);
    });

    describe("minute limits per plan (spec 8: free 60, pro 300, business 1,000 per minute)", () => {
      it.each(MINUTE_LIMITS.filter(([plan]) => store.plans.includes(plan)))(
        "%s: the %ith request of a minute succeeds, the next one is 429 rate_limited",
        async (plan, limit, iso) => {
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
        },
      );
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
    });

    describe("every request counts, whatever its answer", () => {
      it("401s from one address spend that address's free budget: the 61st is 429; another address is unaffected", async () => {
        const now = pin("2030-03-04T12:00:20.000Z");
        const first = await list({ address: "198.51.100.20" });
        await expectApiError(first, 401, "unauthorized");
        expectRateHeaders(first, {
          now,
          limit: 60,
          remaining: 59,
          reset: new Date("2030-03-04T12:01:00.000Z"),
          minute: { q: 60, r: 59 },
          day: { q: 1_000, r: 999 },
        });
        // Same socket address, another X-Forwarded-For: still the same counter.
        const rest = await burst(59, () => list({ address: "198.51.100.20", headers: { "x-forwarded-for": "10.1.2.3" } }));
        const all = [first, ...rest];
        expect(countOf(all, 401), `statuses: ${statuses(all).join(",")}`).toBe(60);
        const remaining = all.map((r) => int(r, "X-RateLimit-Remaining")).sort((a, b) => a - b);
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
    });

    describe("concurrency", () => {
      it("100 parallel requests against 40 left in the minute: exactly 40 succeed, 60 are 429", async () => {
        const { key, id } = await enterprise(100, 10_000, "parallel");
        const now = pin("2030-03-04T12:10:10.000Z");
        const warmup = await burst(60, () => list({ key }), 10);
        expect(countOf(warmup, 200)).toBe(60);

        const results = await Promise.all(Array.from({ length: 100 }, () => list({ key })));
        expect(countOf(results, 200), `statuses: ${statuses(results).join(",")}`).toBe(40);
        expect(countOf(results, 429)).toBe(60);
        // Every success saw a count of its own: Remaining 39..0, each exactly once.
        const remaining = results.filter((r) => r.status === 200).map((r) => int(r, "X-RateLimit-Remaining"));
        expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
        for (const r of results.filter((x) => x.status === 429)) await expectApiError(r, 429, "rate_limited");
        // All 160 were counted, in the minute and in the day: as the store reads them, and as the backend holds them.
        expect(await counterStore().peek(countersFor(`key:${id}`, [windowAt("minute", now), windowAt("day", now)]))).toEqual([160, 160]);
        expect(await store.storedHits(`key:${id}`)).toEqual([
          [`key:${id}:day`, 160],
          [`key:${id}:minute`, 160],
        ]);
      });

      it("two store instances (two app instances) share one counter: parallel hits get distinct counts 1..N", async () => {
        const a = await store.another();
        const b = await store.another();
        try {
          const t = new Date("2030-03-04T12:12:12.000Z");
          const windows = [windowAt("minute", t), windowAt("day", t)];
          const counts = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).hit(countersFor("test:two-instances", windows))));
          expect(counts.map((c) => c[0]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
          expect(counts.map((c) => c[1]!).sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
        } finally {
          await a.close();
          await b.close();
        }
      });
    });

    describe("temporary ban (a key that keeps sending while limited)", () => {
      it("a ban write that fails is made by the next hit past the threshold, not lost", async () => {
        const { key, id } = await enterprise(2, 1_000, "ban retried");
        pin("2030-03-04T13:20:10.000Z");
        expect(statuses(await burst(4, () => list({ key }), 1))).toEqual([200, 200, 429, 429]);
        const failing = vi.spyOn(keyQueries, "banApiKeyOnce").mockRejectedValueOnce(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
        // The 5th hit crosses 2 × limit; its ban write fails: 503, nothing written.
        await expectApiError(await list({ key }), 503, "service_unavailable");
        expect(failing).toHaveBeenCalledTimes(1);
        expect(await bannedUntil(id)).toBeNull();
        // The 6th writes it.
        await expectApiError(await list({ key }), 429, "key_temporarily_banned");
        expect(await bannedUntil(id)).not.toBeNull();
        failing.mockRestore();
      });

      it("a ban staff lifted is not written again by the same minute's counts; the next minute's abuse bans again", async () => {
        const { key, id } = await enterprise(2, 1_000, "ban lifted");
        pin("2030-03-04T13:30:10.000Z");
        await burst(5, () => list({ key }), 1);
        expect(await bannedUntil(id)).not.toBeNull();
        await unbanApiKey(id, PLATFORM);
        for (let i = 0; i < 3; i++) await expectApiError(await list({ key }), 429, "rate_limited");
        expect(await bannedUntil(id)).toBeNull();

        pin("2030-03-04T13:31:10.000Z");
        expect(statuses(await burst(5, () => list({ key }), 1))).toEqual([200, 200, 429, 429, 429]);
        expect(await bannedUntil(id)).not.toBeNull();
      });

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
        const summary = await unbanApiKey(id, PLATFORM);
        expect(summary.bannedUntil).toBeNull();
        expect(await bannedUntil(id)).toBeNull();
        pin("2030-03-04T13:56:00.000Z");
        const lifted = await list({ key });
        expect(lifted.status).toBe(200);
        expect(int(lifted, "X-RateLimit-Remaining")).toBe(2);
      });
    });

    describe("store failure", () => {
      it("an unreachable counter store answers 503 service_unavailable with Retry-After and a generic message, never lets the request through", async () => {
        const { key } = await newKey(["pets:read", "pets:write"], "store down", { plan: "pro" });
        pin("2030-03-04T14:30:00.000Z");
        const petsBefore = await db().pet.count();
        await setCounterStore(store.unreachable());
        try {
          for (const res of [await list({ key }), await create({ name: "Uncounted", categoryId: 1 }, { key }), await list({ address: "203.0.113.80" })]) {
            const body = await expectApiError(res, 503, "service_unavailable");
            expect(int(res, "Retry-After")).toBeGreaterThan(0);
            // Nothing of either backend's failure (hosts, ports, drivers, pools, streams, stacks) reaches the client.
            expect(body.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|redis|connect|pool|stream|offline|stack|at /i);
            expect(res.headers.get("X-RateLimit-Remaining")).toBeNull();
          }
          expect(await db().pet.count()).toBe(petsBefore);
        } finally {
          await store.use();
        }
        // Back on the store under test.
        const res = await list({ key });
        expect(res.status).toBe(200);
        expect(int(res, "X-RateLimit-Remaining")).toBe(299);
      });
    });

    describe("usage", () => {
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
  });
}
