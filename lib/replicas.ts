import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { Batcher } from "@/lib/batch";
import { DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, applicationName, poolShare, query, statementName } from "@/lib/db";
import { env } from "@/lib/env";
import { onShutdown } from "@/lib/lifecycle";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { ResilientClient } from "@/lib/pg-client";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { shortWindowAt } from "@/lib/rate-limit/windows";

// Reads from PostgreSQL streaming replicas (DATABASE_REPLICA_URL).
//
// What may read a replica: the list and its ?id= lookups, getPet and the
// categories (readQuery below, called by lib/pets/queries/lookups.ts), and so the
// public pages, which go through the same handlers. Everything else (writes,
// transactions, the change feed, webhooks, keys, sessions, the rate limiter)
// uses lib/db.ts, the primary, as it always did.
//
// Which replica: one that answered its last check (every CHECK_MS) and whose
// replay lag was at most REPLICA_MAX_LAG_MS, in turn. None: the primary. A
// replica query that fails (the replica stopped, a conflict with recovery)
// is marked down and retried on the primary: the request never sees it.
//
// Lag is measured against the primary, not by the replica alone: each check
// notes the primary's WAL position, and a replica's lag is how long ago the
// primary had written WAL the replica has not replayed yet (0 when it has
// replayed everything noted). The replica's own view (received = replayed,
// or the age of its last replayed transaction) cannot see WAL it never
// received: a standby cut off from its primary would look caught up forever.
//
// Read-your-writes, the rule: a request reads the primary when
//   - it is not a GET/HEAD (a write reads what it writes);
//   - its caller (an API key, a browser session: the rate limiter's identity)
//     changed something in the last 2 to 3 x REPLICA_MAX_LAG_MS, on any
//     instance: each write leaves a mark in the shared counter store (Redis,
//     or PostgreSQL), read back on the caller's next reads; a replica we read
//     is never further behind than REPLICA_MAX_LAG_MS, so after that the write
//     is on it;
//   - it carries a tag it was given (If-None-Match) that the replica cannot
//     confirm: the list and getPet re-read the primary when the replica's
//     answer does not match (app/v1/pets/route.ts, app/v1/pets/[petId]/route.ts),
//     so nobody is shown a page or an animal older than one they already had.

const CHECK_MS = 500;
const CHECK_TIMEOUT_MS = 1_000;
/** How long the primary's WAL positions are remembered: past this a replica's lag is reported as at least this. */
const historyMs = () => Math.max(10_000, 2 * env().REPLICA_MAX_LAG_MS);

/** A pg_lsn ("16/B374D848") as a number that compares. */
function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** Rejects after `ms`: a check never waits on a server that does not answer. */
function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
/** How many fence windows back a write is remembered (each REPLICA_MAX_LAG_MS long, at least a second). */
const FENCE_WINDOWS = 3;

interface Replica {
  /** Its place in DATABASE_REPLICA_URL: the metrics' label (never the URL, which may hold a password). */
  index: number;
  pool: pg.Pool;
  up: boolean;
  /** Replay lag at the last check; null while unknown (down, or not checked yet). */
  lagMs: number | null;
  /** Why it is not used, for /readyz: a word, no internals. */
  reason?: "down" | "lagging" | "not_a_replica";
}

class ReplicaSet {
  readonly replicas: Replica[];
  private turn = 0;
  private readonly timer: NodeJS.Timeout;
  private checking?: Promise<void>;

  constructor(urls: string[]) {
    this.replicas = urls.map((url, index) => {
      const pool = new pg.Pool({
        connectionString: url,
        max: poolShare(env().DATABASE_POOL_SIZE),
        application_name: `${applicationName()}:replica`,
        connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
        statement_timeout: DB_STATEMENT_TIMEOUT_MS,
        query_timeout: DB_STATEMENT_TIMEOUT_MS + 500,
        keepAlive: true,
        Client: ResilientClient,
      });
      pool.on("error", () => {});
      return { index, pool, up: false, lagMs: null, reason: "down" as const };
    });
    this.timer = setInterval(() => void this.checkAll(), CHECK_MS);
    this.timer.unref();
  }

  /** Measures every replica now (concurrent calls share one round). */
  checkAll(): Promise<void> {
    this.checking ??= this.notePrimary()
      .then(() => Promise.all(this.replicas.map((r) => this.check(r))))
      .then(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  /**
   * The primary's WAL positions, each with when it was first seen, oldest
   * first (only changes are kept: an idle primary adds nothing). Flushed
   * WAL: what a standby can have been sent.
   */
  private readonly primaryWal: { at: number; lsn: bigint }[] = [];

  private async notePrimary(): Promise<void> {
    try {
      const [row] = await withTimeout(
        query<{ lsn: string }>({ text: "SELECT pg_current_wal_flush_lsn()::text AS lsn", values: [] }),
        CHECK_TIMEOUT_MS,
        "primary WAL position",
      );
      const lsn = lsnValue(row!.lsn);
      const now = Date.now();
      if (this.primaryWal.at(-1)?.lsn !== lsn) this.primaryWal.push({ at: now, lsn });
      // The newest position stays, however old: it is what the replicas must reach.
      while (this.primaryWal.length > 1 && this.primaryWal[0]!.at < now - historyMs()) this.primaryWal.shift();
    } catch {
      // The primary is away: the replicas are judged by what it had written before.
    }
  }

  /** How long ago the primary had written WAL beyond `replayed` (0: nothing noted is missing). */
  private lagOf(replayed: bigint): number {
    const missing = this.primaryWal.find((p) => p.lsn > replayed);
    return missing ? Date.now() - missing.at : 0;
  }

  private async check(replica: Replica): Promise<void> {
    try {
      const { rows } = await withTimeout(
        replica.pool.query<{ standby: boolean; replayed: string | null }>(`SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`),
        CHECK_TIMEOUT_MS,
        "replica check",
      );
      const row = rows[0]!;
      const lagMs = row.standby ? (row.replayed === null ? Number.POSITIVE_INFINITY : this.lagOf(lsnValue(row.replayed))) : null;
      replica.up = row.standby;
      replica.lagMs = lagMs;
      replica.reason = lagMs === null ? "not_a_replica" : lagMs > env().REPLICA_MAX_LAG_MS ? "lagging" : undefined;
    } catch {
      replica.up = false;
      replica.lagMs = null;
      replica.reason = "down";
    }
    const m = metrics();
    m.replicaUp.set({ replica: String(replica.index) }, replica.up ? 1 : 0);
    m.replicaLag.set({ replica: String(replica.index) }, replica.lagMs === null ? Number.NaN : replica.lagMs / 1000);
  }

  /** The next usable replica in turn, or null. */
  pick(): Replica | null {
    const usable = this.replicas.filter((r) => r.up && r.reason === undefined);
    if (usable.length === 0) return null;
    this.turn = (this.turn + 1) % usable.length;
    return usable[this.turn]!;
  }

  markDown(replica: Replica): void {
    replica.up = false;
    replica.lagMs = null;
    replica.reason = "down";
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }
}

const globalForReplicas = globalThis as unknown as { petstoreReplicas?: ReplicaSet | null; petstoreReadPolicy?: AsyncLocalStorage<ReadPolicy> };

/** The configured replicas (created, and first checked, on first use); null without DATABASE_REPLICA_URL. */
function replicaSet(): ReplicaSet | null {
  if (globalForReplicas.petstoreReplicas === undefined) {
    const urls = env().DATABASE_REPLICA_URL;
    if (urls.length === 0) {
      globalForReplicas.petstoreReplicas = null;
    } else {
      const set = new ReplicaSet(urls);
      globalForReplicas.petstoreReplicas = set;
      void set.checkAll();
      onShutdown("replica pools", () => closeReplicas());
    }
  }
  return globalForReplicas.petstoreReplicas;
}

export function replicasConfigured(): boolean {
  return env().DATABASE_REPLICA_URL.length > 0;
}

/** Closes the replica pools (shutdown; tests that change DATABASE_REPLICA_URL). */
export async function closeReplicas(): Promise<void> {
  const set = globalForReplicas.petstoreReplicas;
  globalForReplicas.petstoreReplicas = undefined;
  await set?.close();
}

/** Checks every replica now, rather than at the next tick (readiness; tests). */
export async function checkReplicas(): Promise<ReplicaStatus[]> {
  const set = replicaSet();
  if (!set) return [];
  await set.checkAll();
  return replicaStatus();
}

export interface ReplicaStatus {
  replica: number;
  status: "up" | "down" | "lagging" | "not_a_replica";
  lagMs: number | null;
}

/** Each replica as the last check found it (for /readyz). */
export function replicaStatus(): ReplicaStatus[] {
  return (replicaSet()?.replicas ?? []).map((r) => ({ replica: r.index, status: r.reason ?? "up", lagMs: r.lagMs === null ? null : Math.round(r.lagMs) }));
}

// ---- the read policy of a request ----------------------------------------

export interface ReadPolicy {
  /** This request must read the primary (see the rule above). */
  primary: boolean;
}

const readPolicy = (globalForReplicas.petstoreReadPolicy ??= new AsyncLocalStorage<ReadPolicy>());

/** Runs `fn` (a request's handler) under `policy`; outside any policy (jobs, the CLI) reads go to the primary. */
export function withReadPolicy<T>(policy: ReadPolicy, fn: () => T): T {
  return readPolicy.run(policy, fn);
}

/** Where a read of this request goes now: a replica, or null for the primary. */
function target(): Replica | null {
  if (readPolicy.getStore()?.primary !== false) return null;
  return replicaSet()?.pick() ?? null;
}

/**
 * One read statement on a replica when the request may use one, else on the
 * primary; a replica that fails it is marked down and the primary answers.
 */
export async function readQuery<R>(sql: { text: string; values: unknown[] }): Promise<R[]> {
  return readOn(target(), sql);
}

async function readOn<R>(replica: Replica | null, sql: { text: string; values: unknown[] }): Promise<R[]> {
  const m = metrics();
  if (!replica) {
    m.dbReads.inc({ target: "primary" });
    return query<R>(sql);
  }
  try {
    const result = await replica.pool.query<R & pg.QueryResultRow>({ name: statementName({ sql: sql.text }), text: sql.text, values: sql.values });
    m.dbReads.inc({ target: "replica" });
    return result.rows;
  } catch (error) {
    replicaSet()?.markDown(replica);
    logger().warn({ replica: replica.index, err: error }, "replica read failed: read from the primary instead");
    m.dbReads.inc({ target: "primary_fallback" });
    return query<R>(sql);
  }
}

/** Like readQuery, with identical statements asked at the same moment (and bound for the same place) sharing one round trip. */
export function sharedReadQuery<R>(sql: { text: string; values: unknown[] }): Promise<R[]> {
  const replica = target();
  const key = `${replica?.index ?? "p"}\u0000${sql.text}\u0000${JSON.stringify(sql.values, (_, value: unknown) => (typeof value === "bigint" ? `${value}n` : value))}`;
  return identicalReads.run(key, { replica, sql }) as Promise<R[]>;
}

const identicalReads = new Batcher<{ replica: Replica | null; sql: { text: string; values: unknown[] } }, unknown[]>(async (batch) => {
  const rows = await readOn<unknown>(batch[0]!.replica, batch[0]!.sql);
  return batch.map(() => rows);
}, Number.MAX_SAFE_INTEGER);

/** Whether reads of this request would go to a replica now (the key of a batch that must not mix the two). */
export function readsFromReplica(): boolean {
  return readPolicy.getStore()?.primary === false && replicasConfigured();
}

// ---- read-your-writes fences ----------------------------------------------

const fenceSeconds = () => Math.max(1, Math.ceil(env().REPLICA_MAX_LAG_MS / 1000));
const fenceKey = (rateKey: string) => `fence:${rateKey}`;

/** Marks that this caller changed something now (every instance reads it back): its next reads go to the primary. */
export async function noteWrite(rateKey: string, now: Date): Promise<void> {
  if (!replicasConfigured()) return;
  try {
    await counterStore().hit([{ rateKey: fenceKey(rateKey), window: shortWindowAt(fenceSeconds(), now) }]);
  } catch (error) {
    // The write itself is done; its reader may see the replica's older copy for a few seconds.
    logger().warn({ err: error }, "could not mark a write for read-your-writes");
  }
}

/** Whether this caller changed something recently (then it reads the primary). Unknown counts as yes. */
export async function wroteRecently(rateKey: string, now: Date): Promise<boolean> {
  if (!replicasConfigured()) return false;
  const seconds = fenceSeconds();
  try {
    const counts = await counterStore().peek(
      Array.from({ length: FENCE_WINDOWS }, (_, back) => ({ rateKey: fenceKey(rateKey), window: shortWindowAt(seconds, now, back) })),
    );
    return counts.some((n) => n > 0);
  } catch {
    return true;
  }
}
