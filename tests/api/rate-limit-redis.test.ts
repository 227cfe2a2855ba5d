import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { counterStore, setCounterStore } from "@/lib/rate-limit/shared-store";
import { CoalescingCounterStore } from "@/lib/rate-limit/coalesce";
import { RedisCounterStore } from "@/lib/rate-limit/redis-store";
import { deploymentNamespace } from "@/lib/rate-limit/shared-store";
import { CounterStoreUnavailable, countersFor } from "@/lib/rate-limit/store";
import { windowAt } from "@/lib/rate-limit/windows";
import { newKey } from "./helpers";
import { list, pin, int, rateLimitTestFile } from "./rate-limit-helpers";
import { rateLimitStoreContract } from "./rate-limit-store-contract";

// The rate-limit rules with the counters in a REAL Redis (RedisCounterStore),
// as when REDIS_URL is set: the rules every store keeps
// (rate-limit-store-contract.ts, also run on PostgreSQL by
// rate-limit.test.ts), then what is Redis's own: its keys, their TTLs, and a
// first request sent while the connection is still opening. Needs
// TEST_REDIS_URL (CI: redis://127.0.0.1:6379/15); the keys this file writes
// are deleted first (the database itself is shared with other files). Every
// test pins the clock (before the getPet sunset, 2030-12-05) and uses
// keys/addresses of its own.

const REDIS_URL = process.env.TEST_REDIS_URL;

// REDIS_URL is unset (rateLimitTestFile) so the store is exactly the one each
// test installs.
rateLimitTestFile();

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
  const store = new RedisCounterStore(REDIS_URL!, deploymentNamespace);
  await whenReady(store);
  return store;
}

async function useRedis(): Promise<void> {
  await setCounterStore(await readyStore());
}

// ---------------------------------------------------------------- tests

describe.skipIf(!REDIS_URL)("rate limits with the counters in Redis", () => {
  let admin: Redis;
  /** This test database's namespace: every key the app's store writes starts with `petstore:<it>:rl:`. */
  let prefix: string;

  beforeAll(async () => {
    admin = new Redis(REDIS_URL!);
    prefix = `petstore:${await deploymentNamespace()}:rl:`;
    // Only this file's keys (an earlier run's too): test files run side by
    // side, and another may be counting in the same Redis database.
    for (const pattern of [`${prefix}*`, ...["production", "staging", "recovered"].map((ns) => `petstore:${ns}:*`)]) {
      const keys = await admin.keys(pattern);
      if (keys.length) await admin.del(...keys);
    }
  });

  afterAll(() => {
    admin?.disconnect();
  });

  rateLimitStoreContract({
    label: "Redis",
    kind: RedisCounterStore,
    use: useRedis,
    another: readyStore,
    unreachable: () => new RedisCounterStore("redis://127.0.0.1:1", "unreachable"),
    // Keys are petstore:<namespace>:rl:<rate key>:<window>:<window start, ms>.
    storedHits: async (rateKey) => {
      const held = await Promise.all(
        (await admin.keys(`${prefix}${rateKey}:*`)).map(async (k) => {
          const [, window, start] = /:(minute|day):(\d+)$/.exec(k)!;
          return { name: `${rateKey}:${window}`, start: Number(start), hits: Number(await admin.get(k)) };
        }),
      );
      return held.sort((x, y) => x.start - y.start || x.name.localeCompare(y.name)).map((h): [string, number] => [h.name, h.hits]);
    },
    plans: ["free", "pro"],
  });

  describe("Redis's own", () => {
    beforeAll(useRedis);

    it("counts in Redis, a key per window named by its start, nothing in PostgreSQL (guards the tests below)", async () => {
      expect((counterStore() as CoalescingCounterStore).inner).toBeInstanceOf(RedisCounterStore);
      const { key, id } = await newKey(["pets:read"], "redis guard", { plan: "pro" });
      pin("2030-04-01T08:00:10.000Z");
      expect((await list({ key })).status).toBe(200);
      const keys = await admin.keys(`${prefix}key:${id}:*`);
      expect(keys.sort()).toEqual([`${prefix}key:${id}:day:${Date.UTC(2030, 3, 1)}`, `${prefix}key:${id}:minute:${Date.UTC(2030, 3, 1, 8, 0)}`]);
      // Not in PostgreSQL.
      const rows = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM rate_limit_counters WHERE key LIKE ${`key:${id}:%`}`;
      expect(Number(rows[0]!.n)).toBe(0);
    });

    it("counters expire by themselves: every key has a TTL of at most its window + 60 s", async () => {
      const { key, id } = await newKey(["pets:read"], "redis ttl", { plan: "pro" });
      pin("2030-04-01T14:00:10.000Z");
      await list({ key });
      await list({ key });
      const minuteKey = `${prefix}key:${id}:minute:${Date.UTC(2030, 3, 1, 14, 0)}`;
      const dayKey = `${prefix}key:${id}:day:${Date.UTC(2030, 3, 1)}`;
      expect(await admin.get(minuteKey)).toBe("2");
      const [minuteTtl, dayTtl] = [await admin.pttl(minuteKey), await admin.pttl(dayKey)];
      expect(minuteTtl).toBeGreaterThan(0);
      expect(minuteTtl).toBeLessThanOrEqual(120_000);
      expect(dayTtl).toBeGreaterThan(120_000);
      expect(dayTtl).toBeLessThanOrEqual(86_400_000 + 60_000);
    });

    it("deployments sharing one Redis count apart, while the instances of one deployment count together", async () => {
      const counters = countersFor("key:1", [windowAt("minute", new Date("2030-04-01T16:00:10.000Z"))]);
      const [productionA, productionB, staging] = [
        new RedisCounterStore(REDIS_URL!, "production"),
        new RedisCounterStore(REDIS_URL!, "production"),
        new RedisCounterStore(REDIS_URL!, async () => "staging"),
      ];
      try {
        expect(await productionA.hit(counters)).toEqual([1]);
        expect(await productionB.hit(counters)).toEqual([2]);
        expect(await staging.hit(counters)).toEqual([1]);
        expect(await staging.peek(counters)).toEqual([1]);
        expect(await productionA.peek(counters)).toEqual([2]);
      } finally {
        await Promise.all([productionA, productionB, staging].map((s) => s.close()));
      }
    });

    it("a namespace that cannot be read yet fails the hit as the store being away, and is asked for again on the next", async () => {
      const counters = countersFor("key:1", [windowAt("minute", new Date("2030-04-01T17:00:10.000Z"))]);
      let asked = 0;
      const store = new RedisCounterStore(REDIS_URL!, async () => {
        asked++;
        if (asked === 1) throw new Error("the database is starting up");
        return "recovered";
      });
      try {
        await expect(store.hit(counters)).rejects.toBeInstanceOf(CounterStoreUnavailable);
        expect(await store.hit(counters)).toEqual([1]);
        expect(await store.hit(counters)).toEqual([2]);
        expect(asked).toBe(2);
        expect(await admin.keys("petstore:recovered:rl:key:1:*")).toHaveLength(1);
      } finally {
        await store.close();
      }
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
        expect((counterStore() as CoalescingCounterStore).inner).toBeInstanceOf(RedisCounterStore);
      });
    });
  });
});
