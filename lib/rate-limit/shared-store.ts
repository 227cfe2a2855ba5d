import { runInBackground } from "@/lib/background";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { onShutdown } from "@/lib/lifecycle";
import { CoalescingCounterStore } from "@/lib/rate-limit/coalesce";
import { forgetKnownCounts } from "@/lib/rate-limit/known-counts";
import { PostgresCounterStore } from "@/lib/rate-limit/postgres-store";
import { RedisCounterStore } from "@/lib/rate-limit/redis-store";
import { countersFor, type CounterStore } from "@/lib/rate-limit/store";
import { windowAt } from "@/lib/rate-limit/windows";

// The one counter store of this process, shared with every other instance
// through PostgreSQL or Redis.

const globalStore = globalThis as unknown as { petstoreCounterStore?: CounterStore; petstoreSweeper?: NodeJS.Timeout };

/** The shared store: Redis when REDIS_URL is set, PostgreSQL otherwise. */
export function counterStore(): CounterStore {
  if (!globalStore.petstoreCounterStore) {
    const { REDIS_URL, DATABASE_URL } = env();
    globalStore.petstoreCounterStore = new CoalescingCounterStore(
      REDIS_URL ? new RedisCounterStore(REDIS_URL, deploymentNamespace) : new PostgresCounterStore(DATABASE_URL!),
    );
    // Old windows are deleted once a minute per instance so the table does
    // not grow without bound; unref'd so it never keeps a process alive.
    globalStore.petstoreSweeper = setInterval(() => {
      runInBackground("sweep rate-limit counters", () => counterStore().sweep(new Date()));
    }, 60_000);
    globalStore.petstoreSweeper.unref();
    onShutdown("rate-limit counter store", () => setCounterStore(undefined));
  }
  return globalStore.petstoreCounterStore;
}

/** This database's namespace, which names its counters in a shared Redis (read once per process). */
export async function deploymentNamespace(): Promise<string> {
  // The migration made the row; made again here if it was ever deleted (every
  // instance agrees on whichever row exists: the insert never replaces one).
  await db().$executeRaw`INSERT INTO deployment DEFAULT VALUES ON CONFLICT (id) DO NOTHING`;
  const row = await db().deployment.findUniqueOrThrow({ where: { id: true }, select: { namespace: true } });
  return row.namespace;
}

/** Test hook: use another store (or go back to the configured one with undefined). */
export async function setCounterStore(store: CounterStore | undefined): Promise<void> {
  const previous = globalStore.petstoreCounterStore;
  // Another store holds other counts: what this process heard from the last one no longer says anything.
  forgetKnownCounts();
  const unwrap = (s: CounterStore | undefined) => (s instanceof CoalescingCounterStore ? s.inner : s);
  // Installed stores are coalesced too, so tests exercise what production runs.
  globalStore.petstoreCounterStore = store && !(store instanceof CoalescingCounterStore) ? new CoalescingCounterStore(store) : store;
  if (!store && globalStore.petstoreSweeper) clearInterval(globalStore.petstoreSweeper);
  if (previous && unwrap(previous) !== unwrap(store)) await previous.close().catch(() => {});
}

/** Requests counted today (UTC) for each API key id, for staff views. */
export async function usageToday(keyIds: number[], now: Date): Promise<Map<number, number>> {
  const day = windowAt("day", now);
  const usage = new Map<number, number>();
  await Promise.all(
    keyIds.map(async (id) => {
      const [count] = await counterStore().peek(countersFor(`key:${id}`, [day]));
      usage.set(id, count ?? 0);
    }),
  );
  return usage;
}
