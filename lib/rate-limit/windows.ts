// Fixed windows aligned to UTC: a minute window opens at :00 of each minute,
// a day window at 00:00 UTC. Aligned windows need no per-caller state to know
// when they reset, and every app instance agrees on them.

export type WindowName = "minute" | "hour" | "day";

export interface Window {
  name: WindowName;
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
