import { counterKey, type Counter, type CounterStore } from "@/lib/rate-limit/store";

/**
 * Counts concurrent hits on the same counters with one statement. A busy
 * caller (a partner's fifty connections, a page's parallel fetches) would
 * otherwise send one upsert per request, all contending for the same row:
 * here, while one round trip for a set of counters is in flight, further
 * hits on it wait and then go together as one "+n". The store returns the
 * new total T, and the n requests take T-n+1 ... T: every request still gets
 * its own exact count, so limits hold exactly, across instances too.
 */
export class CoalescingCounterStore implements CounterStore {
  private readonly waiting = new Map<string, { counters: Counter[]; waiters: { resolve: (counts: number[]) => void; reject: (e: unknown) => void }[] }>();
  private readonly inFlight = new Set<string>();

  constructor(readonly inner: CounterStore) {}

  hit(counters: Counter[], by = 1): Promise<number[]> {
    if (by !== 1) return this.inner.hit(counters, by);
    const signature = counters.map((c) => `${counterKey(c)}@${c.window.start.getTime()}`).join("|");
    return new Promise((resolve, reject) => {
      let batch = this.waiting.get(signature);
      if (!batch) {
        batch = { counters, waiters: [] };
        this.waiting.set(signature, batch);
        // Sent at once when nothing is in flight for these counters (after
        // this tick, so hits of the same tick join); otherwise when it returns.
        if (!this.inFlight.has(signature)) queueMicrotask(() => this.send(signature));
      }
      batch.waiters.push({ resolve, reject });
    });
  }

  private send(signature: string): void {
    const batch = this.waiting.get(signature);
    if (!batch) return;
    this.waiting.delete(signature);
    this.inFlight.add(signature);
    const n = batch.waiters.length;
    this.inner
      .hit(batch.counters, n)
      .then(
        (totals) => batch.waiters.forEach((w, i) => w.resolve(totals.map((t) => t - n + 1 + i))),
        (error: unknown) => batch.waiters.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.inFlight.delete(signature);
        if (this.waiting.has(signature)) this.send(signature);
      });
  }

  sweep(now: Date): Promise<number> {
    return this.inner.sweep(now);
  }

  peek(counters: Counter[]): Promise<number[]> {
    return this.inner.peek(counters);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
