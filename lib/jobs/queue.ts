/** graphile-worker's schema: jobs are added with SQL (`<schema>.add_job`) inside the transaction that calls for them. */
export const QUEUE_SCHEMA = "graphile_worker";
