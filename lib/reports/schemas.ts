import { z } from "zod";

// The monthly numbers every shelter reports to Shelter Animals Count (the
// Basic Data Matrix): intakes and outcomes by category, species and age, the
// count at the start and end of each month, and the live release rate
// (issue 42, docs/decisions/025). Read from the stays (lib/stays, decision 023).

// The matrix's categories and which outcomes are live are the stays' (the database's enums), listed once in lib/stays/schemas.ts.
import { INTAKE_TYPES, OUTCOME_TYPES } from "@/lib/stays/schemas";

export const SPECIES = ["dog", "cat", "other"] as const;
export type Species = (typeof SPECIES)[number];
export const AGES = ["adult", "juvenile", "unknownAge"] as const;
export type Age = (typeof AGES)[number];

/** The most months one request may ask for of an organisation: ten years. */
export const MONTHS_MAX = 120;
/**
 * Of the whole network: a year (issue 48). Its statements read every shelter's stays of the range, and at
 * decision 025's scale (10,000 shelters, 5 million stays) a month takes about 0.2 s, so ten years ran past
 * the 4 s statement timeout and were answered 503, inviting retries that fail the same way.
 */
export const NETWORK_MONTHS_MAX = 12;

const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])$/;

const monthParam = (description: string) =>
  z
    .string()
    .regex(MONTH, "must be a month written YYYY-MM, e.g. 2021-06")
    .refine((m) => Number(m.slice(0, 4)) >= 1900 && Number(m.slice(0, 4)) <= 2999, "must be a year from 1900 to 2999")
    .optional()
    .meta({ description, example: "2021-06", pattern: "^[0-9]{4}-(0[1-9]|1[0-2])$" });

/** Months since year 0, to count the months between two. */
export const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
export const monthOf = (index: number) => `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;

function reportQuerySchema(max: number, whose: string) {
  return z
    .strictObject({
      from: monthParam(`The first month (YYYY-MM), in ${whose} time zone. Default: eleven months before \`to\`.`),
      to: monthParam(`The last month (YYYY-MM), included. Default: the current month. At most ${max} months from \`from\`.`),
    })
    .superRefine((q, ctx) => {
      if (q.from === undefined || q.to === undefined) return;
      const span = monthIndex(q.to) - monthIndex(q.from) + 1;
      if (span < 1) ctx.addIssue({ code: "custom", path: ["to"], message: `must not be before from (${q.from})` });
      else if (span > max)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `must be at most ${max} months from from (${q.from})${max === NETWORK_MONTHS_MAX ? ` for the whole network's report (an organisation's: ${MONTHS_MAX})` : ""}: this range has ${span}`,
        });
    });
}

export const monthlyReportQuerySchema = reportQuerySchema(MONTHS_MAX, "the organisation's");
/** The whole network's report: the same parameters, at most NETWORK_MONTHS_MAX months. */
export const networkReportQuerySchema = reportQuerySchema(NETWORK_MONTHS_MAX, "each organisation's own");
export type MonthlyReportQuery = z.infer<typeof monthlyReportQuerySchema>;

const count = z.number().int().min(0);

export const ageCountsSchema = z
  .object({
    adult: count.meta({ description: "Five months old or more on the day (by the animal's birth date)." }),
    juvenile: count.meta({ description: "Younger than five months on the day: the day is earlier than five calendar months after the birth date." }),
    unknownAge: count.meta({ description: "Animals without a birth date." }),
  })
  .meta({ id: "ReportAgeCounts" });
export type AgeCounts = z.infer<typeof ageCountsSchema>;

/** Every age of one count together (the matrix's Total column). */
export const ageTotal = (a: AgeCounts): number => a.adult + a.juvenile + a.unknownAge;

/** Several counts added age by age (the matrix's total rows). */
export const addAgeCounts = (list: AgeCounts[]): AgeCounts => ({
  adult: list.reduce((n, a) => n + a.adult, 0),
  juvenile: list.reduce((n, a) => n + a.juvenile, 0),
  unknownAge: list.reduce((n, a) => n + a.unknownAge, 0),
});

/**
 * The matrix's 2021 rows (issue 50): seized or impounded animals out of the other intakes, and
 * transfers by distance. Each is part of its type's row in `intakes`/`outcomes`, which keep their
 * totals: a transfer recorded without its distance is in `transferredIn` only.
 */
export const INTAKE_DETAIL_ROWS = {
  seizedOrImpounded: "otherIntake.seizedOrImpounded",
  transferredInInState: "transferredIn.inState",
  transferredInOutOfState: "transferredIn.outOfState",
  transferredInInternational: "transferredIn.international",
} as const;
export const OUTCOME_DETAIL_ROWS = {
  transferredOutInState: "transferredOut.inState",
  transferredOutOutOfState: "transferredOut.outOfState",
  transferredOutInternational: "transferredOut.international",
} as const;
export type IntakeDetailRow = keyof typeof INTAKE_DETAIL_ROWS;
export type OutcomeDetailRow = keyof typeof OUTCOME_DETAIL_ROWS;

const byDetail = <T extends Record<string, string>>(rows: T, what: string) =>
  z.object(Object.fromEntries(Object.keys(rows).map((t) => [t, ageCountsSchema])) as { [K in keyof T]: typeof ageCountsSchema }).meta({
    description: `${what}, each by age; every row is present (zeros included). Each is part of its type's count, which keeps its total.`,
  });

const byType = <T extends readonly string[]>(types: T, what: string) =>
  z.object(Object.fromEntries(types.map((t) => [t, ageCountsSchema])) as { [K in T[number]]: typeof ageCountsSchema }).meta({
    description: `${what} by the matrix's category, each by age; every category is present (zeros included).`,
  });

export const speciesReportSchema = z
  .object({
    beginningCount: count.meta({
      description: "Animals in care when the month began: stays that began on an earlier day and had not ended before its first day.",
    }),
    endingCount: count.meta({
      description: "Animals in care when the month ended: the next month's beginningCount, so always beginningCount + intakes − outcomes.",
    }),
    beginningFosterCount: count.meta({
      description:
        "Of beginningCount, the animals in a foster home when the month began, by the same rule (a placement that began on an earlier day and had not ended before the first day). A placement is never an intake or an outcome.",
    }),
    endingFosterCount: count.meta({
      description: "Of endingCount, the animals in a foster home when the month ended: the next month's beginningFosterCount.",
    }),
    intakes: byType(INTAKE_TYPES, "Stays that began this month (age on the intake's day)"),
    outcomes: byType(OUTCOME_TYPES, "Stays that ended this month (age on the outcome's day)"),
    intakeDetails: byDetail(
      INTAKE_DETAIL_ROWS,
      "The matrix's 2021 intake rows: `seizedOrImpounded` (of `otherIntake`), and transfers in by distance (of `transferredIn`: `transferredInInState`, `transferredInOutOfState`, `transferredInInternational`)",
    ),
    outcomeDetails: byDetail(
      OUTCOME_DETAIL_ROWS,
      "The matrix's 2021 outcome rows: transfers out by distance (of `transferredOut`: `transferredOutInState`, `transferredOutOutOfState`, `transferredOutInternational`)",
    ),
    liveReleaseRate: z.number().min(0).max(1).nullable().meta({
      description:
        "Live outcomes (adoption, returnedToOwner, transferredOut, returnedToField, otherLiveOutcome) divided by all outcomes minus ownerIntendedEuthanasia, from 0 to 1; null when that is 0.",
      example: 0.91,
    }),
    medianLengthOfStayDays: z.number().min(0).nullable().meta({
      description:
        "Median length in days (the outcome's day minus the intake's day, in the organisation's time zone) of the stays that ended this month; null without any. Not part of the matrix.",
      example: 12,
    }),
  })
  .meta({ id: "ReportSpecies", description: "One species' figures for one month." });
export type SpeciesReport = z.infer<typeof speciesReportSchema>;

export const reportMonthSchema = z
  .object({
    month: z.string().meta({ description: "The calendar month (YYYY-MM).", example: "2021-06" }),
    species: z
      .object({ dog: speciesReportSchema, cat: speciesReportSchema, other: speciesReportSchema })
      .meta({ description: "By species: the Dogs category is `dog`, Cats is `cat`, every other category is `other`." }),
  })
  .meta({ id: "ReportMonth" });
export type ReportMonth = z.infer<typeof reportMonthSchema>;

export const monthlyReportSchema = z
  .object({
    organizationId: z.number().int().nullable().meta({ description: "The organisation; null for the whole network (every organisation summed).", example: 1 }),
    timeZone: z.string().nullable().meta({
      description: "The IANA time zone whose calendar months these are; null for the network, where each shelter's days are in its own zone.",
      example: "America/Los_Angeles",
    }),
    months: z.array(reportMonthSchema).meta({ description: "Every month of the range, oldest first (months without any stay included, with zeros)." }),
  })
  .meta({ id: "MonthlyReport", description: "The Basic Data Matrix, month by month." });
export type MonthlyReport = z.infer<typeof monthlyReportSchema>;
