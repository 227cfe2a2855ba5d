import { FlowChart } from "@/components/staff/flow-chart";
import { linkClass, panelClass } from "@/components/staff/styles";
import type { Dashboard } from "@/lib/dashboard/schemas";

// The staff dashboard's figures (rendered on the server; no script).

const HOUR = 3_600_000;

/** How long something has waited, in the unit a person would say. */
export function waitedFor(since: string, asOf: string): string {
  const ms = Math.max(0, Date.parse(asOf) - Date.parse(since));
  if (ms < HOUR) return "under an hour";
  if (ms < 48 * HOUR) {
    const hours = Math.floor(ms / HOUR);
    return `${hours} hour${hours === 1 ? "" : "s"}`;
  }
  return `${Math.floor(ms / (24 * HOUR))} days`;
}

const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;

function Figure({ label, value, children }: { label: string; value: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <dt className="text-sm font-semibold text-stone-700">{label}</dt>
      <dd className="text-3xl font-bold tabular-nums text-stone-900">{value}</dd>
      {children ? <dd className="text-sm text-stone-700">{children}</dd> : null}
    </div>
  );
}

export function DashboardView({ dashboard }: { dashboard: Dashboard }) {
  const { animals, applications, adoptions, weeks, asOf } = dashboard;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-3">
        <section aria-labelledby="dashboard-animals" className={panelClass}>
          <h2 id="dashboard-animals" className="mb-3 text-lg font-semibold">
            Animals
          </h2>
          <dl className="grid grid-cols-3 gap-3">
            <Figure label="Available" value={animals.available} />
            <Figure label="Pending" value={animals.pending} />
            <Figure label="Adopted" value={animals.sold} />
          </dl>
          <p className="mt-3 text-sm text-stone-700">{animals.total} in all.</p>
        </section>

        <section aria-labelledby="dashboard-applications" className={panelClass}>
          <h2 id="dashboard-applications" className="mb-3 text-lg font-semibold">
            Applications
          </h2>
          <dl className="grid grid-cols-2 gap-3">
            <Figure label="Waiting for a decision" value={applications.waiting}>
              {applications.oldestWaitingSince ? `The oldest has waited ${waitedFor(applications.oldestWaitingSince, asOf)}.` : "None waiting."}
            </Figure>
            <Figure label="Approved, to complete" value={applications.approved} />
          </dl>
          <p className="mt-3 text-sm">
            <a href="/staff/applications" className={linkClass}>
              Open the inbox
            </a>
          </p>
        </section>

        <section aria-labelledby="dashboard-adoptions" className={panelClass}>
          <h2 id="dashboard-adoptions" className="mb-3 text-lg font-semibold">
            Time to adoption
          </h2>
          <dl>
            <Figure label="Median days from intake to adoption" value={adoptions.medianDaysToAdoption === null ? "–" : days(adoptions.medianDaysToAdoption)}>
              {adoptions.count === 0
                ? `No adoptions in the last ${weeks.length} weeks.`
                : `Over the ${adoptions.count} adoption${adoptions.count === 1 ? "" : "s"} of the last ${weeks.length} weeks.`}
            </Figure>
          </dl>
        </section>
      </div>

      <section aria-labelledby="dashboard-flow" className={`${panelClass} space-y-2`}>
        <h2 id="dashboard-flow" className="text-lg font-semibold">
          Intakes and adoptions per week
        </h2>
        <p className="text-sm text-stone-700">
          The last {weeks.length} weeks from the animals&apos; stays: an intake is a stay begun (an animal added or taken in again), an adoption a stay ended by
          adoption. The monthly figures are in{" "}
          <a href="/staff/reports" className={linkClass}>
            Reports
          </a>
          .
        </p>
        <FlowChart weeks={weeks} headingId="dashboard-flow" />
      </section>
    </div>
  );
}
