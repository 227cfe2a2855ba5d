import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as readyzRoute } from "@/app/readyz/route";
import { POST as createPetRoute, GET as listPetsRoute } from "@/app/v1/pets/route";
import { GET as getPetRoute } from "@/app/v1/pets/[petId]/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { setClock } from "@/lib/clock";
import { applicationName, db, poolShare, query } from "@/lib/db";
import { env, resetEnvCache } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { RedisCounterStore } from "@/lib/rate-limit/redis-store";
import { answerMetrics, isMetricsRequest, observeRequest } from "@/lib/server/metrics";
import { dispatchEvents } from "@/lib/webhooks/dispatch";
import { attemptDeliveries } from "@/lib/webhooks/delivery";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { until } from "@/tests/wait";
import { call, createPet, enableRateLimit, expectJson, newKey, request, type RouteHandler, allowPrivateWebhooks } from "./helpers";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// GET /metrics as Prometheus scrapes it, from a real HTTP server wired as
// scripts/server.ts wires it (every request observed; /metrics answered
// before any route), and each metric made to move by doing what it counts.

const TOKEN = "metrics-token-of-at-least-thirty-two-characters";
enableRateLimit();
vi.stubEnv("METRICS_TOKEN", TOKEN);
resetEnvCache();

/** The routes this server serves, by path pattern: the real handlers, called as Next calls them. */
const ROUTES: [RegExp, Record<string, RouteHandler | undefined>, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^\/v1\/pets(\?.*)?$/, { GET: listPetsRoute, POST: createPetRoute }, () => ({})],
  [/^\/v1\/pets\/([^/?]+)$/, { GET: getPetRoute }, (m) => ({ petId: m[1]! })],
  [/^\/readyz$/, { GET: readyzRoute as unknown as RouteHandler }, () => ({})],
];

let server: http.Server;
let base: string;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = http.createServer((req, res) => {
    observeRequest(req, res);
    if (isMetricsRequest(req)) return void answerMetrics(req, res);
    // As scripts/server.ts does, so that anonymous callers are counted by their address.
    req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? "unknown";
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const route = ROUTES.map(([pattern, handlers, params]) => ({ m: pattern.exec(req.url!), handlers, params })).find((r) => r.m);
      const handler = route?.handlers[req.method!];
      if (!route || !handler) return void res.writeHead(404).end();
      const body = chunks.length ? Buffer.concat(chunks).toString() : undefined;
      const response = await handler(request(req.url!, { method: req.method, headers: req.headers as Record<string, string>, body }), {
        params: Promise.resolve(route.params(route.m!)),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await receiver?.close();
  vi.unstubAllEnvs();
  resetEnvCache();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** A sample's value: the line of `name` whose labels include all of `labels` (none: the unlabelled one), or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const wanted = Object.entries(labels);
    if (wanted.length === 0 ? match[2] === undefined : wanted.every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

describe("GET /metrics", () => {
  it("answers only with the metrics token: 401 without it or with another, the text format with it", async () => {
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer not-the-token-not-the-token-not-it" } })).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.text()).toContain("# TYPE petstore_http_requests_total counter");
  });

  it("is never counted against an API key or the caller's address, however often it is scraped", async () => {
    const { key } = await newKey(["pets:read"], "metrics scraper", { plan: "free" });
    const remaining = async (headers: Record<string, string>) =>
      Number((await fetch(`${base}/v1/pets?limit=1`, { headers })).headers.get("x-ratelimit-remaining"));
    // Every counter of every caller (the tests' store is PostgreSQL: REDIS_URL is unset),
    // so a scrape counted against anyone at all, "unknown" address included, shows.
    const allHits = async () => (await db().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(hits), 0)::int AS n FROM rate_limit_counters`)[0]!.n;
    // One minute window for all of it: at a minute's edge the counts would start over.
    setClock(new Date());
    try {
      const keyBefore = await remaining({ authorization: `Bearer ${key}` });
      const addressBefore = await remaining({});
      const hitsBefore = await allHits();
      // More scrapes than a Free minute allows (60), from the same address,
      // and a few carrying the API key, as a misconfigured scraper would (401).
      for (let i = 0; i < 70; i++) expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
      expect(await allHits()).toBe(hitsBefore);
      // Each count moved by the one API request that read it, and by nothing else.
      expect(await remaining({ authorization: `Bearer ${key}` })).toBe(keyBefore - 1);
      expect(await remaining({})).toBe(addressBefore - 1);
    } finally {
      setClock();
    }
  });

  it("is not there at all while METRICS_TOKEN is unset (404)", async () => {
    vi.stubEnv("METRICS_TOKEN", "");
    resetEnvCache();
    try {
      expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      vi.stubEnv("METRICS_TOKEN", TOKEN);
      resetEnvCache();
    }
  });
});

describe("what it carries", () => {
  it("HTTP: requests by route template, method and status, never the raw path; a latency histogram by route", async () => {
    const { key } = await newKey(["pets:read", "pets:write"], "metrics http", { plan: "enterprise", perMinute: 10_000, perDay: 100_000 });
    const before = await scrape();
    const auth = { authorization: `Bearer ${key}` };
    for (const id of ["123456", "987654", "55"]) await fetch(`${base}/v1/pets/${id}`, { headers: auth });
    await fetch(`${base}/v1/pets?limit=2`, { headers: auth });
    await fetch(`${base}/v1/pets?limit=2`);
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      sample(after, "petstore_http_requests_total", labels) - sample(before, "petstore_http_requests_total", labels);
    expect(moved({ route: "/v1/pets/{petId}", method: "GET", status: "404" })).toBe(3);
    expect(moved({ route: "/v1/pets", method: "GET", status: "200" })).toBe(1);
    expect(moved({ route: "/v1/pets", method: "GET", status: "401" })).toBe(1);
    expect(after).not.toMatch(/route="\/v1\/pets\/(123456|987654|55)"/);
    const count = (text: string) => sample(text, "petstore_http_request_duration_seconds_count", { route: "/v1/pets/{petId}", method: "GET" });
    expect(count(after) - count(before)).toBe(3);
    expect(sample(after, "petstore_http_request_duration_seconds_bucket", { route: "/v1/pets/{petId}", method: "GET", le: "+Inf" })).toBe(count(after));
  });

  it("rate limiting: requests limited, and keys banned, by plan", async () => {
    const { key } = await newKey(["pets:read"], "metrics limited", { plan: "free" });
    const before = await scrape();
    // Free: 60 a minute. Past twice that, the key is banned: all in one
    // minute window, which a slow run could otherwise cross (and not ban).
    const statuses: number[] = [];
    setClock(new Date());
    try {
      for (let i = 0; i < 125; i++) statuses.push((await fetch(`${base}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status);
    } finally {
      setClock();
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const after = await scrape();
    const limited =
      sample(after, "petstore_rate_limited_total", { plan: "free", code: "rate_limited" }) -
      sample(before, "petstore_rate_limited_total", { plan: "free", code: "rate_limited" });
    const banned =
      sample(after, "petstore_rate_limited_total", { plan: "free", code: "key_temporarily_banned" }) -
      sample(before, "petstore_rate_limited_total", { plan: "free", code: "key_temporarily_banned" });
    expect(limited + banned).toBe(statuses.filter((s) => s === 429).length);
    expect(banned).toBeGreaterThan(0);
    expect(sample(after, "petstore_api_keys_banned_total", { plan: "free" }) - sample(before, "petstore_api_keys_banned_total", { plan: "free" })).toBe(1);
  });

  it("PostgreSQL: the pool's connections, idle ones, waiting requests and size", async () => {
    const pool = (text: string, state: string) => sample(text, "petstore_db_pool_connections", { state });
    const size = poolShare(env().DATABASE_POOL_SIZE);
    expect(pool(await scrape(), "max")).toBe(size);

    // Every connection of the app's pool busy in pg_sleep, through the app's
    // own client, and one more query, which must wait for one of them
    // (then(): a Prisma query runs only once something awaits it).
    const held = Array.from({ length: size }, () => db().$queryRaw`SELECT 1 AS slept FROM pg_sleep(3)`.then(() => undefined));
    const observer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await observer.connect();
    try {
      // Scraped once PostgreSQL shows them all sleeping: seen from outside
      // the pool, so the wait takes nothing from the gauges under test. 3 s
      // of sleep leaves room for a loaded machine to open all ten first.
      await until(
        `all ${size} of the pool's connections to sleep`,
        async () => {
          const { rows } = await observer.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND query LIKE '%pg_sleep%'",
            [applicationName()],
          );
          return rows[0]!.n === size;
        },
        5_000,
      );
    } finally {
      await observer.end();
    }
    // On the pool directly (query()): it asks for a connection in this tick, before the scrape.
    const extra = query(Prisma.sql`SELECT 1`);
    const busy = await scrape();
    expect(pool(busy, "total")).toBe(size);
    expect(pool(busy, "idle")).toBe(0);
    expect(pool(busy, "waiting")).toBeGreaterThanOrEqual(1);

    await Promise.all([...held, extra]);
    const done = await scrape();
    expect(pool(done, "waiting")).toBe(0);
    expect(pool(done, "idle")).toBeGreaterThan(0);
    expect(pool(done, "idle")).toBeLessThanOrEqual(pool(done, "total"));
  });

  it.skipIf(!process.env.TEST_REDIS_URL)("Redis: connected, and command errors", async () => {
    const live = new RedisCounterStore(process.env.TEST_REDIS_URL!, "metrics");
    await live.ping();
    expect(sample(await scrape(), "petstore_redis_connected")).toBe(1);
    await live.close();

    const before = sample(await scrape(), "petstore_redis_command_errors_total");
    const away = new RedisCounterStore("redis://127.0.0.1:1", "metrics");
    const window = { name: "minute" as const, start: new Date(), end: new Date(Date.now() + 60_000), seconds: 60 };
    await expect(away.hit([{ rateKey: "key:1", window }])).rejects.toThrow();
    const after = await scrape();
    expect(sample(after, "petstore_redis_command_errors_total") - before).toBe(1);
    expect(sample(after, "petstore_redis_connected")).toBe(0);
    await away.close();
    await setCounterStore(undefined);
  });

  it("the feed and webhooks: head position, deliveries pending and the oldest one's age, attempts by outcome, endpoints disabled, jobs waiting", async () => {
    const { key } = await newKey(["pets:read", "pets:write", "webhooks:manage"], "metrics webhooks", {
      plan: "enterprise",
      perMinute: 10_000,
      perDay: 100_000,
    });
    const endpoint = await expectJson<{ id: number }>(
      await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: receiver.url, events: ["pet.created"] } }),
      201,
    );
    const before = await scrape();
    await createPet({ name: "Metered" }, { key });
    await dispatchEvents();
    // Made an hour old, so a gauge stuck at 0 (or counting in milliseconds) shows.
    const AGE = 3_600;
    await db().webhookDelivery.updateMany({ where: { endpointId: BigInt(endpoint.id) }, data: { createdAt: new Date(Date.now() - AGE * 1000) } });

    const queued = await scrape();
    const head = Number((await db().event.aggregate({ _max: { position: true } }))._max.position);
    expect(sample(queued, "petstore_events_head_position")).toBe(head);
    expect(sample(queued, "petstore_webhook_deliveries_pending")).toBe(1);
    expect(sample(queued, "petstore_webhook_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(AGE);
    expect(sample(queued, "petstore_webhook_oldest_pending_age_seconds")).toBeLessThan(AGE + 60);
    // The one delivery's wake-up job, for that task alone.
    const waiting = (text: string, task: string) => sample(text, "petstore_jobs_waiting", { task });
    expect(waiting(queued, "deliver-webhooks") - waiting(before, "deliver-webhooks")).toBe(1);
    expect(waiting(queued, "application-mail") - waiting(before, "application-mail")).toBe(0);
    // Every task is reported, with zero when none waits (other test files may have left some).
    expect(queued).toMatch(/petstore_jobs_waiting\{task="application-mail"\} \d+/);

    // The receiver fails once (a retry is scheduled), then takes it.
    receiver.script({ status: 500 });
    const [delivery] = await db().webhookDelivery.findMany({ where: { endpointId: BigInt(endpoint.id) }, select: { id: true } });
    expect((await attemptDeliveries([delivery!.id], { owner: "metrics-test", manual: true })).get(delivery!.id)).toBe("retry_scheduled");
    expect((await attemptDeliveries([delivery!.id], { owner: "metrics-test", manual: true })).get(delivery!.id)).toBe("succeeded");
    await db().webhookEndpoint.update({ where: { id: BigInt(endpoint.id) }, data: { enabled: false, disabledReason: "test", disabledAt: new Date() } });

    const after = await scrape();
    const moved = (outcome: string) =>
      sample(after, "petstore_webhook_attempts_total", { outcome }) - sample(before, "petstore_webhook_attempts_total", { outcome });
    expect(moved("retry_scheduled")).toBe(1);
    expect(moved("succeeded")).toBe(1);
    expect(sample(after, "petstore_webhook_deliveries_pending")).toBe(0);
    expect(sample(after, "petstore_webhook_oldest_pending_age_seconds")).toBe(0);
    expect(sample(after, "petstore_webhook_endpoints_disabled") - sample(before, "petstore_webhook_endpoints_disabled")).toBe(1);
  });

  it("readiness as the load balancer was last told it", async () => {
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(sample(await scrape(), "petstore_ready")).toBe(1);
  });

  it("the process: event-loop lag, heap, garbage collection", async () => {
    const gcs = (text: string) => sample(text, "petstore_nodejs_gc_duration_seconds_count", { kind: "minor" });
    // Deliberate sleeps: the lag is measured on the timer's ticks, and each scrape resets it, so it cannot be polled.
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The lag histogram is read and reset by each scrape: this one starts it
    // afresh. Node measures the first delay after a reset from the next tick
    // of its 10 ms timer, so a block must come a few ticks later to be seen.
    const before = await scrape();
    await pause(50);
    // The event loop blocked for 200 ms, and ~100 MB of short-lived arrays, which the young generation's collections (minor GCs) sweep.
    const until = performance.now() + 200;
    while (performance.now() < until);
    const junk: number[][] = [];
    for (let i = 0; i < 200_000; i++) junk[i % 1_000] = new Array<number>(64).fill(i);
    // The GC entries reach prom-client's observer asynchronously.
    await pause(50);
    const text = await scrape();
    expect(sample(text, "petstore_nodejs_eventloop_lag_max_seconds")).toBeGreaterThanOrEqual(0.15);
    expect(sample(text, "petstore_nodejs_eventloop_lag_max_seconds")).toBeLessThan(10);
    expect(gcs(text)).toBeGreaterThan(gcs(before));
    expect(sample(text, "petstore_nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });
});
