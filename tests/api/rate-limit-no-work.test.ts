import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as listPetsRoute } from "@/app/v1/pets/route";
import { GET as reportRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { PostgresCounterStore } from "@/lib/rate-limit/postgres-store";
import type { Counter, CounterStore } from "@/lib/rate-limit/store";
import { call, expectApiError, newKey } from "./helpers";
import { enterprise, int, pin, rateLimitTestFile } from "./rate-limit-helpers";

// Issue 48: a refused request costs no work. A read used to run beside the
// limiter and be answered 429 once its work was done, so a banned key, or one
// over its limit, still made the server compute ten-year reports and near
// searches. Now a read runs beside the limiter only when the answer is known
// to be "allowed" (lib/rate-limit/known-counts.ts); the others wait for it.
// Shown by counting every statement sent to PostgreSQL on any pool (the
// application's, the limiter's): beyond the limiter's counters and the key's
// own row, a refused request sends none.

rateLimitTestFile();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every statement sent on any connection while `send` runs (pg.Client.query: each pool's clients go through it). */
async function statementsDuring(send: () => Promise<Response>): Promise<{ res: Response; statements: string[] }> {
  const spy = vi.spyOn(pg.Client.prototype, "query");
  const res = await send();
  await res.clone().arrayBuffer();
  const statements = spy.mock.calls.map(([config]) => (typeof config === "string" ? config : ((config as { text?: string }).text ?? "")));
  spy.mockRestore();
  return { res, statements };
}

/** What authentication and the limiter send: the counters (rate_limit_counters) and the key's row (api_keys: its look-up, its ban). */
const limiterOrAuth = (sql: string) => /rate_limit_counters|api_keys/.test(sql);
const work = (statements: string[]) => statements.filter((sql) => !limiterOrAuth(sql));

const TEN_YEARS = "/v1/organizations/1/reports/monthly?from=2020-01&to=2029-12";
/** The path's parameters, as the router would hand them: the organisation of the report's path. */
const paramsOf = (path: string) => (path.startsWith("/v1/organizations/") ? { organizationId: path.split("/")[3]! } : undefined);
const NEAR = "/v1/pets?near=41.88,-87.63&within=100km&limit=100";

describe("a banned key costs no work", () => {
  it("GET /v1/organizations/{id}/reports/monthly (ten years) and GET /v1/pets?near=: 429 key_temporarily_banned with the rate-limit headers, and not one statement beyond the limiter's and the key's", async () => {
    const now = pin("2030-04-02T09:10:20.000Z");
    const reports = await newKey(["records:read"], "banned shelter key", { plan: "pro" });
    const near = await newKey(["pets:read"], "banned partner key", { plan: "pro" });
    const until = new Date(now.getTime() + 10 * 60_000);
    await db().apiKey.updateMany({ where: { id: { in: [BigInt(reports.id), BigInt(near.id)] } }, data: { bannedUntil: until } });

    for (const [key, path, route] of [
      [reports.key, TEN_YEARS, reportRoute],
      [near.key, NEAR, listPetsRoute],
    ] as const) {
      const { res, statements } = await statementsDuring(() => call(route, path, { key, params: paramsOf(path) }));
      await expectApiError(res, 429, "key_temporarily_banned");
      expect(int(res, "Retry-After")).toBe(600);
      expect(int(res, "X-RateLimit-Remaining")).toBe(0);
      expect(res.headers.get("RateLimit-Policy")).toContain('"minute"');
      expect(
        statements.some((sql) => /rate_limit_counters/.test(sql)),
        `${path}: the request was counted`,
      ).toBe(true);
      expect(work(statements), path).toEqual([]);
    }
  });
});

describe("a key known to be over its limit costs no work", () => {
  it("past its per-minute figure, the ten-year report and the near search are 429 rate_limited without a statement of their own; the allowed ones before did the work", async () => {
    pin("2030-04-02T09:20:10.000Z");
    const { key: reportsKey } = await newKey(["records:read"], "limited shelter key", { plan: "enterprise", perMinute: 2, perDay: 100 });
    const { key: nearKey } = await enterprise(2, 100, "limited partner key");

    for (const [key, path, route] of [
      [reportsKey, TEN_YEARS, reportRoute],
      [nearKey, NEAR, listPetsRoute],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const { res, statements } = await statementsDuring(() => call(route, path, { key, params: paramsOf(path) }));
        expect(res.status, path).toBe(200);
        expect(work(statements).length, `${path}: an allowed request does its work`).toBeGreaterThan(0);
      }
      // The 3rd and 4th of the minute are over the limit (the 5th would ban the key).
      for (let i = 0; i < 2; i++) {
        const { res, statements } = await statementsDuring(() => call(route, path, { key, params: paramsOf(path) }));
        await expectApiError(res, 429, "rate_limited");
        expect(int(res, "Retry-After")).toBe(50);
        expect(int(res, "X-RateLimit-Limit")).toBe(2);
        expect(work(statements), path).toEqual([]);
      }
    }
  });

  it("over its daily figure, the next minute's requests still wait for the limiter and do nothing", async () => {
    pin("2030-04-02T09:30:10.000Z");
    const { key } = await enterprise(10, 3, "spent for the day");
    for (let i = 0; i < 3; i++) expect((await call(listPetsRoute, NEAR, { key })).status).toBe(200);
    pin("2030-04-02T09:31:10.000Z");
    const { res, statements } = await statementsDuring(() => call(listPetsRoute, NEAR, { key }));
    await expectApiError(res, 429, "rate_limited");
    expect(work(statements)).toEqual([]);
  });
});

/** A store whose next hit, once `hold()` is called, waits until `release()`: the limiter's round trip made slow at will. */
function holdingStore(inner: CounterStore) {
  let held: { asked: () => void; released: Promise<void> } | null = null;
  const store: CounterStore = {
    hit: async (counters: Counter[], by?: number) => {
      const h = held;
      held = null;
      if (h) {
        h.asked();
        await h.released;
      }
      return inner.hit(counters, by);
    },
    sweep: (now) => inner.sweep(now),
    peek: (counters) => inner.peek(counters),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  const hold = () => {
    let release!: () => void;
    let asked!: () => void;
    const hitAsked = new Promise<void>((resolve) => (asked = resolve));
    held = { asked, released: new Promise<void>((resolve) => (release = resolve)) };
    return { hitAsked, release };
  };
  return { store, hold };
}

describe("the allowed path keeps its speed", () => {
  it("a read by a key known to be within its limits runs while its hit is counted: its own statements are sent before the limiter answers", async () => {
    pin("2030-04-02T09:40:10.000Z");
    const holding = holdingStore(new PostgresCounterStore(env().DATABASE_URL!));
    await setCounterStore(holding.store);
    try {
      const { key } = await newKey(["pets:read"], "allowed partner key", { plan: "pro" });
      // The first request of the day is unknown to this process: it waits for the limiter, and teaches it the key's counts.
      expect((await call(listPetsRoute, NEAR, { key })).status).toBe(200);

      let workSent!: () => void;
      const sent = new Promise<void>((resolve) => (workSent = resolve));
      const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
      vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? "");
        if (!limiterOrAuth(text)) workSent();
        return send.apply(this, args);
      } as typeof pg.Client.prototype.query);

      const { hitAsked, release } = holding.hold();
      const answer = call(listPetsRoute, NEAR, { key });
      await hitAsked;
      // The limiter has not answered, and the read's own statements are on their way. (Had it waited, nothing
      // would ever be sent: the bound below turns that deadlock into a failure.)
      let bound: NodeJS.Timeout | undefined;
      const waited = new Promise<string>((resolve) => (bound = setTimeout(() => resolve("the read waited for the limiter"), 10_000)));
      const first = await Promise.race([sent.then(() => "ran beside the limiter"), waited]);
      clearTimeout(bound);
      release();
      expect(first).toBe("ran beside the limiter");
      const res = await answer;
      expect(res.status).toBe(200);
      expect(int(res, "X-RateLimit-Limit")).toBe(300);
      expect(int(res, "X-RateLimit-Remaining")).toBe(298);
    } finally {
      await setCounterStore(undefined);
    }
  });
});
