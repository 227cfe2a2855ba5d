// The staff pages' charts: groups of bars (one per series) drawn on the
// server as SVG, with an optional line of a rate (0 to 1) over them on a
// right-hand axis. No chart library reaches the browser; each chart is one
// image with a summary, and its page follows it with a table of the same
// figures (what a screen reader reads). The dashboard's weeks and the
// monthly report use it.

export interface ChartSeries {
  name: string;
  /** AA contrast on white. */
  colour: string;
}

export interface ChartGroup {
  key: string;
  /** Under the group, on the axis. */
  label: string;
  /** The group in words, for each bar's tooltip ("week of 3 Nov"). */
  title: string;
  /** One value per series, in the series' order. */
  values: number[];
  /** The line's value for this group (0 to 1), null where there is none. */
  rate?: number | null;
}

/** A round top for the axis (1, 2, 5 × 10^n) with whole-number steps. */
export function axisTop(max: number): { top: number; step: number } {
  if (max <= 4) return { top: 4, step: 1 };
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 5, 10]) {
    const step = (factor * magnitude) / 4;
    if (Number.isInteger(step) && step * 4 >= max) return { top: step * 4, step };
  }
  const step = Math.ceil(max / 4);
  return { top: step * 4, step };
}

/** The series' legend, as a list beside the chart (hidden from screen readers: the table names the columns). */
export function ChartLegend({ series, line }: { series: ChartSeries[]; line?: ChartSeries }) {
  return (
    <ul className="flex flex-wrap gap-4 text-sm text-stone-800" aria-hidden="true">
      {series.map((s) => (
        <li key={s.name} className="flex items-center gap-2">
          <span className="inline-block h-3 w-3 rounded-sm" style={{ background: s.colour }} />
          {s.name}
        </li>
      ))}
      {line ? (
        <li className="flex items-center gap-2">
          <span className="inline-block h-0.5 w-5" style={{ background: line.colour }} />
          {line.name}
        </li>
      ) : null}
    </ul>
  );
}

export function BarChart({
  groups,
  series,
  line,
  summary,
  headingId,
  xTitle,
  width = 720,
  height = 260,
}: {
  groups: ChartGroup[];
  series: ChartSeries[];
  /** A rate drawn over the bars on a 0-100 % axis at the right. */
  line?: ChartSeries;
  summary: string;
  headingId: string;
  xTitle: string;
  width?: number;
  height?: number;
}) {
  const plot = { left: 40, right: line ? 44 : 12, top: 12, bottom: 40 };
  const { top, step } = axisTop(Math.max(0, ...groups.flatMap((g) => g.values)));
  const plotWidth = width - plot.left - plot.right;
  const plotHeight = height - plot.top - plot.bottom;
  const slot = plotWidth / Math.max(1, groups.length);
  const bar = Math.max(2, Math.min(18, (slot - 6) / series.length - 2));
  const y = (value: number) => plot.top + plotHeight - (value / top) * plotHeight;
  const yRate = (rate: number) => plot.top + plotHeight - rate * plotHeight;
  const centre = (i: number) => plot.left + i * slot + slot / 2;
  // The line is broken where a group has no rate (no outcomes that month).
  const segments: string[] = [];
  let current: string[] = [];
  for (const [i, g] of groups.entries()) {
    if (g.rate === null || g.rate === undefined) {
      if (current.length) segments.push(current.join(" "));
      current = [];
    } else current.push(`${current.length ? "L" : "M"}${centre(i).toFixed(1)},${yRate(g.rate).toFixed(1)}`);
  }
  if (current.length) segments.push(current.join(" "));

  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-label={summary} aria-describedby={headingId}>
      {Array.from({ length: top / step + 1 }, (_, i) => i * step).map((value) => (
        <g key={value}>
          <line x1={plot.left} x2={width - plot.right} y1={y(value)} y2={y(value)} stroke={value === 0 ? "#57534e" : "#e7e5e4"} />
          <text x={plot.left - 6} y={y(value)} dy="0.32em" textAnchor="end" fontSize="12" fill="#44403c">
            {value}
          </text>
        </g>
      ))}
      {line
        ? [0, 0.5, 1].map((rate) => (
            <text key={rate} x={width - plot.right + 6} y={yRate(rate)} dy="0.32em" fontSize="12" fill={line.colour}>
              {`${rate * 100}%`}
            </text>
          ))
        : null}
      {groups.map((g, i) => {
        const x = centre(i);
        const start = x - (series.length * (bar + 2)) / 2;
        return (
          <g key={g.key}>
            {series.map((s, k) => {
              const value = g.values[k] ?? 0;
              return (
                <rect key={s.name} x={start + k * (bar + 2) + 1} y={y(value)} width={bar} height={y(0) - y(value)} rx="2" fill={s.colour}>
                  <title>{`${s.name}, ${g.title}: ${value}`}</title>
                </rect>
              );
            })}
            <text x={x} y={height - plot.bottom + 18} textAnchor="middle" fontSize="11" fill="#44403c">
              {g.label}
            </text>
          </g>
        );
      })}
      {line ? segments.map((d) => <path key={d} d={d} fill="none" stroke={line.colour} strokeWidth="2.5" strokeLinejoin="round" />) : null}
      {line
        ? groups.map((g, i) =>
            g.rate === null || g.rate === undefined ? null : (
              <circle key={g.key} cx={centre(i)} cy={yRate(g.rate)} r="3.5" fill={line.colour}>
                <title>{`${line.name}, ${g.title}: ${Math.round(g.rate * 100)}%`}</title>
              </circle>
            ),
          )
        : null}
      <text x={plot.left + plotWidth / 2} y={height - 4} textAnchor="middle" fontSize="12" fill="#44403c">
        {xTitle}
      </text>
    </svg>
  );
}
