import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Data access for the monthly report: statements over pet_stays alone, each
// one organisation's (`organizationId`) or the whole network's (undefined).
// Every day here is a shelter's own day (intake_on / outcome_on, set by the
// trigger of migration 20261203000000 in the organisation's time zone), so a
// month is a range of those days and nothing is converted at read time; a
// stay's species and ages on those days are on the stay too (species,
// intake_age, outcome_age: the triggers of migration 20261203300000 keep them
// as the animal's category and birth date say). Why: docs/decisions/025.

const ofOrganization = (organizationId: number | undefined) =>
  organizationId === undefined ? Prisma.empty : Prisma.sql`AND s.organization_id = ${BigInt(organizationId)}`;

export interface FlowRow {
  month: string;
  species: "dog" | "cat" | "other";
  /** intakeDetail / outcomeDetail: the matrix's 2021 details (type: the detail), counted apart from, and inside, their type's row. */
  kind: "intake" | "outcome" | "intakeDetail" | "outcomeDetail";
  /** Null on the outcomes' per-species rows that carry the median length of stay. */
  type: string | null;
  age: "adult" | "juvenile" | "unknownAge" | null;
  n: number;
  /** Median of (outcome day − intake day) over the month's outcomes of the species; only on those rows. */
  median_days: number | null;
}

/**
 * Intakes and outcomes with their day in [from, to) (days written YYYY-MM-DD),
 * counted by month, species, type and age, and for outcomes also by month and
 * species alone with the median length of stay (grouping sets: one pass).
 */
export function flowsSql(from: string, to: string, organizationId: number | undefined): Prisma.Sql {
  return Prisma.sql`
    SELECT to_char(s.intake_on, 'YYYY-MM') AS month, s.species, 'intake' AS kind, s.intake_type::text AS type, s.intake_age AS age,
           count(*)::int AS n, NULL::float8 AS median_days
      FROM pet_stays s
     WHERE s.intake_on >= ${from}::date AND s.intake_on < ${to}::date ${ofOrganization(organizationId)}
     GROUP BY 1, 2, 4, 5
    UNION ALL
    SELECT to_char(s.outcome_on, 'YYYY-MM') AS month, s.species, 'outcome' AS kind, s.outcome_type::text AS type, s.outcome_age AS age,
           count(*)::int AS n,
           CASE WHEN GROUPING(s.outcome_type) = 1 THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY s.outcome_on - s.intake_on) END::float8 AS median_days
      FROM pet_stays s
     WHERE s.outcome_on >= ${from}::date AND s.outcome_on < ${to}::date ${ofOrganization(organizationId)}
     GROUP BY GROUPING SETS ((to_char(s.outcome_on, 'YYYY-MM'), s.species, s.outcome_type, s.outcome_age), (to_char(s.outcome_on, 'YYYY-MM'), s.species))
    UNION ALL
    -- The 2021 details (issue 50), from their partial indexes (migration 20261211300100): few stays have one.
    SELECT to_char(s.intake_on, 'YYYY-MM'), s.species, 'intakeDetail', s.intake_type::text || '.' || s.intake_detail, s.intake_age, count(*)::int, NULL::float8
      FROM pet_stays s
     WHERE s.intake_detail IS NOT NULL AND s.intake_on >= ${from}::date AND s.intake_on < ${to}::date ${ofOrganization(organizationId)}
     GROUP BY 1, 2, 4, 5
    UNION ALL
    SELECT to_char(s.outcome_on, 'YYYY-MM'), s.species, 'outcomeDetail', s.outcome_type::text || '.' || s.outcome_detail, s.outcome_age, count(*)::int, NULL::float8
      FROM pet_stays s
     WHERE s.outcome_detail IS NOT NULL AND s.outcome_on >= ${from}::date AND s.outcome_on < ${to}::date ${ofOrganization(organizationId)}
     GROUP BY 1, 2, 4, 5`;
}

export async function flows(from: string, to: string, organizationId: number | undefined): Promise<FlowRow[]> {
  return withoutJit<FlowRow>(flowsSql(from, to, organizationId));
}

export interface OpenRow {
  /** The first day of the month (YYYY-MM-DD). */
  day: string;
  species: "dog" | "cat" | "other";
  n: number;
}

/**
 * The animals in care when each month from `from` to `to` (first days,
 * both included) began: stays that began on an earlier day and had not ended
 * before it, intake_on < day <= outcome_on (or no outcome), i.e. the day is
 * in the range (intake_on, outcome_on]: one probe of the GiST index
 * pet_stays_open_on_idx per month.
 */
export function openAtSql(from: string, to: string, organizationId: number | undefined): Prisma.Sql {
  return Prisma.sql`
    SELECT to_char(m.day, 'YYYY-MM-DD') AS day, s.species, count(*)::int AS n
      FROM generate_series(${from}::date, ${to}::date, interval '1 month') AS m(day)
      JOIN pet_stays s ON daterange(s.intake_on, s.outcome_on, '(]') @> m.day::date ${ofOrganization(organizationId)}
     GROUP BY 1, 2`;
}

export async function openAt(from: string, to: string, organizationId: number | undefined): Promise<OpenRow[]> {
  return withoutJit<OpenRow>(openAtSql(from, to, organizationId));
}

/**
 * Of the animals openAtSql counts on each first day, those in a foster home
 * then (issue 50, docs/decisions/028), by the same rule: a placement whose
 * days (start_on, end_on], in the organisation's zone as the stays' are,
 * hold the day, and whose stay holds it too (a placement lies inside its
 * stay, so the second test only guards days written under another zone).
 * One probe of pet_placements_on_idx per month, then each placement's stay
 * by its key: placements are far fewer than stays. The stay is looked up in
 * a LATERAL subquery with LIMIT 1 so that it stays a look-up by key: as a
 * plain join the planner, which takes generate_series for 1,000 rows, chose
 * to hash all five million stays (a network month 2.5 s, against 0.2-0.3 s
 * this way). The look-ups go in the stays' key order, so that they walk the
 * index and the table forwards: a network year's 140,000 of them took
 * 0.6 s so, 1.1-2.2 s in the index's order (docs/decisions/028, "Speed").
 */
export function fosteredAtSql(from: string, to: string, organizationId: number | undefined): Prisma.Sql {
  const ofPlacement = organizationId === undefined ? Prisma.empty : Prisma.sql`AND p.organization_id = ${BigInt(organizationId)}`;
  return Prisma.sql`
    SELECT to_char(o.day, 'YYYY-MM-DD') AS day, s.species, count(*)::int AS n
      FROM (SELECT m.day, p.stay_id
              FROM generate_series(${from}::date, ${to}::date, interval '1 month') AS m(day)
              JOIN pet_placements p ON daterange(p.start_on, p.end_on, '(]') @> m.day::date ${ofPlacement}
             ORDER BY p.stay_id) o
     CROSS JOIN LATERAL (SELECT s.species FROM pet_stays s
                          WHERE s.id = o.stay_id AND daterange(s.intake_on, s.outcome_on, '(]') @> o.day::date LIMIT 1) s
     GROUP BY 1, 2`;
}

export async function fosteredAt(from: string, to: string, organizationId: number | undefined): Promise<OpenRow[]> {
  return withoutJit<OpenRow>(fosteredAtSql(from, to, organizationId));
}

/**
 * One statement with PostgreSQL's JIT compilation and parallel workers off.
 * Over millions of stays the planner's cost estimates pass the JIT
 * thresholds, and compiling took longer than the statement (2.6 s of a
 * network month's 7.3 s, profiled); these statements are sums over
 * index-only scans of at most a few hundred thousand entries, which neither
 * JIT nor starting workers (on a busy server: waiting for them) speeds up.
 */
async function withoutJit<T>(sql: Prisma.Sql): Promise<T[]> {
  const [, , rows] = await db().$transaction([
    db().$executeRawUnsafe("SET LOCAL jit = off"),
    db().$executeRawUnsafe("SET LOCAL max_parallel_workers_per_gather = 0"),
    db().$queryRaw<T[]>(sql),
  ]);
  return rows;
}
