import type { Window } from "@/lib/rate-limit/windows";

/** One counter: an identity (a key, a session, an address) in one window. */
export interface Counter {
  rateKey: string;
  window: Window;
}

/**
 * Where hits are counted: shared by every app instance. `hit` adds `by`
 * (one request, or a batch of them: lib/rate-limit/coalesce.ts) to each
 * counter (a caller's minute and day, and for anonymous sessions its
 * address's too) and returns the new counts in the same order, in one
 * atomic round trip, so concurrent requests see distinct counts.
 */
export interface CounterStore {
  hit(counters: Counter[], by?: number): Promise<number[]>;
  /** Forgets counters whose window ended before `now`; returns how many. */
  sweep(now: Date): Promise<number>;
  /** Counts without adding (for staff: today's usage). */
  peek(counters: Counter[]): Promise<number[]>;
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

export const counterKey = ({ rateKey, window }: Counter) => `${rateKey}:${window.name}`;

/** Helper for the common case: one identity in several windows. */
export const countersFor = (rateKey: string, windows: Window[]): Counter[] => windows.map((window) => ({ rateKey, window }));
