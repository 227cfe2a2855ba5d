import { BarChart, ChartLegend } from "@/components/staff/bar-chart";
import type { DashboardWeek } from "@/lib/dashboard/schemas";

// Intakes and adoptions per week, drawn on the server as SVG (bar-chart.tsx:
// no chart library reaches the browser). The same figures follow in a table
// (a Week column), which is what a screen reader reads; the drawing is one
// image with a summary.

const SERIES = [
  { name: "Intakes (stays begun)", colour: "#047857" }, // emerald-700: AA on white
  { name: "Adoptions", colour: "#b45309" }, // amber-700
];

const weekLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const weekLabelLong = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const monday = (week: string) => new Date(`${week}T00:00:00Z`);

export function FlowChart({ weeks, headingId }: { weeks: DashboardWeek[]; headingId: string }) {
  const totals = weeks.reduce((sum, w) => ({ intakes: sum.intakes + w.intakes, adoptions: sum.adoptions + w.adoptions }), { intakes: 0, adoptions: 0 });
  const summary = `Bar chart: ${totals.intakes} intakes and ${totals.adoptions} adoptions over the last ${weeks.length} weeks. The table below gives each week's figures.`;

  return (
    <div className="space-y-4">
      <ChartLegend series={SERIES} />
      <BarChart
        groups={weeks.map((w) => ({
          key: w.week,
          label: weekLabel.format(monday(w.week)),
          title: `week of ${weekLabel.format(monday(w.week))}`,
          values: [w.intakes, w.adoptions],
        }))}
        series={SERIES}
        summary={summary}
        headingId={headingId}
        xTitle="Week starting (Monday, UTC)"
      />

      <div className="overflow-x-auto">
        <table className="w-full min-w-[20rem] text-left text-sm">
          <caption className="sr-only">Intakes and adoptions per week, oldest first</caption>
          <thead className="border-b border-stone-300 text-stone-700">
            <tr>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Week
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-semibold">
                Intakes
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Adoptions
              </th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w, i) => (
              <tr key={w.week} className="border-b border-stone-100">
                <th scope="row" className="py-1.5 pr-4 font-normal">
                  <time dateTime={w.week}>{weekLabelLong.format(monday(w.week))}</time>
                  {i === weeks.length - 1 ? <span className="text-stone-600"> (this week, so far)</span> : null}
                </th>
                <td className="py-1.5 pr-4 text-right tabular-nums">{w.intakes}</td>
                <td className="py-1.5 text-right tabular-nums">{w.adoptions}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="font-semibold">
              <th scope="row" className="py-2 pr-4">
                Total
              </th>
              <td className="py-2 pr-4 text-right tabular-nums">{totals.intakes}</td>
              <td className="py-2 text-right tabular-nums">{totals.adoptions}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
