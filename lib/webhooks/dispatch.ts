import { query } from "@/lib/db";
import { advanceMarkSql, feedBatchSql } from "@/lib/events/feed-reader";
import { Prisma } from "@/lib/generated/prisma/client";
import { deliveryJobsSql } from "@/lib/jobs/queue";
import * as queries from "@/lib/webhooks/queries";
import { deliveredTypeSql } from "@/lib/visibility/policy";

// From the feed to deliveries. Events are drained from the events table
// rather than enqueued by the write path, so a change costs its writer one
// row whether or not anyone listens, and a process that dies between a
// commit and its delivery loses nothing: the event is in the table, and
// the dispatch mark only moves in the transaction that creates the
// deliveries for it (and queues their jobs). One dispatcher at a time
// (a transaction-level advisory lock); the others skip and come back.

const BATCH = 200;

export interface DispatchResult {
  /** Another process holds the dispatcher's lock (it will see the same events). */
  busy: boolean;
  events: number;
  deliveries: number;
  /** Whether any endpoint is enabled: with none, nothing is waiting for the next event. */
  listening: boolean;
}

async function dispatchBatch(): Promise<DispatchResult> {
  // One statement, so one round trip and its own transaction: take the
  // dispatcher's lock (or give up), read from the mark, create the
  // deliveries and queue their jobs, move the mark. Positions are given in
  // commit order (docs/decisions/005), so reading after the mark can never
  // skip an event that commits later, and the mark is read as last
  // committed, not as this statement's snapshot had it (feed-reader.ts);
  // a delivery already made is still never made twice. It
  // runs after every commit that announces events (a few milliseconds apart
  // at most, per instance): an interactive transaction here cost each
  // create a noticeable share of its CPU. Its commit does not wait for the
  // disk: a crash can forget the last dispatch, deliveries, jobs and mark
  // together, and the next dispatch makes them again (the feed still has
  // the events).
  const [row] = await query<{ locked: boolean; events: number; deliveries: number; listening: boolean }>(Prisma.sql`
    WITH ${feedBatchSql("dispatched", Prisma.sql`e.position, e.type, e.public_type, e.organization_id`, BATCH, { relaxedCommit: true })}, created AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_position, event_type, next_attempt_at, enqueued_at)
      SELECT w.id, b.position, s.type, now(), now()
        FROM batch b
        JOIN webhook_endpoints w ON w.enabled AND b.position > w.start_after
        -- An organisation's key hears its own organisation's events; a platform key every one's.
        JOIN api_keys k ON k.id = w.api_key_id AND k.revoked_at IS NULL
                       AND (k.organization_id IS NULL OR k.organization_id = b.organization_id)
        -- What the key is sent of the event: the policy's (lib/visibility), decided again at delivery.
       CROSS JOIN LATERAL (SELECT ${deliveredTypeSql("k", "b")} AS type) s
       WHERE s.type = ANY (w.events)
       ORDER BY b.position, w.id
      ON CONFLICT (event_position, endpoint_id) DO NOTHING
      RETURNING id
    ), ${advanceMarkSql("dispatched")}
    SELECT (SELECT locked FROM lock) AS locked,
           (SELECT count(*)::int FROM batch) AS events,
           (SELECT count(*)::int FROM created) AS deliveries,
           EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) AS listening,
           ${deliveryJobsSql(Prisma.sql`(SELECT array_agg(id) FROM created)`)} AS jobs`);
  if (!row?.locked) return { busy: true, events: 0, deliveries: 0, listening: row?.listening ?? true };
  return { busy: false, events: row.events, deliveries: row.deliveries, listening: row.listening };
}

/** Dispatches every event not yet dispatched, in batches. */
export async function dispatchEvents(): Promise<DispatchResult> {
  const total: DispatchResult = { busy: false, events: 0, deliveries: 0, listening: false };
  for (;;) {
    const result = await dispatchBatch();
    total.busy ||= result.busy;
    total.events += result.events;
    total.deliveries += result.deliveries;
    total.listening = result.listening;
    if (result.busy || result.events < BATCH) return total;
  }
}

/**
 * Due deliveries without a job: a retry whose time has come, one handed
 * back at shutdown, one whose worker died mid-attempt (its lease expired or
 * its process is gone), or one whose job was lost. Marked and queued in one
 * statement, so two instances do not both queue it. A job for a delivery
 * that is not due or is held does nothing, so one too many is harmless.
 */
export async function requeueDueDeliveries(): Promise<number> {
  const [row] = await query<{ marked: number }>(Prisma.sql`
    WITH marked AS (${queries.markDueDeliveriesQueuedSql(500)})
    SELECT (SELECT count(*)::int FROM marked) AS marked, ${deliveryJobsSql(Prisma.sql`(SELECT array_agg(id) FROM marked)`)} AS jobs`);
  return row?.marked ?? 0;
}
