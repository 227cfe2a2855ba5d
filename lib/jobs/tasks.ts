import type { Prisma } from "@/lib/generated/prisma/client";
import type { TaskList } from "graphile-worker";
import { sweepEvents } from "@/lib/events/service";
import { attemptDelivery } from "@/lib/webhooks/delivery";
import type { Enqueue } from "@/lib/webhooks/dispatch";

// Every background job, registered in this one list, and the schedule of the
// periodic ones. They run on graphile-worker (docs/decisions/006), started by
// lib/jobs/runner.ts in every app instance. A job is idempotent: it may run
// twice after a crash (the delivery's lease makes the second a no-op, and
// receivers dedupe on webhook-id).

export const QUEUE_SCHEMA = "graphile_worker";

export interface TaskContext {
  /** This process's application_name: who holds a delivery's lease. */
  owner: string;
  /** Aborted when the process stops: in-flight attempts are handed back. */
  signal: AbortSignal;
}

export function taskList(context: TaskContext): TaskList {
  return {
    // One attempt of one webhook delivery (its schedule lives in webhook_deliveries).
    "deliver-webhook": async (payload) => {
      const { deliveryId } = payload as { deliveryId: string };
      await attemptDelivery(BigInt(deliveryId), context);
    },
    // Events (and their deliveries) older than 30 days.
    "sweep-events": async () => {
      await sweepEvents(new Date());
    },
  };
}

/** Hourly; graphile-worker runs each slot once across all instances. */
export const CRONTAB = "17 * * * * sweep-events";

/**
 * Queues a wake-up job per delivery, in the caller's transaction when it has
 * one (dispatch: the deliveries and their jobs commit together). The job key
 * merges a second queuing of the same delivery into one job.
 */
export const enqueueDeliveries: Enqueue = async (client: Prisma.TransactionClient, ids: bigint[]) => {
  await client.$queryRawUnsafe(
    `SELECT count(*)::int AS n FROM (
       SELECT ${QUEUE_SCHEMA}.add_job('deliver-webhook', json_build_object('deliveryId', id::text),
                                      job_key := 'webhook-delivery:' || id::text, max_attempts := 5)
         FROM unnest($1::bigint[]) AS id) AS queued`,
    ids,
  );
};
