// The times of a file's intakes and outcomes. A shelter's export writes a
// day (M/D/YYYY or YYYY-MM-DD) or, rarely, an instant (RFC 3339 with its
// offset); a day is that day in the organisation's time zone (decision 023:
// stored as its midnight there, so the report never shifts it).

/** A cell as the file gives it: a day, or an instant (with its day as written). */
export type StayTime = { day: string; at: null } | { day: string; at: string };

function realDay(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** null for an empty cell; undefined for one that is none of M/D/YYYY, YYYY-MM-DD or RFC 3339. */
export function readStayTime(cell: string): StayTime | null | undefined {
  const v = cell.trim();
  if (v === "") return null;
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (m) {
    const day = realDay(Number(m[3]), Number(m[1]), Number(m[2]));
    return day ? { day, at: null } : undefined;
  }
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m) {
    const day = realDay(Number(m[1]), Number(m[2]), Number(m[3]));
    return day ? { day, at: null } : undefined;
  }
  m = RFC3339.exec(v);
  if (m) {
    const day = realDay(Number(m[1]), Number(m[2]), Number(m[3]));
    const at = new Date(v.replace(" ", "T"));
    if (!day || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 60 || Number.isNaN(at.getTime())) return undefined;
    return { day, at: at.toISOString() };
  }
  return undefined;
}

/** One formatter a zone: making one costs far more than using it, and a history file reads a date or two a row. */
const clocks = new Map<string, Intl.DateTimeFormat>();

/** How far `zone`'s clock is ahead of UTC at `instant`, in ms. */
function offsetAt(zone: string, instant: number): number {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clocks.set(zone, clock);
  }
  const parts = clock.formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - Math.floor(instant / 1000) * 1000;
}

/** The instant a day starts in `zone` (its midnight; the first moment of it where a change of clocks skips midnight). */
export function startOfDay(day: string, zone: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  let guess = wall - offsetAt(zone, wall);
  guess = wall - offsetAt(zone, guess);
  // A zone whose clocks jump over midnight: the day starts at the jump.
  if (new Date(guess + offsetAt(zone, guess)).toISOString().slice(0, 10) !== day) guess += 3_600_000;
  return new Date(guess);
}

/** The instant a stay time stands for in the organisation's zone. */
export function instantOf(time: StayTime, zone: string): Date {
  return time.at ? new Date(time.at) : startOfDay(time.day, zone);
}
