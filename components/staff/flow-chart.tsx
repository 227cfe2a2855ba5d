import type { DashboardWeek } from "@/lib/dashboard/schemas";

// Intakes and adoptions per week, drawn on the server as SVG: no chart
// library reaches the browser. The same figures follow in a table (a Week
// column), which is what a screen reader reads; the drawing is one image
// with a summary.

const WIDTH = 720;
const HEIGHT = 260;
const PLOT = { left: 40, right: 12, top: 12, bottom: 40 };
const COLOURS = { intakes: "#047857", adoptions: "#b45309" }; // emerald-700, amber-700: AA on white

const weekLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const weekLabelLong = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const monday = (week: string) => new Date(`${week}T00:00:00Z`);

/** A round top for the axis (1, 2, 5 × 10^n) with whole-number steps. */
function axisTop(max: number): { top: number; step: number } {
  if (max <= 4) return { top: 4, step: 1 };
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 5, 10]) {
    const step = (factor * magnitude) / 4;
    if (Number.isInteger(step) && step * 4 >= max) return { top: step * 4, step };
  }
  const step = Math.ceil(max / 4);
  return { top: step * 4, step };
}

export function FlowChart({ weeks, headingId }: { weeks: DashboardWeek[]; headingId: string }) {
  const { top, step } = axisTop(Math.max(0, ...weeks.flatMap((w) => [w.intakes, w.adoptions])));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / weeks.length;
  const bar = Math.min(18, slot / 2 - 4);
  const y = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  const totals = weeks.reduce((sum, w) => ({ intakes: sum.intakes + w.intakes, adoptions: sum.adoptions + w.adoptions }), { intakes: 0, adoptions: 0 });
  const summary = `Bar chart: ${totals.intakes} intakes and ${totals.adoptions} adoptions over the last ${weeks.length} weeks. The table below gives each week's figures.`;

  return (
    <div className="space-y-4">
      <ul className="flex flex-wrap gap-4 text-sm text-stone-800" aria-hidden="true">
        {(["intakes", "adoptions"] as const).map((series) => (
          <li key={series} className="flex items-center gap-2">
            <span className="inline-block h-3 w-3 rounded-sm" style={{ background: COLOURS[series] }} />
            {series === "intakes" ? "Intakes (stays begun)" : "Adoptions"}
          </li>
        ))}
      </ul>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="img" aria-label={summary} aria-describedby={headingId}>
        {Array.from({ length: top / step + 1 }, (_, i) => i * step).map((value) => (
          <g key={value}>
            <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(value)} y2={y(value)} stroke={value === 0 ? "#57534e" : "#e7e5e4"} />
            <text x={PLOT.left - 6} y={y(value)} dy="0.32em" textAnchor="end" fontSize="12" fill="#44403c">
              {value}
            </text>
          </g>
        ))}
        {weeks.map((w, i) => {
          const x = PLOT.left + i * slot + slot / 2;
          return (
            <g key={w.week}>
              {(["intakes", "adoptions"] as const).map((series, s) => {
                const value = w[series];
                const height = y(0) - y(value);
                return (
                  <rect key={series} x={s === 0 ? x - bar - 1 : x + 1} y={y(value)} width={bar} height={height} rx="2" fill={COLOURS[series]}>
                    <title>{`${series === "intakes" ? "Intakes" : "Adoptions"}, week of ${weekLabel.format(monday(w.week))}: ${value}`}</title>
                  </rect>
                );
              })}
              <text x={x} y={HEIGHT - PLOT.bottom + 18} textAnchor="middle" fontSize="11" fill="#44403c">
                {weekLabel.format(monday(w.week))}
              </text>
            </g>
          );
        })}
        <text x={PLOT.left + plotWidth / 2} y={HEIGHT - 4} textAnchor="middle" fontSize="12" fill="#44403c">
          Week starting (Monday, UTC)
        </text>
      </svg>

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
