import { query } from "@/lib/db";
import { advanceMarkSql, feedBatchSql } from "@/lib/events/feed-reader";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { isoDay } from "@/lib/pets/age";
import { placeOf } from "@/lib/pets/queries/near";
import { animalsCondition, THE_PUBLIC } from "@/lib/visibility/policy";

// From the change feed to alert matches, as webhook dispatch goes from the
// feed to deliveries (lib/webhooks/dispatch.ts): one statement reads the
// events after the matcher's mark ('matched' in event_marks), finds every
// active alert each arriving animal matches, inserts the matches and moves
// the mark, in one transaction under an advisory lock, so several instances
// match each event exactly once. Nothing of this runs in a request: the
// background work of every instance asks for it after a commit that
// announces events and once a second, at most once a second (lib/worker/runner.ts).
//
// An animal "arrives" when it is created available, or becomes available
// again (its event's `previous` holds another status). It is matched as it
// is when the matcher runs (an animal adopted meanwhile matches nothing), on
// the day it runs (its age group).
//
// The alerts are found by their indexes, never by a loop over them: those
// with an area by the GiST index on their box (the animal's point inside
// the box, then the exact radius), those without by their category's btree
// index (the animal's category, or none). Everything else is a filter on
// those few rows. docs/decisions/014-alerts.md has the figures.
//
// A run costs what there is to match, not what the traffic is (issue 51,
// docs/decisions/026): with no active alert anywhere, nothing can match, so
// the statement reads no event and only moves the mark to the feed's end
// (events are announced in commit order, so every position below the last
// visible one is settled); and a run reads at most MAX_BATCHES_PER_RUN
// batches, saying when more wait, so the runner asks again after its gap
// instead of one run chasing a busy feed for as long as writes keep coming.

const BATCH = 200;
/** Batches one run reads at most (BATCH events each); `more` says the rest wait for the next run. */
export const MAX_BATCHES_PER_RUN = 5;
/** True when no alert is active: then no event can match, whatever it is. */
const NO_ACTIVE_ALERT = Prisma.sql`NOT EXISTS (SELECT 1 FROM alerts WHERE status = 'active')`;

/**
 * The conditions on an alert `a` for an animal `p` (pets_now's columns); the
 * same whoever asks (matcher, dashboard). `search: false` leaves the name
 * search out: the dashboard never shows it, nor lets it move a figure.
 */
export function alertFiltersMatch(a: string, p: string, { search = true }: { search?: boolean } = {}): Prisma.Sql {
  const A = Prisma.raw(a);
  const P = Prisma.raw(p);
  return Prisma.sql`(${A}.category_id IS NULL OR ${A}.category_id = ${P}.category_id)
    AND (${A}.sex IS NULL OR ${A}.sex = ${P}.sex)
    AND (${A}.size IS NULL OR ${A}.size = ${P}.size)
    AND (${A}.age_group IS NULL OR ${A}.age_group = ${P}.age_group)
    AND (${A}.good_with_mask & ~${P}.good_with_mask) = 0
    ${search ? Prisma.sql`AND (${A}.search_pattern IS NULL OR ${P}.search_name LIKE ${A}.search_pattern ESCAPE '\\')` : Prisma.empty}`;
}

/** Alerts `a` whose area holds the point `point` (an SQL expression: an animal's place, or a shelter's), or that have no area. */
export function alertAreaHolds(a: string, point: Prisma.Sql): Prisma.Sql {
  const A = Prisma.raw(a);
  return Prisma.sql`(${A}.near_box IS NULL OR (${point} IS NOT NULL AND ${A}.near_box @> ${point} AND ${A}.near_point <-> ${point} <= ${A}.within_chord))`;
}

/**
 * The animals `arrivals` (a CTE of pet_id, arrived_at) names, as the
 * matcher compares them: available now, with the point where they are (their
 * foster home's or their shelter's: the near search's rule, placeOf) and
 * age group on `today`.
 */
function petsNowSql(today: string): Prisma.Sql {
  return Prisma.sql`SELECT p.id, p.category_id, p.sex, p.size, pet_age_group(p.birth_date, ${today}::date) AS age_group,
           COALESCE(p.good_with_mask, 0)::smallint AS good_with_mask, p.search_name, ${placeOf("p", "o")} AS earth_point, r.arrived_at
      FROM arrivals r JOIN pets p ON p.id = r.pet_id AND p.status = 'available' AND ${animalsCondition(THE_PUBLIC, "listed", "p")} JOIN organizations o ON o.id = p.organization_id`;
}

/**
 * For each animal of pets_now, its alerts: two index walks (with an area,
 * without), each a handful of rows. Only alerts confirmed before the animal
 * arrived: one confirmed later hears from the next arrival on.
 */
function matchesSql(): Prisma.Sql {
  return Prisma.sql`SELECT m.alert_id, p.id AS pet_id
      FROM pets_now p
      CROSS JOIN LATERAL (
        SELECT a.id AS alert_id FROM alerts a
         WHERE a.status = 'active' AND a.near_box IS NOT NULL AND p.earth_point IS NOT NULL
           AND a.near_box @> p.earth_point AND a.near_point <-> p.earth_point <= a.within_chord
           AND a.confirmed_at <= p.arrived_at AND ${alertFiltersMatch("a", "p")}
        UNION ALL
        SELECT a.id FROM alerts a
         WHERE a.status = 'active' AND a.near_box IS NULL AND (a.category_id = p.category_id OR a.category_id IS NULL)
           AND a.confirmed_at <= p.arrived_at AND ${alertFiltersMatch("a", "p")}
      ) m`;
}

/** The events of a batch that are arrivals: created available, or available again. */
const ARRIVAL = Prisma.sql`b.data -> 'pet' ->> 'status' = 'available'
  AND (b.type = 'pet.created' OR (b.data -> 'previous' -> 'status' IS NOT NULL AND b.data -> 'previous' ->> 'status' <> 'available'))`;

export interface MatchResult {
  /** Another process holds the matcher's lock (it will see the same events). */
  busy: boolean;
  /** Events read and matched. */
  events: number;
  /** Events passed over unread, since no alert was active. */
  skipped: number;
  matches: number;
  /** The run stopped at MAX_BATCHES_PER_RUN with events still waiting. */
  more: boolean;
}

/**
 * The one statement: lock, read after the mark, match, insert, move the
 * mark, and (when anything matched) queue the sender at once, so that an
 * "as they arrive" alert's first email goes within seconds rather than at
 * the next minute's run. A match already waiting stays as it is; one sent
 * before (the animal left and came back) waits again.
 */
function matchBatchSql(now: Date): Prisma.Sql {
  return Prisma.sql`
    WITH ${
      // As dispatch's: the commit need not wait for the disk (a crash forgets matches and mark together; the feed still has the events).
      // With no active alert the batch is empty (a one-time filter: no event is read) and the mark moves to the last position instead.
      feedBatchSql("matched", Prisma.sql`e.position, e.type, e.pet_id, e.data, e.created_at`, BATCH, { relaxedCommit: true, unless: NO_ACTIVE_ALERT })
    }, arrivals AS (
      SELECT b.pet_id, min(b.created_at) AS arrived_at FROM batch b WHERE ${ARRIVAL} GROUP BY b.pet_id
    ), pets_now AS (
      ${petsNowSql(isoDay(now))}
    ), found AS (
      ${matchesSql()}
    ), created AS (
      INSERT INTO alert_matches (alert_id, pet_id, queued_at)
      SELECT alert_id, pet_id, ${now} FROM found
      ON CONFLICT (alert_id, pet_id) DO UPDATE SET queued_at = EXCLUDED.queued_at, sent_at = NULL WHERE alert_matches.sent_at IS NOT NULL
      RETURNING alert_id
    ), ${advanceMarkSql("matched", { skipped: true })}
    SELECT (SELECT locked FROM lock) AS locked,
           (SELECT count(*)::int FROM batch) AS events,
           COALESCE((SELECT passed::int FROM skipped), 0) AS skipped,
           (SELECT count(*)::int FROM created) AS matches,
           (SELECT count(${Prisma.raw(QUEUE_SCHEMA)}.add_job('send-alerts', '{}'::json, job_key := 'send-alerts', max_attempts := 3))
              FROM (SELECT 1 FROM created LIMIT 1) AS any_match) AS queued`;
}

async function matchBatch(now: Date): Promise<Omit<MatchResult, "more">> {
  const [row] = await query<{ locked: boolean; events: number; skipped: number; matches: number }>(matchBatchSql(now));
  if (!row?.locked) return { busy: true, events: 0, skipped: 0, matches: 0 };
  return { busy: false, events: row.events, skipped: row.skipped, matches: row.matches };
}

/** Matches the events not yet matched, in batches, MAX_BATCHES_PER_RUN at most (`more` when some wait). */
export async function matchAlerts(now = new Date()): Promise<MatchResult> {
  const total: MatchResult = { busy: false, events: 0, skipped: 0, matches: 0, more: false };
  for (let batches = 1; ; batches++) {
    const result = await matchBatch(now);
    total.busy ||= result.busy;
    total.events += result.events;
    total.skipped += result.skipped;
    total.matches += result.matches;
    if (result.busy || result.events < BATCH) return total;
    if (batches >= MAX_BATCHES_PER_RUN) return { ...total, more: true };
  }
}

/** The matching part alone for one animal, as the bench times it (and EXPLAIN reads it): the alerts it matches now. */
export function matchOnePetSql(petId: number, now: Date): Prisma.Sql {
  return Prisma.sql`WITH arrivals AS (SELECT ${BigInt(petId)}::bigint AS pet_id, ${now}::timestamptz AS arrived_at),
    pets_now AS (${petsNowSql(isoDay(now))})
    ${matchesSql()}`;
}
