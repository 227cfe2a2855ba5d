import { describe, expect, it } from "vitest";
import { CoalescingCounterStore } from "@/lib/rate-limit/coalesce";
import { countersFor, type Counter, type CounterStore } from "@/lib/rate-limit/store";
import { windowAt } from "@/lib/rate-limit/windows";

/** An in-memory store that records each round trip, answering after a delay. */
function recordingStore() {
  const totals = new Map<string, number>();
  const trips: number[] = [];
  const store: CounterStore = {
    async hit(counters: Counter[], by = 1) {
      trips.push(by);
      await new Promise((r) => setTimeout(r, 5));
      return counters.map((c) => {
        const key = `${c.rateKey}:${c.window.name}`;
        totals.set(key, (totals.get(key) ?? 0) + by);
        return totals.get(key)!;
      });
    },
    sweep: async () => 0,
    peek: async () => [],
    ping: async () => {},
    close: async () => {},
  };
  return { store, trips };
}

const now = new Date("2030-01-01T10:00:30Z");
const windows = [windowAt("minute", now), windowAt("day", now)];

describe("CoalescingCounterStore", () => {
  it("sends concurrent hits on the same counters as a few '+n' round trips, and gives each request its own count", async () => {
    const { store, trips } = recordingStore();
    const coalescing = new CoalescingCounterStore(store);
    const counts = await Promise.all(Array.from({ length: 50 }, () => coalescing.hit(countersFor("key:1", windows))));
    expect(trips.length).toBeLessThanOrEqual(3);
    expect(trips.reduce((a, b) => a + b, 0)).toBe(50);
    expect(counts.map((c) => c[0]).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(counts.map((c) => c[1]).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it("keeps other callers' counters apart", async () => {
    const { store } = recordingStore();
    const coalescing = new CoalescingCounterStore(store);
    const [a, b] = await Promise.all([coalescing.hit(countersFor("key:1", windows)), coalescing.hit(countersFor("key:2", windows))]);
    expect(a).toEqual([1, 1]);
    expect(b).toEqual([1, 1]);
  });

  it("fails every request of a batch whose round trip fails, and recovers for the next", async () => {
    let fail = true;
    const inner: CounterStore = {
      hit: async (counters, by = 1) => {
        await new Promise((r) => setTimeout(r, 2));
        if (fail) throw new Error("store down");
        return counters.map(() => by);
      },
      sweep: async () => 0,
      peek: async () => [],
      ping: async () => {},
      close: async () => {},
    };
    const coalescing = new CoalescingCounterStore(inner);
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => coalescing.hit(countersFor("key:3", windows))));
    expect(failed.every((r) => r.status === "rejected")).toBe(true);
    fail = false;
    expect(await coalescing.hit(countersFor("key:3", windows))).toEqual([1, 1]);
  });
});
