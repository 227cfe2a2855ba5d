import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { alertAreaHolds, alertFiltersMatch } from "@/lib/alerts/matching";
import { placeOf } from "@/lib/pets/queries/near";
import { animalsCondition, THE_PUBLIC } from "@/lib/visibility/policy";

// Data access for the dashboard: counts, and the intakes and adoptions the
// stays record (issue 42: one source with the monthly report). An intake is
// a stay opened; an adoption is a stay ended with the outcome `adoption`.
// Each figure is one organisation's (`organizationId`), or every one's
// (undefined: a platform admin).

/** "AND <the row's organisation is this one>", or nothing for every organisation. */
function ofOrganization(column: Prisma.Sql, organizationId: number | undefined): Prisma.Sql {
  return organizationId === undefined ? Prisma.empty : Prisma.sql`AND ${column} = ${BigInt(organizationId)}`;
}

export interface StatusCount {
  status: "available" | "pending" | "sold";
  n: number;
}

/** The animals listed (in care: lib/visibility; those that left other than by adoption are not the shelter's to count), by status. */
export async function animalsByStatus(organizationId?: number): Promise<StatusCount[]> {
  return db().$queryRaw<
    StatusCount[]
  >`SELECT status::text AS status, count(*)::int AS n FROM pets WHERE ${animalsCondition(THE_PUBLIC, "listed")} ${ofOrganization(Prisma.sql`organization_id`, organizationId)} GROUP BY status`;
}

export interface ApplicationCounts {
  waiting: number;
  oldest: Date | null;
  approved: number;
}

export async function applicationCounts(organizationId?: number): Promise<ApplicationCounts> {
  const [row] = await db().$queryRaw<ApplicationCounts[]>`
    SELECT count(*) FILTER (WHERE state IN ('received', 'in_review'))::int AS waiting,
           min(created_at) FILTER (WHERE state IN ('received', 'in_review')) AS oldest,
           count(*) FILTER (WHERE state = 'approved')::int AS approved
    FROM adoption_applications
    WHERE state IN ('received', 'in_review', 'approved') ${ofOrganization(Prisma.sql`organization_id`, organizationId)}`;
  return row ?? { waiting: 0, oldest: null, approved: 0 };
}

export interface WeekRow {
  /** Weeks after `from` (0 is the first week). */
  week: number;
  intakes: number;
  adoptions: number;
}

/**
 * The stays' rows with `column` (intake_at or outcome_at) in [from, to): the
 * day columns' indexes narrow it (a shelter's day is within a day of UTC's,
 * so the range padded by a day holds every row; decision 025), the time
 * decides.
 */
function staysAt(column: "intake" | "outcome", from: Date, to: Date, organizationId: number | undefined): Prisma.Sql {
  const at = column === "intake" ? Prisma.sql`s.intake_at` : Prisma.sql`s.outcome_at`;
  const on = column === "intake" ? Prisma.sql`s.intake_on` : Prisma.sql`s.outcome_on`;
  return Prisma.sql`${on} >= (${from}::timestamptz AT TIME ZONE 'UTC')::date - 1 AND ${on} < (${to}::timestamptz AT TIME ZONE 'UTC')::date + 2
    AND ${at} >= ${from}::timestamptz AND ${at} < ${to}::timestamptz ${ofOrganization(Prisma.sql`s.organization_id`, organizationId)}`;
}

/**
 * Intakes (stays opened) and adoptions (stays ended with `adoption`) per
 * week of 7 days from `from` (a Monday, 00:00 UTC) up to `to`: the same
 * records the monthly report counts (issue 42), not the audit trail.
 */
export function flowByWeekSql(from: Date, to: Date, organizationId?: number): Prisma.Sql {
  return Prisma.sql`
    SELECT week, sum(intakes)::int AS intakes, sum(adoptions)::int AS adoptions FROM (
      SELECT floor(extract(epoch FROM (s.intake_at - ${from}::timestamptz)) / 604800)::int AS week, count(*) AS intakes, 0 AS adoptions
        FROM pet_stays s WHERE ${staysAt("intake", from, to, organizationId)} GROUP BY 1
      UNION ALL
      SELECT floor(extract(epoch FROM (s.outcome_at - ${from}::timestamptz)) / 604800)::int, 0, count(*)
        FROM pet_stays s WHERE s.outcome_type = 'adoption' AND ${staysAt("outcome", from, to, organizationId)} GROUP BY 1
    ) w GROUP BY week`;
}

export async function flowByWeek(from: Date, to: Date, organizationId?: number): Promise<WeekRow[]> {
  return db().$queryRaw<WeekRow[]>(flowByWeekSql(from, to, organizationId));
}

export interface AdoptionTimes {
  adoptions: number;
  /** Median of (adoption - intake) in days; null without adoptions. */
  medianDays: number | null;
}

/** The adoptions (stays ended with `adoption`) in [from, to), and the median time from their stay's intake. */
export async function adoptionTimes(from: Date, to: Date, organizationId?: number): Promise<AdoptionTimes> {
  const [row] = await db().$queryRaw<{ adoptions: number; median_days: number | null }[]>`
    SELECT count(*)::int AS adoptions,
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM (s.outcome_at - s.intake_at))) / 86400)::float8 AS median_days
      FROM pet_stays s
     WHERE s.outcome_type = 'adoption' AND ${staysAt("outcome", from, to, organizationId)}`;
  return { adoptions: row?.adoptions ?? 0, medianDays: row?.median_days ?? null };
}

export interface WaitingForRow {
  /** What the dashboard shows of the group's filters (lib/dashboard/schemas.ts waitingForFiltersSchema). */
  filters: unknown;
  category_id: bigint | null;
  people: number;
  available: number;
}

/**
 * What adopters are waiting for: confirmed alerts (active or paused) grouped
 * by what the dashboard may show of them (category, sex, size, age,
 * good-with, and an area's radius: never its place, never the name searched
 * for), groups of at least `minPeople` only, with how many alerts each holds
 * and how many available animals match its shown filters now (where they are, in the area of
 * one of its alerts). An organisation sees the alerts whose area holds its
 * shelter or that have no area, and counts its own animals; a platform admin
 * every alert and every animal. Counts only: no address, place or search
 * text leaves this statement, and the name search moves no figure.
 */
export async function alertsWaitingFor(
  organizationId: number | undefined,
  { take, minPeople, defaultWithin }: { take: number; minPeople: number; defaultWithin: string },
): Promise<WaitingForRow[]> {
  const org = organizationId === undefined ? null : BigInt(organizationId);
  return db().$queryRaw<WaitingForRow[]>(Prisma.sql`
    WITH here AS (
      SELECT earth_point FROM organizations WHERE id = ${org}::bigint
    ), scope AS (
      SELECT a.id, a.near_box, a.near_point, a.within_chord,
             jsonb_strip_nulls(jsonb_build_object(
               'categoryId', a.filters -> 'categoryId', 'sex', a.filters -> 'sex', 'size', a.filters -> 'size',
               'ageGroup', a.filters -> 'ageGroup', 'goodWith', a.filters -> 'goodWith',
               -- An area's radius (the default when none was given), never its place.
               'within', CASE WHEN a.filters ? 'near' THEN COALESCE(a.filters -> 'within', to_jsonb(${defaultWithin}::text)) END)) AS shown
        FROM alerts a
       WHERE a.status <> 'unconfirmed'
         AND (${org}::bigint IS NULL OR ${alertAreaHolds("a", Prisma.sql`(SELECT earth_point FROM here)`)})
    ), groups AS (
      SELECT shown, count(*)::int AS people, min(id) AS sample FROM scope
       GROUP BY shown HAVING count(*) >= ${minPeople}
       ORDER BY count(*) DESC, shown::text LIMIT ${take}
    )
    SELECT g.shown AS filters, a.category_id, g.people,
           (SELECT count(*)::int FROM pets p JOIN organizations o ON o.id = p.organization_id
             WHERE p.status = 'available' AND ${animalsCondition(THE_PUBLIC, "listed", "p")} AND (${org}::bigint IS NULL OR p.organization_id = ${org}::bigint)
               -- The group's alerts share these columns, so its first stands for all; no name search.
               AND ${alertFiltersMatch("a", "p", { search: false })}
               AND EXISTS (SELECT 1 FROM scope s WHERE s.shown = g.shown AND ${alertAreaHolds("s", placeOf("p", "o"))})) AS available
      FROM groups g JOIN alerts a ON a.id = g.sample
     ORDER BY g.people DESC, g.shown::text`);
}
