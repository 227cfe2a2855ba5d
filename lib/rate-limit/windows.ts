// Fixed windows aligned to UTC: a minute window opens at :00 of each minute,
// a day window at 00:00 UTC. Aligned windows need no per-caller state to know
// when they reset, and every app instance agrees on them.

export type WindowName = "minute" | "hour" | "day";

export interface Window {
  /** "fence": a short window of lib/replicas.ts (read-your-writes), of its own length. */
  name: WindowName | "fence";
  start: Date;
  end: Date;
  seconds: number;
}

const LENGTH_MS: Record<WindowName, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export function windowAt(name: WindowName, now: Date): Window {
  const length = LENGTH_MS[name];
  const start = Math.floor(now.getTime() / length) * length;
  return { name, start: new Date(start), end: new Date(start + length), seconds: length / 1000 };
}

/** The window of `seconds` (aligned to the epoch) that holds `now`, `back` windows earlier. */
export function shortWindowAt(seconds: number, now: Date, back = 0): Window {
  const length = seconds * 1000;
  const start = (Math.floor(now.getTime() / length) - back) * length;
  return { name: "fence", start: new Date(start), end: new Date(start + length), seconds };
}
