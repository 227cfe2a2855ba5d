import { query } from "@/lib/db";
import { env } from "@/lib/env";
import { advanceMarkSql, feedBatchSql } from "@/lib/events/feed-reader";
import { Prisma } from "@/lib/generated/prisma/client";
import { uploadJobSql } from "@/lib/listings/uploads/jobs";

// From the change feed to uploads. Like webhook dispatch and alert matching,
// the scheduler reads the events table after a mark of its own ('listings'
// in event_marks), so no write path has to know about listing sites and a
// crash loses nothing: the mark moves in the statement that queues the
// uploads. A change concerns the listing sites when the animal was listed
// before it or is listed after it (available or pending, listOnOtherSites
// not switched off): a new listed animal, one changed, adopted, withdrawn,
// photographed, or taken off the sites. Each enabled site of its
// organisation then gets one upload after LISTINGS_DELAY_SECONDS, shared by
// every change of that quiet period (lib/listings/uploads/jobs.ts).

const BATCH = 500;
/** With no enabled site anywhere, no change concerns one: the feed is passed over unread (docs/decisions/026). */
const NO_ENABLED_SITE = Prisma.sql`NOT EXISTS (SELECT 1 FROM listing_sites WHERE enabled)`;

/** Whether the animal (as an event keeps it, `pet`) is on the listing sites. */
const listed = (pet: Prisma.Sql) => Prisma.sql`((${pet})->>'status' IN ('available', 'pending') AND COALESCE(((${pet})->>'listOnOtherSites')::boolean, true))`;

export interface ScheduleResult {
  busy: boolean;
  events: number;
  /** Events passed over unread, since no listing site was enabled. */
  skipped: number;
  uploads: number;
}

async function scheduleBatch(delaySeconds: number): Promise<ScheduleResult> {
  const [row] = await query<{ locked: boolean; events: number; skipped: number; uploads: number }>(Prisma.sql`
    WITH ${feedBatchSql("listings", Prisma.sql`e.position, e.organization_id, e.data::jsonb AS data`, BATCH, { unless: NO_ENABLED_SITE })}, concerned AS (
      SELECT DISTINCT organization_id FROM batch
       WHERE ${listed(Prisma.sql`data->'pet'`)} OR ${listed(Prisma.sql`(data->'pet') || COALESCE(data->'previous', '{}'::jsonb)`)}
    ), sites AS (
      SELECT s.id FROM listing_sites s JOIN concerned c ON c.organization_id = s.organization_id WHERE s.enabled
    ), queued AS (
      SELECT ${uploadJobSql(Prisma.sql`sites.id`, { reason: "change", delaySeconds, key: "change" })} AS job FROM sites
    ), ${advanceMarkSql("listings", { skipped: true })}
    SELECT (SELECT locked FROM lock) AS locked, (SELECT count(*)::int FROM batch) AS events,
           COALESCE((SELECT passed::int FROM skipped), 0) AS skipped, (SELECT count(*)::int FROM queued) AS uploads`);
  if (!row?.locked) return { busy: true, events: 0, skipped: 0, uploads: 0 };
  return { busy: false, events: row.events, skipped: row.skipped, uploads: row.uploads };
}

/** Queues the uploads every change not yet seen calls for. */
export async function scheduleListingUploads(): Promise<ScheduleResult> {
  const delay = env().LISTINGS_DELAY_SECONDS;
  const total: ScheduleResult = { busy: false, events: 0, skipped: 0, uploads: 0 };
  for (;;) {
    const result = await scheduleBatch(delay);
    total.busy ||= result.busy;
    total.events += result.events;
    total.skipped += result.skipped;
    total.uploads += result.uploads;
    if (result.busy || result.events < BATCH) return total;
  }
}

/** The daily full upload of every enabled site (the crontab's listing-daily, at 03:00 UTC: organisations keep no time zone). */
export async function queueDailyUploads(): Promise<number> {
  const [row] = await query<{ queued: number }>(Prisma.sql`
    SELECT count(${uploadJobSql(Prisma.sql`listing_sites.id`, { reason: "daily", delaySeconds: 0, key: "daily" })})::int AS queued FROM listing_sites WHERE enabled`);
  return row?.queued ?? 0;
}
