import cluster from "node:cluster";
import { createHash } from "node:crypto";
import os from "node:os";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { onShutdown } from "@/lib/lifecycle";
import { ResilientClient } from "@/lib/pg-client";

// One Prisma client per process. In development Next re-evaluates modules on
// every change; keeping the client on globalThis stops each reload from
// opening a new pool until PostgreSQL runs out of connections.
const statementNames = new Map<string, string>();

/** A stable name per SQL text (the set of texts is bounded: the code's query shapes). */
export function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (!name) {
    name = `s_${createHash("sha1").update(query.sql).digest("base64url")}`;
    statementNames.set(query.sql, name);
  }
  return name;
}

export const DB_CONNECT_TIMEOUT_MS = 3_000;
export const DB_STATEMENT_TIMEOUT_MS = 4_000;

const globalForDb = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool };

function createClient(): PrismaClient {
  const { DATABASE_URL, DATABASE_POOL_SIZE } = env();
  if (!DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start the app through `npm start` / `npm run dev`, which provide one.");
  }
  // One pool for Prisma and the few hot statements run on it directly (query() below).
  const pool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: poolShare(DATABASE_POOL_SIZE),
    application_name: applicationName(),
    // Nothing waits unbounded: a request that cannot get a connection
    // within 3 s, or whose query runs past the server's 4 s (or, with the
    // server unreachable mid-query, the client's 4.5 s), fails and is
    // answered 503 (lib/core/errors.ts), instead of queueing forever.
    connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
    statement_timeout: DB_STATEMENT_TIMEOUT_MS,
    query_timeout: DB_STATEMENT_TIMEOUT_MS + 500,
    idle_in_transaction_session_timeout: DB_STATEMENT_TIMEOUT_MS,
    keepAlive: true,
    // Never an unhandled 'error' from a connection PostgreSQL closes (lib/pg-client.ts).
    Client: ResilientClient,
  });
  pool.on("error", () => {});
  globalForDb.pgPool = pool;
  // Every statement is prepared once per connection and then only
  // executed: PostgreSQL parses and plans the hot queries (a page, a
  // create) once, not on every request (they share the machine's cores).
  const adapter = new PrismaPg(pool, { statementNameGenerator: statementName, disposeExternalPool: true });
  // Graceful shutdown closes the pool after the last request (lib/lifecycle.ts).
  onShutdown("database pool", disconnectDb);
  return new PrismaClient({ adapter });
}

/**
 * How this process's connections are named in pg_stat_activity, so an
 * operator (and the shutdown test) can tell which instance holds which:
 * "petstore:<pid>", or "petstore:<primary pid>/<worker>" in a worker.
 */
export function applicationName(): string {
  return cluster.isWorker && process.env.PETSTORE_INSTANCE ? `${process.env.PETSTORE_INSTANCE}/${cluster.worker!.id}` : `petstore:${process.pid}`;
}

/**
 * This process's share of an instance's connections: the instance's pool
 * figure divided among its workers, so N workers together stay within what
 * one instance was given (and PostgreSQL's max_connections).
 */
export function poolShare(perInstance: number): number {
  const workers = cluster.isWorker ? (env().WEB_CONCURRENCY ?? os.availableParallelism()) : 1;
  return Math.max(2, Math.ceil(perInstance / workers));
}

/** The connection pool's state (for metrics); null before the first use of the database. */
export function poolStats(): { total: number; idle: number; waiting: number; max: number } | null {
  const pool = globalForDb.pgPool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 } : null;
}

/** The client is created on first use, so `next build` needs no database. */
export function db(): PrismaClient {
  globalForDb.prisma ??= createClient();
  return globalForDb.prisma;
}

/**
 * Runs one SQL statement (built with Prisma.sql) as a prepared statement on
 * Prisma's own pool, skipping Prisma's per-query work: for the hottest
 * statements only (a page of the list, one animal, and a create, which is
 * one statement writing the animal, its audit record and its event), where a
 * profile showed Prisma spending 0.32 ms of CPU per page query against pg's
 * 0.09 ms, and an interactive transaction costing a create ~4 ms. Everything
 * else goes through Prisma.
 */
export async function query<R>(sql: { text: string; values: unknown[] }): Promise<R[]> {
  db();
  const result = await globalForDb.pgPool!.query<R & pg.QueryResultRow>({ name: statementName({ sql: sql.text }), text: sql.text, values: sql.values });
  return result.rows;
}

export async function disconnectDb(): Promise<void> {
  const prisma = globalForDb.prisma;
  globalForDb.prisma = undefined;
  globalForDb.pgPool = undefined;
  await prisma?.$disconnect();
}
