import pg from "pg";
import { applicationName, poolShare } from "@/lib/db";
import { ResilientClient } from "@/lib/pg-client";
import { CounterStoreUnavailable, counterKey, type Counter, type CounterStore } from "@/lib/rate-limit/store";

/**
 * Counters in PostgreSQL's UNLOGGED rate_limit_counters table. One INSERT
 * ... ON CONFLICT DO UPDATE covers both windows: one round trip, and the row
 * lock serialises concurrent hits on the same counter, so counts are exact.
 *
 * It has a small pool of its own rather than Prisma's: the hot path is one
 * fixed statement, and a limiter must not queue behind slow application
 * queries for a connection.
 */
export class PostgresCounterStore implements CounterStore {
  private readonly pool: pg.Pool;

  constructor(connectionString: string, max = poolShare(5)) {
    this.pool = new pg.Pool({
      connectionString,
      max,
      connectionTimeoutMillis: 2_000,
      statement_timeout: 2_000,
      // The server cannot cancel a statement it never received (a network
      // black hole): the client gives up too.
      query_timeout: 2_500,
      keepAlive: true,
      Client: ResilientClient,
      application_name: applicationName(),
    });
    // An idle client losing its connection must not crash the process.
    this.pool.on("error", () => {});
  }

  async hit(counters: Counter[], by = 1): Promise<number[]> {
    // Rows are always inserted in key order, so two concurrent statements
    // that share counters (two sessions of one address) lock them in the
    // same order: no deadlock.
    const ordered = counters.map((c, i) => ({ key: counterKey(c), c, i })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const values: unknown[] = [];
    values.push(by);
    const rows = ordered.map(({ key, c }, i) => {
      values.push(key, c.window.start, c.window.end);
      return `($${i * 3 + 2}, $${i * 3 + 3}, $1::int, $${i * 3 + 4})`;
    });
    try {
      const result = await this.pool.query<{ key: string; hits: number }>({
        // Named: each connection parses and plans it once, then only executes.
        name: `rate-limit-hit-${counters.length}`,
        text: `INSERT INTO rate_limit_counters AS c (key, window_start, hits, expires_at)
               VALUES ${rows.join(", ")}
               ON CONFLICT (key, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits
               RETURNING key, hits`,
        values,
      });
      const byKey = new Map(result.rows.map((r) => [r.key, r.hits]));
      return counters.map((c) => byKey.get(counterKey(c)) ?? 0);
    } catch (error) {
      throw new CounterStoreUnavailable(error);
    }
  }

  async peek(counters: Counter[]): Promise<number[]> {
    const result = await this.pool.query<{ key: string; window_start: Date; hits: number }>(
      "SELECT key, window_start, hits FROM rate_limit_counters WHERE key = ANY($1::text[])",
      [counters.map(counterKey)],
    );
    return counters.map((c) => result.rows.find((r) => r.key === counterKey(c) && r.window_start.getTime() === c.window.start.getTime())?.hits ?? 0);
  }

  async sweep(now: Date): Promise<number> {
    const result = await this.pool.query("DELETE FROM rate_limit_counters WHERE expires_at <= $1", [now]);
    return result.rowCount ?? 0;
  }

  async ping(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
