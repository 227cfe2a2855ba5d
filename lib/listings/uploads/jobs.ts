import { Prisma } from "@/lib/generated/prisma/client";
import { LONG_WORK_QUEUE_PREFIX, QUEUE_SCHEMA } from "@/lib/jobs/queue";

// How listing uploads are queued (graphile-worker, lib/jobs). They go in
// their organisation's queue of long work (`long-work-org-<id>`, with its
// imports: lib/jobs/queue.ts): graphile-worker runs a named queue's jobs one
// at a time, so a site never has two uploads at once, and an organisation
// never holds more than one of the job worker's slots, on any instance
// (docs/decisions/021). Job keys do the batching: the changes of a quiet period
// share one key, and with `preserve_run_at` a later change joins the upload
// the first one scheduled instead of pushing it back (an animal changed
// every 30 s is still sent within the delay).

export type UploadReason = "change" | "daily" | "manual";

export interface UploadJob {
  siteId: string;
  reason: UploadReason;
  /** The upload row made when it was asked for (manual uploads answer with it). */
  uploadId?: string;
  /** Retries already made after failures (0 for the first upload). */
  retry?: number;
  /** A retry: skip it if an upload after this one succeeded meanwhile. */
  failedUploadId?: string;
}

/** Seconds before each retry of a failed upload in turn; after the last, the site waits for the next change or the daily upload. */
export const RETRY_DELAYS_SECONDS = [60, 300, 900] as const;

const Q = Prisma.raw(QUEUE_SCHEMA);

/**
 * SQL queueing an upload of the site whose id `siteId` (a bigint expression)
 * is. Qualify a column (`listing_sites.id`, not `id`): the expression is also
 * read inside a subquery on listing_sites, where a bare `id` would be its own.
 */
export function uploadJobSql(
  siteId: Prisma.Sql,
  job: {
    reason: UploadReason;
    delaySeconds: number;
    key: "change" | "retry" | "manual" | "daily";
    uploadId?: Prisma.Sql;
    retry?: number;
    failedUploadId?: bigint;
  },
): Prisma.Sql {
  const payload = Prisma.sql`jsonb_build_object('siteId', (${siteId})::text, 'reason', ${job.reason}::text, 'retry', ${job.retry ?? 0}::int)
    || ${job.uploadId ? Prisma.sql`jsonb_build_object('uploadId', (${job.uploadId})::text)` : Prisma.sql`'{}'::jsonb`}
    || ${job.failedUploadId !== undefined ? Prisma.sql`jsonb_build_object('failedUploadId', ${String(job.failedUploadId)}::text)` : Prisma.sql`'{}'::jsonb`}`;
  // A change keeps the time the first change of its quiet period set; a
  // retry replaces the previous one of its chain; a daily upload joins one
  // already waiting; a manual one is keyed so that manualUploadWaitingSql
  // finds it (the service queues one only while none waits, so `replace`
  // only ever meets a running one: graphile-worker then adds a new job).
  const mode = job.key === "change" ? "preserve_run_at" : job.key === "retry" || job.key === "manual" ? "replace" : "unsafe_dedupe";
  const key = Prisma.sql`'listing-' || ${job.key}::text || '-' || (${siteId})::text`;
  return Prisma.sql`${Q}.add_job('listing-upload', (${payload})::json,
      queue_name := ${LONG_WORK_QUEUE_PREFIX}::text || (SELECT site_of_job.organization_id FROM listing_sites site_of_job WHERE site_of_job.id = (${siteId}))::text,
      run_at := now() + make_interval(secs => ${job.delaySeconds}::float8),
      max_attempts := 3,
      job_key := ${key},
      job_key_mode := ${mode}::text)`;
}

/**
 * SQL: whether a manual upload of the site `siteId` (a bigint expression) is
 * queued and not yet running (a running one has a lock; one that failed for
 * good waits for nothing). "Upload now" is refused while one waits.
 */
export function manualUploadWaitingSql(siteId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM ${Q}.jobs WHERE key = 'listing-manual-' || (${siteId})::text AND locked_at IS NULL AND attempts < max_attempts)`;
}
