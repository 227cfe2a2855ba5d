import { Batcher } from "@/lib/batch";
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
  /** One batch per set of counters; its items are the waiting hits (all on the same counters). */
  private readonly hits = new Batcher<Counter[], number[]>(async (batch) => {
    const n = batch.length;
    const totals = await this.inner.hit(batch[0]!, n);
    return batch.map((_, i) => totals.map((t) => t - n + 1 + i));
  }, Number.MAX_SAFE_INTEGER);

  constructor(readonly inner: CounterStore) {}

  hit(counters: Counter[], by = 1): Promise<number[]> {
    if (by !== 1) return this.inner.hit(counters, by);
    return this.hits.run(counters.map((c) => `${counterKey(c)}@${c.window.start.getTime()}`).join("|"), counters);
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
