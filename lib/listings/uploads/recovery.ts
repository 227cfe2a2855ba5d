import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { logger } from "@/lib/log";

// After a crash (issue 48), as lib/imports/recovery.ts does for imports. An
// upload has no lease, but it has a deadline (LISTINGS_UPLOAD_TIMEOUT_SECONDS):
// a live run has recorded its outcome by then. So a `listing-upload` job
// still locked GRACE_SECONDS past the deadline is a dead worker's: it is let
// go (and with it the organisation's queue of long work, which holds its
// imports too), and runs again. An upload still "running" that long after
// it started, with no job left waiting to run it, never will: it is marked
// failed (the next change or the daily upload sends the file again).

/** Beyond the deadline: the run's last writes, and a slow database. */
const GRACE_SECONDS = 60;

const Q = Prisma.raw(QUEUE_SCHEMA);

export async function recoverStalledUploads(): Promise<{ unlocked: number; failed: number }> {
  const past = env().LISTINGS_UPLOAD_TIMEOUT_SECONDS + GRACE_SECONDS;
  const dead = await db().$queryRaw<{ locked_by: string }[]>`
    SELECT DISTINCT j.locked_by FROM ${Q}._private_jobs j JOIN ${Q}._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = 'listing-upload' AND j.locked_at < now() - make_interval(secs => ${past}) AND j.locked_by IS NOT NULL`;
  if (dead.length) await db().$executeRaw`SELECT ${Q}.force_unlock_workers(${dead.map((d) => d.locked_by)}::text[])`;
  const failed = await db().$executeRaw`
    UPDATE listing_uploads u
       SET outcome = 'failed', finished_at = now(),
           error = 'The upload stopped without an outcome (the process running it ended, or its job failed for good). The next change or the daily upload sends the file again.'
     WHERE u.outcome = 'running' AND u.started_at < now() - make_interval(secs => ${past})
       AND NOT EXISTS (SELECT 1 FROM ${Q}._private_jobs j JOIN ${Q}._private_tasks t ON t.id = j.task_id
                        WHERE t.identifier = 'listing-upload' AND j.payload->>'uploadId' = u.id::text AND j.attempts < j.max_attempts)`;
  if (dead.length || failed) logger().warn({ unlocked: dead.length, failed }, "listing uploads left by a stopped run: let go or marked failed");
  return { unlocked: dead.length, failed };
}
