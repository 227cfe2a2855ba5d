import type { Metadata } from "next";
import { currentSession, oneParam } from "@/app/(staff)/staff-data";
import { GET as organizationReportRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly/route";
import { GET as networkReportRoute } from "@/app/v1/reports/monthly/route";
import { FormAlert } from "@/components/staff/form-alert";
import { LengthOfStay, MonthTable, ReportChart } from "@/components/staff/report-view";
import { StaffOnlyPage } from "@/components/staff/staff-only";
import { inputClass, labelClass, linkClass, panelClass, primaryButtonClass } from "@/components/staff/styles";
import type { ErrorBody } from "@/lib/core/errors";
import type { MonthlyReport } from "@/lib/reports/schemas";
import { serverApi } from "@/lib/site/server-api";

export const metadata: Metadata = { title: "Reports" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// /staff/reports?from=YYYY-MM&to=YYYY-MM&month=YYYY-MM - the monthly numbers
// shelters report to Shelter Animals Count: a chart of intakes and outcomes
// by month with the live release rate, the length of stay, the chosen
// month's table in the matrix's categories, and the CSV. Drawn on the server
// from the same API (a platform admin's: the whole network); the range form
// is a plain GET form, so the page ships no script of its own.
export default async function ReportsPage({ searchParams }: { searchParams: SearchParams }) {
  const [session, params] = await Promise.all([currentSession(), searchParams]);
  const intro = (
    <div className="space-y-1">
      <h1 className="text-2xl font-bold">Reports</h1>
      <p className="text-stone-700">
        The monthly numbers for Shelter Animals Count&rsquo;s Basic Data Matrix: intakes and outcomes by category, species and age, the animals in care at the
        start and end of each month, and the live release rate.
      </p>
    </div>
  );
  if (session?.kind !== "staff") {
    return <StaffOnlyPage intro={intro} next="/staff/reports" doing="see the reports" />;
  }

  const [from, to, chosen] = [oneParam(params.from), oneParam(params.to), oneParam(params.month)];
  const query = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) }).toString();
  const organizationId = session.platformAdmin ? null : session.organizationId;
  const base = organizationId === null ? "/v1/reports/monthly" : `/v1/organizations/${organizationId}/reports/monthly`;
  const res =
    organizationId === null
      ? await serverApi<MonthlyReport>(networkReportRoute, `${base}${query ? `?${query}` : ""}`)
      : await serverApi<MonthlyReport>(organizationReportRoute, `${base}${query ? `?${query}` : ""}`, { organizationId: String(organizationId) });

  if (res.status !== 200) {
    const error = res.body as unknown as ErrorBody;
    return (
      <div className="space-y-6">
        {intro}
        <FormAlert>
          {res.status === 400
            ? (error.details?.map((d) => `${d.field}: ${d.issue}`).join("; ") ?? error.message)
            : `Could not read the report just now${res.status === 429 ? " (too many requests)" : ""}.`}{" "}
          <a href="/staff/reports" className={linkClass}>
            Show the last twelve months
          </a>
        </FormAlert>
      </div>
    );
  }

  const report = res.body;
  const first = report.months[0]!.month;
  const last = report.months.at(-1)!.month;
  const month = report.months.find((m) => m.month === chosen) ?? report.months.at(-1)!;
  const csv = `${base}.csv?${new URLSearchParams({ from: first, to: last }).toString()}`;
  const monthLabel = (m: string) => new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${m}-01T00:00:00Z`));

  return (
    <div className="space-y-6">
      {intro}
      <form
        method="get"
        action="/staff/reports"
        className={`${panelClass} grid gap-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end`}
        aria-label="Months to show"
      >
        <div>
          <label htmlFor="report-from" className={labelClass}>
            From
          </label>
          <input id="report-from" name="from" type="month" defaultValue={first} required className={inputClass(false)} />
        </div>
        <div>
          <label htmlFor="report-to" className={labelClass}>
            To
          </label>
          <input id="report-to" name="to" type="month" defaultValue={last} required className={inputClass(false)} />
        </div>
        <div>
          <label htmlFor="report-month-choice" className={labelClass}>
            Month in detail
          </label>
          <select id="report-month-choice" name="month" defaultValue={month.month} className={inputClass(false)}>
            {report.months.map((m) => (
              <option key={m.month} value={m.month}>
                {monthLabel(m.month)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButtonClass}>
          Show
        </button>
        <p className="text-sm text-stone-700 sm:col-span-4">
          {report.timeZone ? `Months are calendar months in ${report.timeZone}.` : "Every organisation summed; each shelter's months are in its own time zone."}{" "}
          At most 120 months.{" "}
          <a href={csv} className={linkClass} download>
            Download {monthLabel(first)} to {monthLabel(last)} as CSV
          </a>{" "}
          (the matrix&rsquo;s layout: a block per month).
        </p>
      </form>
      <ReportChart report={report} />
      <MonthTable month={month} />
      <LengthOfStay report={report} />
    </div>
  );
}
