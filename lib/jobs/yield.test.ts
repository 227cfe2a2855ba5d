import { afterEach, describe, expect, it, vi } from "vitest";
import { BUSY_UTILISATION, cpuUtilisation, utilisationBetween, yieldToRequests, type CpuTimes, type UtilisationSource } from "@/lib/jobs/yield";

/** A source whose utilisation and requests the test sets. */
function fakeSource(utilisation: number, requests: number) {
  const state = { utilisation, requests };
  const source: UtilisationSource = { current: () => state.utilisation, requests: () => state.requests, stop: () => {} };
  return { source, state };
}

const busy = BUSY_UTILISATION + 0.05;
const quiet = BUSY_UTILISATION - 0.3;

afterEach(() => {
  vi.useRealTimers();
});

describe("utilisation", () => {
  it("is the busy share of the CPU time between two samples", () => {
    expect(utilisationBetween({ busy: 100, total: 1000 }, { busy: 550, total: 1500 })).toBe(0.9);
    expect(utilisationBetween({ busy: 5, total: 10 }, { busy: 5, total: 10 })).toBe(0);
  });

  it("is averaged over the last second, so one busy tenth of a second does not count as saturation", () => {
    vi.useFakeTimers();
    let now: CpuTimes = { busy: 0, total: 0 };
    // Every 100 ms the machine accrues 100 units of CPU time; `share` of them busy.
    const advance = (share: number) => {
      now = { busy: now.busy + 100 * share, total: now.total + 100 };
      vi.advanceTimersByTime(100);
    };
    const source = cpuUtilisation(
      () => 1,
      () => now,
    );
    for (let i = 0; i < 10; i++) advance(0.3);
    expect(source.current()).toBeCloseTo(0.3);
    advance(1);
    expect(source.current()).toBeCloseTo(0.37);
    for (let i = 0; i < 10; i++) advance(1);
    expect(source.current()).toBeCloseTo(1);
    source.stop();
  });
});

describe("yieldToRequests", () => {
  it("does not wait while the machine is not saturated", async () => {
    const { source } = fakeSource(quiet, 20);
    expect(await yieldToRequests(source, { pollMs: 5 })).toBeLessThan(50);
  });

  it("does not wait when the process has no requests to answer (a backlog drains at full speed)", async () => {
    const { source } = fakeSource(1, 0);
    expect(await yieldToRequests(source, { pollMs: 5 })).toBeLessThan(50);
  });

  it("waits while the machine is saturated and requests are in flight, and goes as soon as that ends", async () => {
    const { source, state } = fakeSource(busy, 3);
    let done = false;
    const waited = yieldToRequests(source, { pollMs: 5, maxMs: 10_000 }).then((ms) => {
      done = true;
      return ms;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    state.utilisation = quiet;
    // Went once the machine was quiet, not at the bound (whether it waited is the `done` check above).
    expect(await waited).toBeLessThan(5_000);
  });

  it("waits a bounded time at most: deliveries never stop", async () => {
    const { source } = fakeSource(1, 50);
    const ms = await yieldToRequests(source, { pollMs: 5, maxMs: 60 });
    expect(ms).toBeGreaterThanOrEqual(60);
    expect(ms).toBeLessThan(5_000);
  });

  it("ends at once at shutdown", async () => {
    const { source } = fakeSource(1, 50);
    const shutdown = new AbortController();
    const waited = yieldToRequests(source, { pollMs: 1_000, maxMs: 60_000, signal: shutdown.signal });
    setTimeout(() => shutdown.abort(), 20);
    expect(await waited).toBeLessThan(1_000);
  });
});
