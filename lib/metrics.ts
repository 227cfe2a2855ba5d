import cluster from "node:cluster";
import client from "prom-client";
import { Prisma } from "@/lib/generated/prisma/client";
import { db, poolStats } from "@/lib/db";
import { TASK_NAMES } from "@/lib/jobs/queue";
import { MAIL_KINDS } from "@/lib/core/mail-kinds";
import { LISTING_SITES } from "@/lib/core/listing-sites";
import { logger } from "@/lib/log";

// Every metric the service exports, defined once, by name, with its labels
// (Prometheus text format at GET /metrics: lib/server/metrics.ts). Others
// import `metrics()` and count; labels come from route templates, plans and
// outcomes, never from input, so the number of series stays bounded.
//
// One set per process, kept on globalThis: the server (scripts/server.ts)
// and Next's bundled route handlers each load this file, and prom-client
// (an external package, next.config.mjs) refuses a name registered twice.
// With several workers each keeps its own values; a scrape asks the primary,
// which sums them across the workers (prom-client's AggregatorRegistry).

const PREFIX = "petstore_";

/** Seconds: from a cached page (a few ms) to the 10 s a request may take at most. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function create() {
  const registry = client.register;
  client.collectDefaultMetrics({ register: registry, prefix: PREFIX });

  // Figures read from PostgreSQL at scrape time, one statement for all of
  // them, shared by every gauge of one scrape (prom-client starts every
  // collect in the same tick). The same in every worker, so the cluster
  // total takes one worker's ("first"), not their sum.
  let snapshot: Promise<Snapshot | null> | undefined;
  const read = () => {
    snapshot ??= readSnapshot().finally(() => (snapshot = undefined));
    return snapshot;
  };
  const fromDatabase = (name: string, help: string, pick: (s: Snapshot) => number) =>
    new client.Gauge({
      name: PREFIX + name,
      help,
      aggregator: "first",
      async collect() {
        const s = await read();
        // Unknown, not zero, while the database does not answer: an alert
        // on the value then neither fires nor clears on a guess.
        this.set(s ? pick(s) : Number.NaN);
      },
    });

  return {
    registry,
    httpRequests: new client.Counter({
      name: `${PREFIX}http_requests_total`,
      help: "Requests answered, by route template (as the OpenAPI document writes it), method and status.",
      labelNames: ["route", "method", "status"] as const,
    }),
    httpDuration: new client.Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: "Time from a request's arrival to the end of its answer, by route template and method.",
      labelNames: ["route", "method"] as const,
      buckets: LATENCY_BUCKETS,
    }),
    rateLimited: new client.Counter({
      name: `${PREFIX}rate_limited_total`,
      help: "Requests refused with 429 by the rate limiter, by the caller's plan and why (rate_limited, key_temporarily_banned).",
      labelNames: ["plan", "code"] as const,
    }),
    keysBanned: new client.Counter({
      name: `${PREFIX}api_keys_banned_total`,
      help: "API keys banned for sending on while rate limited, by plan.",
      labelNames: ["plan"] as const,
    }),
    dbPool: new client.Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: "The PostgreSQL connection pool: connections open (total), idle, requests waiting for one, and the pool's size (max).",
      labelNames: ["state"] as const,
      collect() {
        const stats = poolStats();
        if (!stats) return;
        for (const state of ["total", "idle", "waiting", "max"] as const) this.set({ state }, stats[state]);
      },
    }),
    dbReads: new client.Counter({
      name: `${PREFIX}db_reads_total`,
      help: "Reads that may use a replica (the list, ?id= lookups, getPet, categories), by where they went: replica, primary (no usable replica, or the request must read the primary), primary_fallback (the replica failed).",
      labelNames: ["target"] as const,
    }),
    replicaUp: new client.Gauge({
      name: `${PREFIX}db_replica_up`,
      help: "1 when a replica (by its place in DATABASE_REPLICA_URL, from 0) answered its last check as a standby, else 0. The cluster value is the lowest worker's.",
      labelNames: ["replica"] as const,
      aggregator: "min",
    }),
    replicaLag: new client.Gauge({
      name: `${PREFIX}db_replica_lag_seconds`,
      help: "A replica's replay lag at its last check (0 when it has replayed all it received); NaN while it is down. The cluster value is the highest worker's.",
      labelNames: ["replica"] as const,
      aggregator: "max",
    }),
    redisConnected: unknownUntilSet(
      new client.Gauge({
        name: `${PREFIX}redis_connected`,
        help: "1 while the rate-limit counter store's Redis connection is ready, 0 while it is not; NaN without Redis (REDIS_URL unset). The cluster value is the lowest worker's.",
        aggregator: "min",
      }),
    ),
    redisCommandErrors: new client.Counter({
      name: `${PREFIX}redis_command_errors_total`,
      help: "Redis commands of the rate-limit counter store that failed (each one answered 503).",
    }),
    ready: readyGauge(),
    webhookAttempts: new client.Counter({
      name: `${PREFIX}webhook_attempts_total`,
      help: "Webhook delivery attempts by outcome: succeeded, retry_scheduled, failed (no retries left), cancelled, released (handed back at shutdown).",
      labelNames: ["outcome"] as const,
    }),
    emails: zeroed(
      new client.Counter({
        name: `${PREFIX}emails_total`,
        help: "Emails handed to the mail server (sent) or refused by it (failed: the job retries), by what they are for (lib/core/mail-kinds.ts).",
        labelNames: ["kind", "outcome"] as const,
      }),
      MAIL_KINDS.flatMap((kind) => [
        { kind, outcome: "sent" },
        { kind, outcome: "failed" },
      ]),
    ),
    listingUploads: zeroed(
      new client.Counter({
        name: `${PREFIX}listing_uploads_total`,
        help: "Uploads to listing sites (Petfinder, Adopt-a-Pet, RescueGroups) by site kind and outcome: sent, or failed (a retry may follow). No organisation or account label.",
        labelNames: ["site", "outcome"] as const,
      }),
      LISTING_SITES.flatMap((site) => [
        { site, outcome: "sent" },
        { site, outcome: "failed" },
      ]),
    ),
    listingOldestSuccess: new client.Gauge({
      name: `${PREFIX}listing_oldest_success_age_seconds`,
      help: "Per site kind, over every enabled listing site of that kind: the longest time since a site's last successful upload (since it was added, when none succeeded yet). 0 when no site of the kind is enabled.",
      labelNames: ["site"] as const,
      aggregator: "first",
      async collect() {
        const s = await read();
        for (const site of LISTING_SITES) this.set({ site }, s ? (s.listingAges[site] ?? 0) : Number.NaN);
      },
    }),
    feedHead: fromDatabase("events_head_position", "The change feed's newest committed position.", (s) => s.feedHead),
    deliveriesPending: fromDatabase("webhook_deliveries_pending", "Webhook deliveries not yet delivered, failed or cancelled.", (s) => s.pending),
    oldestPending: fromDatabase(
      "webhook_oldest_pending_age_seconds",
      "Age of the oldest pending webhook delivery (0 when none is pending).",
      (s) => s.oldestPendingSeconds,
    ),
    endpointsDisabled: fromDatabase(
      "webhook_endpoints_disabled",
      "Webhook endpoints disabled (by their owner, by staff, or after failing for days).",
      (s) => s.endpointsDisabled,
    ),
    jobSlots: zeroedGauge(
      new client.Gauge({
        name: `${PREFIX}job_slots`,
        help: "The job worker's slots (lib/worker/runner.ts): each instance's general runner (webhooks, mail, the schedule) and its runner of long work (imports, listing uploads; at most one per organisation across all instances), by how many there are (size) and how many run a job right now (busy).",
        labelNames: ["pool", "state"] as const,
      }),
      ["general", "long"].flatMap((pool) => [
        { pool, state: "size" },
        { pool, state: "busy" },
      ]),
    ),
    jobsWaiting: new client.Gauge({
      name: `${PREFIX}jobs_waiting`,
      help: "Background jobs (graphile-worker) due and not yet taken, by task.",
      labelNames: ["task"] as const,
      aggregator: "first",
      async collect() {
        const s = await read();
        for (const task of TASK_NAMES) this.set({ task }, s ? (s.jobs[task] ?? 0) : Number.NaN);
      },
    }),
  };
}

/** A gauge exported at 0 for each of these label sets until something moves it. */
function zeroedGauge<T extends string>(gauge: client.Gauge<T>, labelSets: Partial<Record<T, string>>[]) {
  for (const labels of labelSets) gauge.set(labels, 0);
  return gauge;
}

/**
 * A counter exported at 0 for each of these label sets from the start: a
 * series that appears only with its first count hides that first increase
 * from increase(), and a rule asking "none sent?" finds no series to say 0.
 */
function zeroed<T extends string>(counter: client.Counter<T>, labelSets: Partial<Record<T, string>>[]) {
  for (const labels of labelSets) counter.inc(labels, 0);
  return counter;
}

/** A gauge that reads NaN (unknown) until something sets it, rather than a misleading 0. */
function unknownUntilSet(gauge: client.Gauge) {
  gauge.set(Number.NaN);
  return gauge;
}

function readyGauge() {
  return unknownUntilSet(
    new client.Gauge({
      name: `${PREFIX}ready`,
      help: "1 when the last readiness check (/readyz) passed, 0 when it did not or the instance is draining; NaN before the first. The cluster value is the lowest worker's.",
      aggregator: "min",
    }),
  );
}

interface Snapshot {
  feedHead: number;
  pending: number;
  oldestPendingSeconds: number;
  endpointsDisabled: number;
  jobs: Record<string, number>;
  listingAges: Record<string, number>;
}

async function readSnapshot(): Promise<Snapshot | null> {
  try {
    const [row] = await db().$queryRaw<
      {
        head: bigint | null;
        pending: number;
        oldest: number | null;
        disabled: number;
        jobs: Record<string, number> | null;
        listing_ages: Record<string, number> | null;
      }[]
    >(Prisma.sql`
      SELECT (SELECT max(position) FROM events) AS head,
             (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'pending') AS pending,
             (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM webhook_deliveries WHERE status = 'pending') AS oldest,
             (SELECT count(*)::int FROM webhook_endpoints WHERE NOT enabled) AS disabled,
             (SELECT jsonb_object_agg(task_identifier, n) FROM (
                SELECT task_identifier, count(*)::int AS n FROM graphile_worker.jobs
                WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts
                GROUP BY task_identifier) waiting) AS jobs,
             (SELECT jsonb_object_agg(site, age) FROM (
                SELECT s.site::text AS site, max(extract(epoch FROM now() - COALESCE(
                         (SELECT max(u.finished_at) FROM listing_uploads u WHERE u.site_id = s.id AND u.outcome = 'sent'), s.created_at)))::float8 AS age
                  FROM listing_sites s WHERE s.enabled GROUP BY s.site) ages) AS listing_ages`);
    if (!row) return null;
    return {
      feedHead: Number(row.head ?? 0),
      pending: row.pending,
      oldestPendingSeconds: Math.max(0, row.oldest ?? 0),
      endpointsDisabled: row.disabled,
      jobs: row.jobs ?? {},
      listingAges: row.listing_ages ?? {},
    };
  } catch (error) {
    logger().warn({ err: error }, "metrics: could not read the database's figures");
    return null;
  }
}

export type Metrics = ReturnType<typeof create>;

const globalForMetrics = globalThis as unknown as { petstoreMetrics?: Metrics };

export function metrics(): Metrics {
  if (!globalForMetrics.petstoreMetrics) {
    globalForMetrics.petstoreMetrics = create();
    // A worker answers the primary's requests for its values (prom-client
    // installs that listener when an AggregatorRegistry is made).
    if (cluster.isWorker) new client.AggregatorRegistry();
  }
  return globalForMetrics.petstoreMetrics;
}

/** This process's metrics in the Prometheus text format. */
export async function localExposition(): Promise<string> {
  return metrics().registry.metrics();
}

export const CONTENT_TYPE = client.register.contentType;

/**
 * Sums the workers' metrics, in the primary (scripts/cluster.ts): a worker
 * that is asked for /metrics passes the question on here, so that any
 * scrape, whichever worker takes it, sees the whole instance.
 */
export function serveClusterMetrics(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number } | undefined) => {
    if (message?.type !== CLUSTER_REQUEST) return;
    aggregator.clusterMetrics().then(
      (body) => worker.send({ type: CLUSTER_REPLY, id: message.id, body }),
      (error: unknown) => worker.send({ type: CLUSTER_REPLY, id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

const CLUSTER_REQUEST = "petstore:metrics";
const CLUSTER_REPLY = "petstore:metrics:reply";
let nextRequest = 0;

/** The whole instance's metrics: this process's, or with workers, all workers' summed by the primary. */
export function instanceExposition(timeoutMs = 5_000): Promise<string> {
  if (!cluster.isWorker || !process.send) return localExposition();
  const id = ++nextRequest;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string; id?: number; body?: string; error?: string }) => {
      if (message?.type !== CLUSTER_REPLY || message.id !== id) return;
      cleanup();
      if (message.error !== undefined || message.body === undefined) reject(new Error(message.error ?? "no metrics"));
      else resolve(message.body);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error("the primary did not answer"));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    process.on("message", onMessage);
    process.send!({ type: CLUSTER_REQUEST, id });
  });
}
