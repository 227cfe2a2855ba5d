import type { Window } from "@/lib/rate-limit/windows";

/**
 * Where hits are counted: shared by every app instance. `hit` adds one to
 * the caller's counter in each window and returns the new counts, in one
 * atomic round trip, so N concurrent requests see N distinct counts.
 */
export interface CounterStore {
  hit(rateKey: string, windows: Window[]): Promise<number[]>;
  /** Forgets counters whose window ended before `now`; returns how many. */
  sweep(now: Date): Promise<number>;
  /** Counts without adding (for staff: today's usage). */
  peek(rateKey: string, windows: Window[]): Promise<number[]>;
  /** Answers when the store can be reached (readiness); throws otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store failed (unreachable, timed out): the request is answered 503, never let through uncounted. */
export class CounterStoreUnavailable extends Error {
  constructor(cause: unknown) {
    super("rate-limit store unavailable", { cause });
    this.name = "CounterStoreUnavailable";
  }
}

export const counterKey = (rateKey: string, window: Window) => `${rateKey}:${window.name}`;
