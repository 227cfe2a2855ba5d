import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Data access for the change feed. Events are written when a change commits,
// from its audit record (a deferred trigger, migration 20261124000000), with
// their position; rows are read in position order.

export interface EventRow {
  position: bigint;
  type: string;
  /** How readers without the organisation's records see it; null: not at all (lib/visibility/policy.ts). */
  publicType: string | null;
  organizationId: bigint;
  data: Prisma.JsonValue;
  createdAt: Date;
}

export type Mark = "swept" | "dispatched";

/**
 * Up to `take` committed events after `after`, oldest first, that match
 * `seen` (the reader's condition from lib/visibility/policy.ts
 * feedCondition); of these organisations only, when given.
 */
export async function findEventsAfter(after: bigint, take: number, seen: Prisma.Sql, organizationIds?: number[]): Promise<EventRow[]> {
  const organizations = organizationIds ? Prisma.sql`AND organization_id = ANY (${organizationIds.map(BigInt)}::bigint[])` : Prisma.empty;
  return db().$queryRaw<EventRow[]>`
    SELECT position, type, public_type AS "publicType", organization_id AS "organizationId", data, created_at AS "createdAt"
      FROM events
     WHERE position > ${after} AND ${seen} ${organizations}
     ORDER BY position
     LIMIT ${take}`;
}

/** The last position handed out (committed or not): no event id above it exists. */
export async function lastIssuedPosition(): Promise<bigint> {
  const rows = await db().$queryRaw<{ last: bigint | null }[]>`
    SELECT CASE WHEN is_called THEN last_value END AS last FROM events_position_seq`;
  return rows[0]?.last ?? 0n;
}

/** The newest committed position (0 when there is none). */
export async function newestPosition(client: Prisma.TransactionClient = db()): Promise<bigint> {
  const row = await client.event.aggregate({ _max: { position: true } });
  return row._max.position ?? 0n;
}

export async function readMark(name: Mark, client: Prisma.TransactionClient = db()): Promise<bigint> {
  return (await client.eventMark.findUnique({ where: { name }, select: { position: true } }))?.position ?? 0n;
}

/** Moves a mark forward (never back). */
export async function advanceMark(client: Prisma.TransactionClient, name: Mark, position: bigint): Promise<void> {
  await client.$executeRaw`
    INSERT INTO event_marks (name, position) VALUES (${name}, ${position})
    ON CONFLICT (name) DO UPDATE SET position = GREATEST(event_marks.position, EXCLUDED.position)`;
}

/** The newest position committed before `cutoff`: the sweep deletes everything up to it, a prefix of the feed. */
export async function lastPositionBefore(cutoff: Date): Promise<bigint | null> {
  const row = await db().event.aggregate({ _max: { position: true }, where: { createdAt: { lt: cutoff } } });
  return row._max.position;
}

/** Deletes up to `batch` of the oldest events at or below `through` (their deliveries go with them); returns how many. */
export async function deleteEventsThrough(tx: Prisma.TransactionClient, through: bigint, batch: number): Promise<number> {
  return tx.$executeRaw`
    DELETE FROM events WHERE position IN (
      SELECT position FROM events WHERE position <= ${through} ORDER BY position LIMIT ${batch}
    )`;
}
