import os from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

// Background work yields to requests. Webhook deliveries run in the same
// processes as the API (every instance and worker takes jobs), and on two
// cores one costs more than half a create's machine time (an HTTP exchange,
// its signature, its rows, the receiver's side when it shares the host:
// docs/decisions/006). While the machine's CPUs are saturated and this process has
// requests to answer, a delivery it starts takes CPU from them; so a delivery
// job first waits while that lasts, a bounded time, then goes anyway.
//
// - Saturated means over the last second, not the last instant: short
//   spikes happen at any load on a shared machine, and waiting on them only
//   added latency at 50 changes a second without saving anything.
// - The machine's CPUs, not this process's event loop: a create's time is
//   also spent in PostgreSQL and in the other workers on the same cores.
// - Busy with deliveries alone (no requests in flight), a process does not
//   wait: a backlog drains at full speed.
// - A waiting job holds one of the worker's slots, so under a sustained burst
//   deliveries go on at a few dozen a second per instance (the slots, each
//   released after MAX_YIELD_MS) instead of stopping; when the burst ends, the
//   backlog drains within seconds. Nothing is lost either way: the events are
//   in the feed and the deliveries in their table.

/** CPU utilisation (all cores, averaged over WINDOW_MS) above which the machine counts as saturated. */
export const BUSY_UTILISATION = 0.9;
/** How often the CPUs are sampled, and how often a waiting job looks again. */
const SAMPLE_MS = 100;
/** The window utilisation is averaged over. */
const WINDOW_MS = 1_000;
/** The longest a job waits for a quieter moment before it runs anyway (deliveries never stop). */
export const MAX_YIELD_MS = 5_000;

export interface UtilisationSource {
  /** The fraction of the last WINDOW_MS the CPUs were busy (0..1). */
  current(): number;
  /** Requests being answered right now. */
  requests(): number;
  stop(): void;
}

export interface CpuTimes {
  busy: number;
  total: number;
}

function machineCpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/**
 * Samples the CPUs every SAMPLE_MS and reports their utilisation over the
 * last WINDOW_MS; `requests` counts the process's requests in flight. `read`
 * is replaceable for tests.
 */
export function cpuUtilisation(requests: () => number, read: () => CpuTimes = machineCpuTimes): UtilisationSource {
  const samples: CpuTimes[] = [read()];
  const keep = Math.round(WINDOW_MS / SAMPLE_MS) + 1;
  const timer = setInterval(() => {
    samples.push(read());
    if (samples.length > keep) samples.shift();
  }, SAMPLE_MS);
  timer.unref();
  return {
    current: () => utilisationBetween(samples[0]!, samples.at(-1)!),
    requests,
    stop: () => clearInterval(timer),
  };
}

export function utilisationBetween(from: CpuTimes, to: CpuTimes): number {
  const total = to.total - from.total;
  return total > 0 ? (to.busy - from.busy) / total : 0;
}

/**
 * Resolves when the process is not saturated, or after `maxMs` at most; early
 * when `signal` aborts (shutdown: the job then hands its work back). Returns
 * how long it waited.
 */
export async function yieldToRequests(source: UtilisationSource, options: { maxMs?: number; signal?: AbortSignal; pollMs?: number } = {}): Promise<number> {
  const maxMs = options.maxMs ?? MAX_YIELD_MS;
  const pollMs = options.pollMs ?? SAMPLE_MS;
  const started = performance.now();
  const saturated = () => source.current() > BUSY_UTILISATION && source.requests() > 0;
  while (saturated() && performance.now() - started < maxMs && !options.signal?.aborted) {
    await sleep(pollMs, undefined, { signal: options.signal }).catch(() => {});
  }
  return performance.now() - started;
}
