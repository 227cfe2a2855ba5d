import { now } from "@/lib/clock";
import * as queries from "@/lib/dashboard/queries";
import { DASHBOARD_WEEKS, WAITING_FOR_MIN_PEOPLE, WAITING_FOR_TOP, type Dashboard, type WaitingFor, type WaitingForFilters } from "@/lib/dashboard/schemas";
import { describeFilters } from "@/lib/alerts/service";
import { WITHIN_DEFAULT } from "@/lib/organizations/geo";
import { findCategories } from "@/lib/pets/queries/lookups";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** 00:00 UTC of the Monday of `at`'s week. Weeks are UTC so that every instance and every reader counts the same days. */
export function weekStart(at: Date): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/**
 * The figures of the staff dashboard, read now: animals by status,
 * applications waiting, and, from the animals' stays, intakes and adoptions
 * per week over the last DASHBOARD_WEEKS weeks (this one so far included)
 * with the median time from intake to adoption over those adoptions. One
 * organisation's (`organizationId`), or every one's for a platform admin.
 */
export async function readDashboard(organizationId?: number): Promise<Dashboard> {
  const asOf = now();
  const from = new Date(weekStart(asOf).getTime() - (DASHBOARD_WEEKS - 1) * WEEK_MS);
  // Up to the end of this week, not to now: a clock a little behind the
  // database's would otherwise leave out what was just recorded.
  const to = new Date(from.getTime() + DASHBOARD_WEEKS * WEEK_MS);
  const [statuses, applications, flow, times, waiting, categories] = await Promise.all([
    queries.animalsByStatus(organizationId),
    queries.applicationCounts(organizationId),
    queries.flowByWeek(from, to, organizationId),
    queries.adoptionTimes(from, to, organizationId),
    queries.alertsWaitingFor(organizationId, {
      take: WAITING_FOR_TOP,
      minPeople: WAITING_FOR_MIN_PEOPLE,
      defaultWithin: `${WITHIN_DEFAULT.value}${WITHIN_DEFAULT.unit}`,
    }),
    findCategories(),
  ]);
  const categoryNames = new Map(categories.map((c) => [c.id, c.name]));
  const waitingFor: WaitingFor[] = waiting.map((w) => ({
    filters: w.filters as WaitingForFilters,
    description: describeFilters(w.filters as WaitingForFilters, w.category_id === null ? null : (categoryNames.get(w.category_id) ?? null)),
    people: w.people,
    availableNow: w.available,
  }));

  const animals = { available: 0, pending: 0, sold: 0, total: 0 };
  for (const { status, n } of statuses) {
    animals[status] = n;
    animals.total += n;
  }
  const weeks = Array.from({ length: DASHBOARD_WEEKS }, (_, i) => {
    const row = flow.find((r) => r.week === i);
    return { week: new Date(from.getTime() + i * WEEK_MS).toISOString().slice(0, 10), intakes: row?.intakes ?? 0, adoptions: row?.adoptions ?? 0 };
  });
  return {
    asOf: asOf.toISOString(),
    animals,
    applications: { waiting: applications.waiting, oldestWaitingSince: applications.oldest?.toISOString() ?? null, approved: applications.approved },
    adoptions: { count: times.adoptions, medianDaysToAdoption: times.medianDays === null ? null : Math.round(times.medianDays * 10) / 10 },
    waitingFor,
    weeks,
  };
}
