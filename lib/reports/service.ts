import { ApiError } from "@/lib/core/errors";
import { getOrganizationTimeZone } from "@/lib/organizations/service";
import * as queries from "@/lib/reports/queries";
import {
  INTAKE_DETAIL_ROWS,
  OUTCOME_DETAIL_ROWS,
  type IntakeDetailRow,
  type OutcomeDetailRow,
  MONTHS_MAX,
  NETWORK_MONTHS_MAX,
  SPECIES,
  ageTotal,
  monthIndex,
  monthOf,
  type AgeCounts,
  type MonthlyReport,
  type MonthlyReportQuery,
  type ReportMonth,
  type Species,
  type SpeciesReport,
} from "@/lib/reports/schemas";
import { INTAKE_TYPES, LIVE_OUTCOMES, OUTCOME_TYPES } from "@/lib/stays/schemas";

// The monthly report (issue 42): the Basic Data Matrix for a range of
// calendar months, of one organisation (in its time zone) or of the whole
// network (each shelter's days in its own zone, summed).

/** The current month (YYYY-MM) in a time zone. */
export function currentMonth(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}`;
}

/** The range asked for, with its defaults: up to the current month, twelve months long. */
export function monthRange(query: MonthlyReportQuery, now: Date, timeZone: string, max = MONTHS_MAX): { from: string; to: string } {
  const to = query.to ?? (query.from ? monthOf(Math.min(monthIndex(query.from) + 11, monthIndex(currentMonth(now, timeZone)))) : currentMonth(now, timeZone));
  const from = query.from ?? monthOf(monthIndex(to) - 11);
  // The schema refuses a range given whole; this only guards the defaults' mix (a from after this month, alone).
  const span = monthIndex(to) - monthIndex(from) + 1;
  if (span < 1 || span > max) {
    throw new ApiError(400, "invalid_query", `The query parameters are invalid. to: must be from ${from} to ${max} months later.`, [
      { field: "to", issue: `must be given with a from after the current month (${to})` },
    ]);
  }
  return { from, to };
}

const zeroAges = (): AgeCounts => ({ adult: 0, juvenile: 0, unknownAge: 0 });
const byTypes = <T extends string>(types: readonly T[]) => Object.fromEntries(types.map((t) => [t, zeroAges()])) as Record<T, AgeCounts>;

function emptySpecies(): SpeciesReport {
  return {
    beginningCount: 0,
    endingCount: 0,
    beginningFosterCount: 0,
    endingFosterCount: 0,
    intakes: byTypes(INTAKE_TYPES),
    outcomes: byTypes(OUTCOME_TYPES),
    intakeDetails: byTypes(Object.keys(INTAKE_DETAIL_ROWS) as IntakeDetailRow[]),
    outcomeDetails: byTypes(Object.keys(OUTCOME_DETAIL_ROWS) as OutcomeDetailRow[]),
    liveReleaseRate: null,
    medianLengthOfStayDays: null,
  };
}

/** Live outcomes over all outcomes minus owner-intended euthanasia; null when that is 0. */
export function liveReleaseRate(outcomes: Record<(typeof OUTCOME_TYPES)[number], AgeCounts>): number | null {
  const all = OUTCOME_TYPES.reduce((n, t) => n + ageTotal(outcomes[t]), 0) - ageTotal(outcomes.ownerIntendedEuthanasia);
  if (all === 0) return null;
  const live = LIVE_OUTCOMES.reduce((n, t) => n + ageTotal(outcomes[t]), 0);
  return Math.round((live / all) * 10_000) / 10_000;
}

const firstDay = (month: string) => `${month}-01`;
/** The statement's "type.detail" keys to the report's rows. */
const detailRow = {
  intake: new Map(Object.entries(INTAKE_DETAIL_ROWS).map(([row, key]) => [key as string, row])),
  outcome: new Map(Object.entries(OUTCOME_DETAIL_ROWS).map(([row, key]) => [key as string, row])),
};

async function build(organizationId: number | undefined, timeZone: string | null, from: string, to: string): Promise<MonthlyReport> {
  const months = Array.from({ length: monthIndex(to) - monthIndex(from) + 1 }, (_, i) => monthOf(monthIndex(from) + i));
  const after = monthOf(monthIndex(to) + 1);
  const [flows, open, fostered] = await Promise.all([
    queries.flows(firstDay(from), firstDay(after), organizationId),
    // The first days of every month and of the month after the last: its count is the last month's endingCount.
    queries.openAt(firstDay(from), firstDay(after), organizationId),
    queries.fosteredAt(firstDay(from), firstDay(after), organizationId),
  ]);

  const report = new Map<string, Record<Species, SpeciesReport>>(months.map((m) => [m, { dog: emptySpecies(), cat: emptySpecies(), other: emptySpecies() }]));
  for (const row of flows) {
    const species = report.get(row.month)?.[row.species];
    if (!species) continue;
    if (row.kind === "outcome" && row.type === null) {
      species.medianLengthOfStayDays = row.median_days;
      continue;
    }
    const byType = (
      row.kind === "intake"
        ? species.intakes
        : row.kind === "outcome"
          ? species.outcomes
          : row.kind === "intakeDetail"
            ? species.intakeDetails
            : species.outcomeDetails
    ) as Record<string, AgeCounts>;
    const counts =
      byType[row.kind === "intakeDetail" ? detailRow.intake.get(row.type!)! : row.kind === "outcomeDetail" ? detailRow.outcome.get(row.type!)! : row.type!];
    // An enum value the matrix lacks cannot be stored (the columns are PostgreSQL enums of these very lists).
    if (counts && row.age) counts[row.age] += row.n;
  }
  const openOn = new Map(open.map((r) => [`${r.day}/${r.species}`, r.n]));
  const fosteredOn = new Map(fostered.map((r) => [`${r.day}/${r.species}`, r.n]));
  return {
    organizationId: organizationId ?? null,
    timeZone,
    months: months.map((month, i): ReportMonth => {
      const species = report.get(month)!;
      const next = i + 1 < months.length ? months[i + 1]! : after;
      for (const s of SPECIES) {
        species[s].beginningCount = openOn.get(`${firstDay(month)}/${s}`) ?? 0;
        species[s].endingCount = openOn.get(`${firstDay(next)}/${s}`) ?? 0;
        species[s].beginningFosterCount = fosteredOn.get(`${firstDay(month)}/${s}`) ?? 0;
        species[s].endingFosterCount = fosteredOn.get(`${firstDay(next)}/${s}`) ?? 0;
        species[s].liveReleaseRate = liveReleaseRate(species[s].outcomes);
      }
      return { month, species };
    }),
  };
}

/** One organisation's report, in its time zone (the route has checked that it exists and the caller may read it). */
export async function organizationReport(organizationId: number, query: MonthlyReportQuery, now: Date): Promise<MonthlyReport> {
  const timeZone = await getOrganizationTimeZone(organizationId);
  const { from, to } = monthRange(query, now, timeZone);
  return build(organizationId, timeZone, from, to);
}

/** Every organisation summed (platform admins): each shelter's months are its own zone's; the default range ends in UTC's current month. */
export async function networkReport(query: MonthlyReportQuery, now: Date): Promise<MonthlyReport> {
  const { from, to } = monthRange(query, now, "UTC", NETWORK_MONTHS_MAX);
  return build(undefined, null, from, to);
}
