import { BarChart, ChartLegend } from "@/components/staff/bar-chart";
import { panelClass } from "@/components/staff/styles";
import { AGE_LABELS, DETAIL_LABELS, INTAKE_DETAIL_KEYS, INTAKE_LABELS, OUTCOME_DETAIL_KEYS, SPECIES_LABELS } from "@/lib/reports/csv";
import { OUTCOME_LABELS } from "@/lib/stays/labels";
import { INTAKE_TYPES, LIVE_OUTCOMES, OUTCOME_TYPES } from "@/lib/stays/schemas";
import { AGES, SPECIES, addAgeCounts, ageTotal, type AgeCounts, type MonthlyReport, type ReportMonth, type SpeciesReport } from "@/lib/reports/schemas";

// The monthly report on /staff/reports, drawn on the server: the chart of
// intakes and outcomes by month with the live release rate over it, the
// same figures in a table, the length of stay, and the chosen month in the
// matrix's categories (one table per species, so it reads on a phone).

const SERIES = [
  { name: "Intakes", colour: "#047857" }, // emerald-700
  { name: "Outcomes", colour: "#b45309" }, // amber-700
];
const RATE = { name: "Live release rate", colour: "#1d4ed8" }; // blue-700

const intakesOf = (s: SpeciesReport) => INTAKE_TYPES.reduce((n, t) => n + ageTotal(s.intakes[t]), 0);
const outcomesOf = (s: SpeciesReport) => OUTCOME_TYPES.reduce((n, t) => n + ageTotal(s.outcomes[t]), 0);

/** A month's totals over every species; its live release rate from those totals, as the matrix's does. */
export function monthTotals(month: ReportMonth): { intakes: number; outcomes: number; rate: number | null } {
  const all = SPECIES.map((s) => month.species[s]);
  const outcomes = all.reduce((n, s) => n + outcomesOf(s), 0);
  const live = all.reduce((n, s) => n + LIVE_OUTCOMES.reduce((m, t) => m + ageTotal(s.outcomes[t]), 0), 0);
  const counted = outcomes - all.reduce((n, s) => n + ageTotal(s.outcomes.ownerIntendedEuthanasia), 0);
  return { intakes: all.reduce((n, s) => n + intakesOf(s), 0), outcomes, rate: counted === 0 ? null : live / counted };
}

const monthName = (month: string, style: "short" | "long") =>
  new Intl.DateTimeFormat("en-GB", { month: style, year: style === "long" ? "numeric" : "2-digit", timeZone: "UTC" }).format(new Date(`${month}-01T00:00:00Z`));
const percent = (rate: number | null) => (rate === null ? "–" : `${(rate * 100).toFixed(1)}%`);
const days = (d: number | null) => (d === null ? "–" : `${Number.isInteger(d) ? d : d.toFixed(1)} day${d === 1 ? "" : "s"}`);

export function ReportChart({ report }: { report: MonthlyReport }) {
  const rows = report.months.map((m) => ({ month: m.month, ...monthTotals(m) }));
  const totals = rows.reduce((t, r) => ({ intakes: t.intakes + r.intakes, outcomes: t.outcomes + r.outcomes }), { intakes: 0, outcomes: 0 });
  return (
    <section aria-labelledby="report-chart" className={`${panelClass} space-y-4`}>
      <h2 id="report-chart" className="text-lg font-semibold">
        Intakes and outcomes by month
      </h2>
      <ChartLegend series={SERIES} line={RATE} />
      <BarChart
        groups={rows.map((r) => ({
          key: r.month,
          label: monthName(r.month, "short"),
          title: monthName(r.month, "long"),
          values: [r.intakes, r.outcomes],
          rate: r.rate,
        }))}
        series={SERIES}
        line={RATE}
        width={rows.length > 12 ? 720 : 480}
        height={300}
        summary={`Bar chart: ${totals.intakes} intakes and ${totals.outcomes} outcomes from ${monthName(rows[0]!.month, "long")} to ${monthName(rows.at(-1)!.month, "long")}, with the live release rate of each month as a line. The table below gives each month's figures.`}
        headingId="report-chart"
        xTitle={report.timeZone ? `Month (${report.timeZone})` : "Month (each shelter's own time zone)"}
      />
      <div className="overflow-x-auto">
        <table className="w-full min-w-[18rem] text-left text-sm" data-testid="report-months">
          <caption className="sr-only">Intakes, outcomes and live release rate by month, oldest first</caption>
          <thead className="border-b border-stone-300 text-stone-700">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Month
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Intakes
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                Outcomes
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Live release
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.month} className="border-b border-stone-100">
                <th scope="row" className="py-1.5 pr-3 font-normal">
                  <time dateTime={r.month}>{monthName(r.month, "long")}</time>
                </th>
                <td className="py-1.5 pr-3 text-right tabular-nums">{r.intakes}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{r.outcomes}</td>
                <td className="py-1.5 text-right tabular-nums">{percent(r.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function LengthOfStay({ report }: { report: MonthlyReport }) {
  return (
    <section aria-labelledby="report-length" className={`${panelClass} space-y-3`}>
      <h2 id="report-length" className="text-lg font-semibold">
        Length of stay
      </h2>
      <p className="text-sm text-stone-700">The median days from intake to outcome of the animals that left each month, by species.</p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[18rem] text-left text-sm" data-testid="report-length">
          <thead className="border-b border-stone-300 text-stone-700">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Month
              </th>
              {SPECIES.map((s) => (
                <th key={s} scope="col" className="py-2 pr-3 text-right font-semibold">
                  {SPECIES_LABELS[s]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.months.map((m) => (
              <tr key={m.month} className="border-b border-stone-100">
                <th scope="row" className="py-1.5 pr-3 font-normal">
                  {monthName(m.month, "long")}
                </th>
                {SPECIES.map((s) => (
                  <td key={s} className="py-1.5 pr-3 text-right tabular-nums">
                    {days(m.species[s].medianLengthOfStayDays)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function AgeRow({ label, counts, strong }: { label: string; counts: AgeCounts; strong?: boolean }) {
  return (
    <tr className={`border-b border-stone-100 ${strong ? "font-semibold" : ""}`}>
      <th scope="row" className={`py-1.5 pr-2 ${strong ? "font-semibold" : "font-normal"}`}>
        {label}
      </th>
      {AGES.map((a) => (
        <td key={a} className="py-1.5 pr-2 text-right tabular-nums">
          {counts[a]}
        </td>
      ))}
      <td className="py-1.5 text-right font-semibold tabular-nums">{ageTotal(counts)}</td>
    </tr>
  );
}

function CountRow({ label, value }: { label: string; value: string | number }) {
  return (
    <tr className="border-b border-stone-100 font-semibold">
      <th scope="row" className="py-1.5 pr-2 font-semibold">
        {label}
      </th>
      <td colSpan={AGES.length + 1} className="py-1.5 text-right tabular-nums">
        {value}
      </td>
    </tr>
  );
}

/** One month in the matrix's categories: a table per species (rows the categories, columns the ages). */
export function MonthTable({ month }: { month: ReportMonth }) {
  return (
    <section aria-labelledby="report-month" className={`${panelClass} space-y-4`}>
      <h2 id="report-month" className="text-lg font-semibold">
        {monthName(month.month, "long")} in the matrix&rsquo;s categories
      </h2>
      <div className="grid gap-6 lg:grid-cols-3">
        {SPECIES.map((s) => {
          const sp = month.species[s];
          return (
            <div key={s} className="overflow-x-auto">
              <table className="w-full text-left text-sm" data-testid={`report-month-${s}`}>
                <caption className="pb-2 text-left text-base font-semibold text-stone-900">{SPECIES_LABELS[s]}</caption>
                <thead className="border-b border-stone-300 text-stone-700">
                  <tr>
                    <th scope="col" className="py-2 pr-2 font-semibold">
                      Category
                    </th>
                    {AGES.map((a) => (
                      <th key={a} scope="col" className="py-2 pr-2 text-right font-semibold">
                        {AGE_LABELS[a]}
                      </th>
                    ))}
                    <th scope="col" className="py-2 text-right font-semibold">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  <CountRow label="Beginning count" value={sp.beginningCount} />
                  <CountRow label="Of which in foster homes" value={sp.beginningFosterCount} />
                  {INTAKE_TYPES.map((t) => (
                    <AgeRow key={t} label={INTAKE_LABELS[t]} counts={sp.intakes[t]} />
                  ))}
                  {INTAKE_DETAIL_KEYS.map((d) => (
                    <AgeRow key={d} label={DETAIL_LABELS[d]} counts={sp.intakeDetails[d]} />
                  ))}
                  <AgeRow label="Total intakes" counts={addAgeCounts(INTAKE_TYPES.map((t) => sp.intakes[t]))} strong />
                  {OUTCOME_TYPES.map((t) => (
                    <AgeRow key={t} label={OUTCOME_LABELS[t]} counts={sp.outcomes[t]} />
                  ))}
                  {OUTCOME_DETAIL_KEYS.map((d) => (
                    <AgeRow key={d} label={DETAIL_LABELS[d]} counts={sp.outcomeDetails[d]} />
                  ))}
                  <AgeRow label="Total outcomes" counts={addAgeCounts(OUTCOME_TYPES.map((t) => sp.outcomes[t]))} strong />
                  <CountRow label="Ending count" value={sp.endingCount} />
                  <CountRow label="Of which in foster homes" value={sp.endingFosterCount} />
                  <CountRow label="Live release rate" value={percent(sp.liveReleaseRate)} />
                  <CountRow label="Median length of stay" value={days(sp.medianLengthOfStayDays)} />
                </tbody>
              </table>
            </div>
          );
        })}
      </div>
    </section>
  );
}
