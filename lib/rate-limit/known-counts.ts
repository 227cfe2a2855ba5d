import { setBounded } from "@/lib/bounded-map";
import type { Window } from "@/lib/rate-limit/windows";

// What this process last heard from the shared store about each identity's
// counters, and how many of its own hits on them are still on their way.
// The store alone decides every answer; this only tells the HTTP wrapper,
// before a read runs, whether the answer is known to be "allowed", so that a
// read may run while its hit is counted (lib/http/handler.ts) and a caller
// known to be over its limit costs no work. Counts only grow within a window
// and other instances add to them, so what is known here is a lower bound:
// "over" is certain, "allowed" is as good as the last answer.

interface Known {
  /** The count the store last returned, by window name, with that window's start. */
  windows: Map<string, { start: number; hits: number }>;
  /** Hits sent from this process whose count has not come back yet. */
  pending: number;
}

/** Enough for every caller of a busy instance; an evicted identity is unknown, and an unknown one waits for the store. */
const MAX_IDENTITIES = 20_000;

const known = new Map<string, Known>();

function entry(rateKey: string): Known {
  let found = known.get(rateKey);
  if (!found) {
    found = { windows: new Map(), pending: 0 };
    setBounded(known, rateKey, found, MAX_IDENTITIES);
  }
  return found;
}

export interface KnownBudget {
  rateKey: string;
  limits: { perMinute: number; perDay: number };
}

/**
 * Whether a hit now on each budget's minute and day is known to stay within
 * its limits: the day's count was heard from the store today (an identity
 * this process has not heard of today is unknown), and the last counts plus
 * this process's hits in flight plus this one stay within each limit. A
 * minute not heard of yet is a new window: only this process's hits in
 * flight are known in it.
 */
export function knownWithinLimits(budgets: KnownBudget[], windows: { minute: Window; day: Window }): boolean {
  return budgets.every(({ rateKey, limits }) => {
    const found = known.get(rateKey);
    if (!found) return false;
    const day = found.windows.get("day");
    if (!day || day.start !== windows.day.start.getTime()) return false;
    const minute = found.windows.get("minute");
    const minuteHits = minute && minute.start === windows.minute.start.getTime() ? minute.hits : 0;
    const coming = found.pending + 1;
    return day.hits + coming <= limits.perDay && minuteHits + coming <= limits.perMinute;
  });
}

/** A hit on these identities was sent to the store. */
export function hitsSent(rateKeys: string[]): void {
  for (const rateKey of rateKeys) entry(rateKey).pending++;
}

/** The store answered (counts: each counter's new count) or failed (no counts): the hit is no longer in flight. */
export function hitsAnswered(rateKeys: string[], counts?: { rateKey: string; window: Window; hits: number }[]): void {
  for (const rateKey of rateKeys) {
    const found = known.get(rateKey);
    if (found && found.pending > 0) found.pending--;
  }
  for (const { rateKey, window, hits } of counts ?? []) {
    const found = entry(rateKey);
    const start = window.start.getTime();
    const before = found.windows.get(window.name);
    // Answers can arrive out of order: within a window keep the highest count, and never go back to an older window.
    if (before && (before.start > start || (before.start === start && before.hits >= hits))) continue;
    found.windows.set(window.name, { start, hits });
  }
}

/** Test hook: forget everything (a test that pins the clock back, or installs another store, starts from nothing). */
export function forgetKnownCounts(): void {
  known.clear();
}
