import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Data access for the monthly report: three statements over pet_stays, each
// one organisation's (`organizationId`) or the whole network's (undefined).
// Every day here is a shelter's own day (intake_on / outcome_on, set by the
// trigger of migration 20261203000000 in the organisation's time zone), so a
// month is a range of those days and nothing is converted at read time.
// Indexes: docs/decisions/025 and migration 20261203300000.

/** The Dogs category is `dog`, Cats is `cat`, any other is `other` (by the category's name: they are the seed's, never renamed). */
const SPECIES = Prisma.sql`CASE c.name WHEN 'Dogs' THEN 'dog' WHEN 'Cats' THEN 'cat' ELSE 'other' END`;

/**
 * The animal's age on `day`: juvenile when the day is earlier than five
 * calendar months after the birth date (PostgreSQL's month arithmetic: from
 * 31 January, five months is 30 June), adult otherwise, unknownAge without a
 * birth date.
 */
const ageOn = (day: Prisma.Sql) =>
  Prisma.sql`CASE WHEN p.birth_date IS NULL THEN 'unknownAge' WHEN ${day} < (p.birth_date + interval '5 months')::date THEN 'juvenile' ELSE 'adult' END`;

const ofOrganization = (organizationId: number | undefined) =>
  organizationId === undefined ? Prisma.empty : Prisma.sql`AND s.organization_id = ${BigInt(organizationId)}`;

export interface FlowRow {
  month: string;
  species: "dog" | "cat" | "other";
  kind: "intake" | "outcome";
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
    SELECT to_char(s.intake_on, 'YYYY-MM') AS month, ${SPECIES} AS species, 'intake' AS kind, s.intake_type::text AS type,
           ${ageOn(Prisma.sql`s.intake_on`)} AS age, count(*)::int AS n, NULL::float8 AS median_days
      FROM pet_stays s JOIN pets p ON p.id = s.pet_id LEFT JOIN categories c ON c.id = p.category_id
     WHERE s.intake_on >= ${from}::date AND s.intake_on < ${to}::date ${ofOrganization(organizationId)}
     GROUP BY 1, 2, 4, 5
    UNION ALL
    SELECT o.month, o.species, 'outcome' AS kind, o.type, o.age, count(*)::int AS n,
           CASE WHEN GROUPING(o.type) = 1 THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY o.days) END::float8 AS median_days
      FROM (SELECT to_char(s.outcome_on, 'YYYY-MM') AS month, ${SPECIES} AS species, s.outcome_type::text AS type,
                   ${ageOn(Prisma.sql`s.outcome_on`)} AS age, s.outcome_on - s.intake_on AS days
              FROM pet_stays s JOIN pets p ON p.id = s.pet_id LEFT JOIN categories c ON c.id = p.category_id
             WHERE s.outcome_on >= ${from}::date AND s.outcome_on < ${to}::date ${ofOrganization(organizationId)}) o
     GROUP BY GROUPING SETS ((o.month, o.species, o.type, o.age), (o.month, o.species))`;
}

export async function flows(from: string, to: string, organizationId: number | undefined): Promise<FlowRow[]> {
  return db().$queryRaw<FlowRow[]>(flowsSql(from, to, organizationId));
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
    SELECT to_char(m.day, 'YYYY-MM-DD') AS day, ${SPECIES} AS species, count(*)::int AS n
      FROM generate_series(${from}::date, ${to}::date, interval '1 month') AS m(day)
      JOIN pet_stays s ON daterange(s.intake_on, s.outcome_on, '(]') @> m.day::date ${ofOrganization(organizationId)}
      JOIN pets p ON p.id = s.pet_id LEFT JOIN categories c ON c.id = p.category_id
     GROUP BY 1, 2`;
}

export async function openAt(from: string, to: string, organizationId: number | undefined): Promise<OpenRow[]> {
  return db().$queryRaw<OpenRow[]>(openAtSql(from, to, organizationId));
}

/** The organisation's time zone, or null when there is no such organisation. */
export async function organizationTimeZone(organizationId: number): Promise<string | null> {
  const row = await db().organization.findUnique({ where: { id: BigInt(organizationId) }, select: { timeZone: true } });
  return row?.timeZone ?? null;
}
