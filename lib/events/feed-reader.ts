import { Prisma } from "@/lib/generated/prisma/client";

// The change feed's readers (webhook dispatch, alert matching, the listing
// sites' schedule) each read it in one statement: take the reader's lock or
// give up, read the events after its mark, act on them, move the mark. These
// are that statement's common parts, so the three read the feed the same
// way (docs/decisions/005: positions are given in commit order, so reading
// after the mark never skips an event that commits later).

/** The feed's readers, each with its mark in event_marks and its advisory lock (7411, n); (7411, 1) is the feed's commit-order lock. */
export const FEED_READERS = {
  dispatched: { lock: 2 },
  matched: { lock: 3 },
  listings: { lock: 35 },
} as const;
export type FeedReader = keyof typeof FEED_READERS;

/**
 * `lock`, `mark` and `batch`: the first CTEs of a reader's statement (after
 * WITH). `batch` holds up to `limit` events after the mark, oldest first,
 * with the given columns of `events e`; it is empty when another process
 * holds the lock (then `lock.locked` is false). `relaxedCommit`: the
 * statement's commit does not wait for the disk, for readers whose work a
 * crash may forget together with the mark (the feed still has the events,
 * and the next run does it again). `unless`: a condition on nothing but
 * other tables under which the reader has nothing to do (no active alert,
 * no enabled listing site); then the batch is empty without reading an
 * event (PostgreSQL tests it once, before the scan), and `skipped` holds the
 * feed's last position and how many positions lie between it and the mark
 * (`passed`): advanceMarkSql(reader, { skipped: true }) moves the mark
 * there. Every position below the last one visible is settled (positions
 * are given in commit order), so nothing that commits later is passed over.
 *
 * The mark is read FOR UPDATE, which in READ COMMITTED gives its latest
 * committed value rather than the statement's snapshot's: a statement that
 * began while another reader's was running, and took the lock just after
 * that one committed, would otherwise read the same events again from the
 * mark its snapshot holds. (The readers' inserts tolerate a second reading,
 * but it is work done twice.) Each reader's mark row exists from its
 * migration on, so there is always a row to lock.
 */
export function feedBatchSql(
  reader: FeedReader,
  columns: Prisma.Sql,
  limit: number,
  { relaxedCommit = false, unless }: { relaxedCommit?: boolean; unless?: Prisma.Sql } = {},
): Prisma.Sql {
  const lock = Prisma.raw(String(FEED_READERS[reader].lock));
  const commitMode = relaxedCommit ? Prisma.sql`, set_config('synchronous_commit', 'off', true) AS commit_mode` : Prisma.empty;
  return Prisma.sql`lock AS (
      SELECT pg_try_advisory_xact_lock(7411, ${lock}) AS locked${commitMode}
    ), mark AS (
      SELECT COALESCE((SELECT position FROM event_marks WHERE name = ${Prisma.raw(`'${reader}'`)} FOR UPDATE), 0) AS position FROM lock WHERE locked
    ), batch AS (
      SELECT ${columns} FROM events e, mark WHERE e.position > mark.position ${unless ? Prisma.sql`AND NOT (${unless})` : Prisma.empty} ORDER BY e.position LIMIT ${limit}
    )${
      unless
        ? Prisma.sql`, skipped AS (
      SELECT e.position, e.position - mark.position AS passed
        FROM mark, LATERAL (SELECT position FROM events ORDER BY position DESC LIMIT 1) e
       WHERE (${unless}) AND e.position > mark.position
    )`
        : Prisma.empty
    }`;
}

/**
 * `advanced`: the CTE that moves the reader's mark to the end of `batch` (never back), or to
 * `skipped`'s position (`skipped: true`, for a batch read with `unless`).
 */
export function advanceMarkSql(reader: FeedReader, { skipped = false } = {}): Prisma.Sql {
  const positions = skipped ? Prisma.sql`(SELECT position FROM batch UNION ALL SELECT position FROM skipped) p` : Prisma.sql`batch`;
  return Prisma.sql`advanced AS (
      INSERT INTO event_marks (name, position)
      SELECT ${Prisma.raw(`'${reader}'`)}, max(position) FROM ${positions} HAVING count(*) > 0
      ON CONFLICT (name) DO UPDATE SET position = GREATEST(event_marks.position, EXCLUDED.position)
    )`;
}
