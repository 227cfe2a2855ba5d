import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { alertAreaHolds, alertFiltersMatch } from "@/lib/alerts/matching";

// Data access for the dashboard: counts, and the intakes and adoptions the
// audit trail records. An intake is an animal's creation; an adoption is an
// update whose record says the status changed (its "before" holds the old
// status) to `sold`. The same condition as the partial index
// pet_audit_flow_idx (migration 20261125120000), written the same way so that
// the planner uses it: a week's rows come from the index, not from a scan of
// the whole trail. Each figure is one organisation's (`organizationId`), or
// every one's (undefined: a platform admin); the trail's records are matched
// to their animal's organisation (animals never move).

/** "AND <the row's organisation is this one>", or nothing for every organisation. */
function ofOrganization(column: Prisma.Sql, organizationId: number | undefined): Prisma.Sql {
  return organizationId === undefined ? Prisma.empty : Prisma.sql`AND ${column} = ${BigInt(organizationId)}`;
}

/** The same for the audit trail, whose records name only their animal. */
function auditOfOrganization(alias: Prisma.Sql, organizationId: number | undefined): Prisma.Sql {
  return organizationId === undefined
    ? Prisma.empty
    : Prisma.sql`AND EXISTS (SELECT 1 FROM pets p WHERE p.id = ${alias}.pet_id AND p.organization_id = ${BigInt(organizationId)})`;
}

export interface StatusCount {
  status: "available" | "pending" | "sold";
  n: number;
}

/** The animals in care (lib/stays: those that left other than by adoption are not the shelter's to count), by status. */
export async function animalsByStatus(organizationId?: number): Promise<StatusCount[]> {
  return db().$queryRaw<StatusCount[]>`SELECT status::text AS status, count(*)::int AS n FROM pets WHERE in_care ${ofOrganization(Prisma.sql`organization_id`, organizationId)} GROUP BY status`;
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

/** Intakes and adoptions per week of 7 days from `from` (a Monday, 00:00 UTC) up to `to`. */
export async function flowByWeek(from: Date, to: Date, organizationId?: number): Promise<WeekRow[]> {
  return db().$queryRaw<WeekRow[]>`
    SELECT floor(extract(epoch FROM (created_at - ${from}::timestamptz)) / 604800)::int AS week,
           count(*) FILTER (WHERE action = 'created')::int AS intakes,
           count(*) FILTER (WHERE action = 'updated')::int AS adoptions
    FROM pet_audit a
    WHERE (action = 'created' OR (action = 'updated' AND after ->> 'status' = 'sold' AND before ? 'status'))
      AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz
      ${auditOfOrganization(Prisma.sql`a`, organizationId)}
    GROUP BY 1`;
}

export interface AdoptionTimes {
  adoptions: number;
  /** Median of (adoption - intake) in days; null without adoptions. */
  medianDays: number | null;
}

/** The adoptions since `from`, and the median time from each animal's intake (its creation record) to it. */
export async function adoptionTimes(from: Date, to: Date, organizationId?: number): Promise<AdoptionTimes> {
  const [row] = await db().$queryRaw<{ adoptions: number; median_days: number | null }[]>`
    SELECT count(*)::int AS adoptions,
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM (s.created_at - c.created_at))) / 86400)::float8 AS median_days
    FROM pet_audit s
    CROSS JOIN LATERAL (
      SELECT created_at FROM pet_audit c WHERE c.pet_id = s.pet_id AND c.action = 'created' ORDER BY c.id LIMIT 1
    ) c
    WHERE (s.action = 'created' OR (s.action = 'updated' AND s.after ->> 'status' = 'sold' AND s.before ? 'status'))
      AND s.action = 'updated'
      AND s.created_at >= ${from}::timestamptz AND s.created_at < ${to}::timestamptz
      ${auditOfOrganization(Prisma.sql`s`, organizationId)}`;
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
 * and how many available animals match its shown filters now (in the area of
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
             WHERE p.status = 'available' AND p.in_care AND (${org}::bigint IS NULL OR p.organization_id = ${org}::bigint)
               -- The group's alerts share these columns, so its first stands for all; no name search.
               AND ${alertFiltersMatch("a", "p", { search: false })}
               AND EXISTS (SELECT 1 FROM scope s WHERE s.shown = g.shown AND ${alertAreaHolds("s", Prisma.sql`o.earth_point`)})) AS available
      FROM groups g JOIN alerts a ON a.id = g.sample
     ORDER BY g.people DESC, g.shown::text`);
}
