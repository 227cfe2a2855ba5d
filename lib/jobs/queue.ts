import { Prisma } from "@/lib/generated/prisma/client";

/** graphile-worker's schema: jobs are added with SQL (`<schema>.add_job`) inside the transaction that calls for them. */
export const QUEUE_SCHEMA = "graphile_worker";

/** Every task's name (lib/worker/tasks.ts implements each; the metrics report each one's waiting jobs, zero included). */
export const TASK_NAMES = [
  "deliver-webhooks",
  "sweep-events",
  "refresh-age-groups",
  "application-mail",
  "application-digest",
  "anonymise-applications",
  "alert-mail",
  "foster-mail",
  "send-alerts",
  "expire-alerts",
  "listing-upload",
  "listing-daily",
  "run-import",
  "sweep-import-reports",
  "recover-long-work",
  "maintain-grown-tables",
] as const;

/**
 * The long tasks: one organisation's work that may hold a slot for minutes (an
 * import of 20,000 rows and their photos; an upload to a listing site's FTP
 * server, which may be slow or never answer). Each instance runs them on a
 * runner of their own with LONG_WORK_CONCURRENCY slots (lib/worker/runner.ts),
 * so they never take the slots of webhooks and mail; and each is queued in
 * its organisation's named queue (longWorkQueue), so one organisation has at
 * most one running at a time across every instance (docs/decisions/021).
 */
export const LONG_TASK_NAMES = ["run-import", "listing-upload"] as const satisfies readonly (typeof TASK_NAMES)[number][];

/** How an organisation's queue of long work is named (`long-work-org-<id>`); SQL that knows the organisation only as an expression appends it. */
export const LONG_WORK_QUEUE_PREFIX = "long-work-org-";

/**
 * The named queue of an organisation's long work: graphile-worker runs the
 * jobs of one queue one at a time, in order, whichever instance takes them.
 */
export function longWorkQueue(organizationId: number | bigint): string {
  return `${LONG_WORK_QUEUE_PREFIX}${organizationId}`;
}

/** Deliveries per job: attempted side by side by one worker. */
export const DELIVERIES_PER_JOB = 20;

/**
 * SQL queueing wake-up jobs for the deliveries whose ids `ids` (a bigint[]
 * expression) names, a few per job; its value is the number of jobs. It is
 * part of the statement that creates or marks the deliveries, so they and
 * their jobs commit together. A delivery queued twice is harmless: the
 * second job finds it held or done.
 */
export function deliveryJobsSql(ids: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
    SELECT count(${Prisma.raw(QUEUE_SCHEMA)}.add_job('deliver-webhooks', json_build_object('deliveryIds', chunk), max_attempts := 5))::int
      FROM (SELECT array_agg(id::text ORDER BY id) AS chunk
              FROM unnest(${ids}) WITH ORDINALITY AS t(id, n)
             GROUP BY (n - 1) / ${Prisma.raw(String(DELIVERIES_PER_JOB))}) AS chunks)`;
}
