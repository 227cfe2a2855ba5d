import { z } from "zod";
import { alertFilterFields } from "@/lib/alerts/schemas";

// Staff's dashboard: how the shelter is doing, in figures a person can act
// on. Counts only: nothing here names an applicant.

export const DASHBOARD_WEEKS = 12;

const count = z.number().int().min(0);

export const dashboardWeekSchema = z
  .object({
    week: z.string().meta({ format: "date", description: "The week's Monday (weeks run Monday to Sunday, UTC).", example: "2026-11-23" }),
    intakes: count.meta({ description: "Stays that began that week (an animal added, or taken in again)." }),
    adoptions: count.meta({ description: "Stays that ended that week with the outcome `adoption`." }),
  })
  .meta({ id: "DashboardWeek" });
export type DashboardWeek = z.infer<typeof dashboardWeekSchema>;

/** How many of the most common alert filters the dashboard lists. */
export const WAITING_FOR_TOP = 10;
/** The fewest alerts a group is shown with: fewer would point at one person's search. */
export const WAITING_FOR_MIN_PEOPLE = 3;

/**
 * What the dashboard shows of alerts' filters: never the place an area is
 * around, nor the name searched for (else a shelter could move its own
 * location and read the dashboard again to map an adopter's searches).
 */
export const waitingForFiltersSchema = z
  .object({
    categoryId: alertFilterFields.categoryId,
    sex: alertFilterFields.sex,
    size: alertFilterFields.size,
    ageGroup: alertFilterFields.ageGroup,
    goodWith: alertFilterFields.goodWith,
    within: z
      .string()
      .optional()
      .meta({ description: "The radius of the alerts' area (never its place); absent for alerts without an area.", example: "25mi" }),
  })
  .meta({ id: "DashboardWaitingForFilters" });
export type WaitingForFilters = z.infer<typeof waitingForFiltersSchema>;

export const waitingForSchema = z
  .object({
    filters: waitingForFiltersSchema,
    description: z.string().meta({ description: "The filters in words.", example: "Dogs · small · good with children · within 25 mi" }),
    people: count.meta({ description: `Confirmed alerts with these filters, whatever their place or name search: at least ${WAITING_FOR_MIN_PEOPLE}.` }),
    availableNow: count.meta({ description: "Available animals (the organisation's own, for its staff) that match these filters now." }),
  })
  .meta({ id: "DashboardWaitingFor" });
export type WaitingFor = z.infer<typeof waitingForSchema>;

export const dashboardSchema = z
  .object({
    asOf: z.string().meta({ format: "date-time", description: "When these figures were read." }),
    animals: z.object({ available: count, pending: count, sold: count, total: count }).meta({ description: "Animals by status, now." }),
    applications: z
      .object({
        waiting: count.meta({ description: "Applications waiting for a decision (received or in review)." }),
        oldestWaitingSince: z.string().nullable().meta({ format: "date-time", description: "When the oldest of those was sent; null when none waits." }),
        approved: count.meta({ description: "Approved applications whose adoption is not completed or cancelled yet." }),
      })
      .meta({ description: "Adoption applications that need staff." }),
    adoptions: z
      .object({
        count: count.meta({ description: `Adoptions over the last ${DASHBOARD_WEEKS} weeks.` }),
        medianDaysToAdoption: z
          .number()
          .min(0)
          .nullable()
          .meta({
            description: `Median days from a stay's intake to its adoption, over the adoptions of the last ${DASHBOARD_WEEKS} weeks; null without any.`,
          }),
      })
      .meta({
        description:
          "From the animals' stays (the same records as the monthly report): an adoption is a stay ended with the outcome `adoption`; an intake is a stay begun.",
      }),
    waitingFor: z
      .array(waitingForSchema)
      .max(WAITING_FOR_TOP)
      .meta({
        description: `What adopters are waiting for: the ${WAITING_FOR_TOP} most common filters of confirmed alerts that at least ${WAITING_FOR_MIN_PEOPLE} people share, most people first. Only category, sex, size, age, good-with and an area's radius are shown: never an address, a place or a name searched for. An organisation sees the alerts whose area includes its shelter, or that have no area.`,
      }),
    weeks: z
      .array(dashboardWeekSchema)
      .length(DASHBOARD_WEEKS)
      .meta({ description: `The last ${DASHBOARD_WEEKS} weeks, oldest first; the last one is this week, so far.` }),
  })
  .meta({ id: "Dashboard", description: "The shelter at a glance (staff)." });
export type Dashboard = z.infer<typeof dashboardSchema>;
