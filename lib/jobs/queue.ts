/** graphile-worker's schema: jobs are added with SQL (`<schema>.add_job`) inside the transaction that calls for them. */
export const QUEUE_SCHEMA = "graphile_worker";

/** Every task's name (lib/jobs/tasks.ts implements each; the metrics report each one's waiting jobs, zero included). */
export const TASK_NAMES = ["deliver-webhooks", "sweep-events", "refresh-age-groups", "application-mail", "application-digest", "anonymise-applications", "alert-mail", "send-alerts", "expire-alerts", "listing-upload", "listing-daily", "run-import"] as const;
