import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/v1/pets/route";
import { applicationName, disconnectDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { ResilientClient } from "@/lib/pg-client";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { FlakyPostgres, type Mode } from "../flaky-postgres";
import { call, enableRateLimit, newKey } from "./helpers";

// The database goes away in every way it can (cut, refused, starting up,
// out of connection slots, a black hole, backends killed) while 20 clients
// keep writing. Every answer is 201 or a 503 in the Error shape with
// Retry-After; none takes much longer than 5 s; the app recovers by itself;
// and every 201 is really in the database afterwards.

enableRateLimit();

const DATABASE_URL = process.env.DATABASE_URL!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let proxy: FlakyPostgres;
let key: string;

beforeAll(async () => {
  // Enterprise figures far above what the test sends: the limiter does all
  // its work (through the same flaky database) without ever refusing.
  ({ key } = await newKey(["pets:read", "pets:write"], "outage", { plan: "enterprise", perMinute: 100_000_000, perDay: 100_000_000 }));
  proxy = await FlakyPostgres.start(DATABASE_URL);
  vi.stubEnv("DATABASE_URL", proxy.urlFor(DATABASE_URL));
  resetEnvCache();
  await disconnectDb();
  await setCounterStore(undefined);
});

afterAll(async () => {
  await disconnectDb();
  await setCounterStore(undefined);
  await proxy.stop();
});

interface Outcome {
  status: number;
  startedAt: number;
  ms: number;
  body: string;
  retryAfter: string | null;
  mode: Mode;
}

/** Kills this process's own database sessions (FATAL 57P01 on their next use), as an operator or a failover does. */
async function terminateOurBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const { rowCount } = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [applicationName()]);
  await admin.end();
  return rowCount ?? 0;
}

describe("a database outage under 20 concurrent writers", () => {
  it(
    "answers only 201 or 503 (Error shape, Retry-After), never hangs, recovers without a restart, and loses nothing accepted",
    { timeout: 60_000 },
    async () => {
      const outcomes: Outcome[] = [];
      let stop = false;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const startedAt = Date.now();
          const mode = proxy.mode;
          const res = await call(POST, "/v1/pets", { method: "POST", key, json: { name: `Outage ${n}-${i}`, categoryId: 1 } });
          outcomes.push({
            status: res.status,
            startedAt,
            ms: Date.now() - startedAt,
            body: await res.text(),
            retryAfter: res.headers.get("retry-after"),
            mode,
          });
          if (res.status !== 201) await sleep(25);
        }
      };
      const writers = Array.from({ length: 20 }, (_, n) => writer(n));

      // Backends killed three times while writes (transactions included) run.
      let terminated = 0;
      for (let i = 0; i < 3; i++) {
        await sleep(400);
        terminated += await terminateOurBackends();
      }
      expect(terminated).toBeGreaterThan(0);
      await sleep(400);
      for (const [mode, ms] of [
        ["cut", 800],
        ["refuse", 1_200],
        ["starting", 1_200],
        ["full", 800],
        ["hang", 4_000],
      ] as const) {
        await proxy.set(mode);
        await sleep(ms);
      }
      await proxy.set("pass");
      const recoveredAt = Date.now();
      await sleep(3_000);
      stop = true;
      await Promise.all(writers);

      const created = outcomes.filter((o) => o.status === 201);
      const unavailable = outcomes.filter((o) => o.status === 503);
      const other = outcomes.filter((o) => o.status !== 201 && o.status !== 503);
      expect(other.map((o) => `${o.status} in ${o.mode}: ${o.body.slice(0, 200)}`)).toEqual([]);
      expect(created.length).toBeGreaterThan(100);
      expect(unavailable.length).toBeGreaterThan(20);
      for (const o of unavailable) {
        expect(JSON.parse(o.body)).toEqual({ code: "service_unavailable", message: expect.any(String), status: 503 });
        expect(Number(o.retryAfter)).toBeGreaterThan(0);
      }
      // Each way of failing was really met on the wire.
      for (const mode of ["cut", "starting", "full", "hang"] as const) expect(proxy.accepted[mode], mode).toBeGreaterThan(0);

      // Bounded: the pool gives up on a connection after 3 s, a query after ~4.5 s.
      expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(6_000);

      // Recovered by itself: a moment after the database is back, every write succeeds.
      const late = outcomes.filter((o) => o.startedAt >= recoveredAt + 1_500);
      expect(late.length).toBeGreaterThan(10);
      expect(late.filter((o) => o.status !== 201).map((o) => `${o.status}: ${o.body.slice(0, 120)}`)).toEqual([]);

      // Nothing acknowledged was lost.
      const ids = created.map((o) => (JSON.parse(o.body) as { id: number }).id);
      const direct = new pg.Client({ connectionString: DATABASE_URL });
      await direct.connect();
      const { rows } = await direct.query<{ n: number }>("SELECT count(*)::int AS n FROM pets WHERE id = ANY($1::bigint[])", [ids]);
      await direct.end();
      expect(rows[0]!.n).toBe(ids.length);
    },
  );

  it("a connection PostgreSQL closes while it is checked out does not crash the process, and its user still sees the failure", async () => {
    // What pg does without a listener: a FATAL with no query running is an
    // unhandled 'error' event. Our pools' clients always listen.
    const pool = new pg.Pool({ connectionString: DATABASE_URL, application_name: "petstore-outage-probe", Client: ResilientClient, max: 1 });
    pool.on("error", () => {});
    const client = await pool.connect();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'petstore-outage-probe'");
    await admin.end();
    await sleep(200);
    await expect(client.query("SELECT 1")).rejects.toThrow();
    client.release(true);
    await pool.end();
  });
});
