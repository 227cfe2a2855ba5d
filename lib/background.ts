import { onShutdown } from "@/lib/lifecycle";
import { logger } from "@/lib/log";

// Work that must not delay a response (bookkeeping such as "last used at").
// Failures are logged, never surfaced to the caller. Tests and graceful
// shutdown can wait for what is still running.

const pending = new Set<Promise<unknown>>();

export function runInBackground(task: string, work: () => Promise<unknown>): void {
  const promise = Promise.resolve()
    .then(work)
    .catch((error: unknown) => logger().warn({ err: error, task }, "background task failed"))
    .finally(() => pending.delete(promise));
  pending.add(promise);
}

export async function flushBackground(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}

// A stopping server finishes its bookkeeping before its pools close.
onShutdown("background tasks", flushBackground, 0);
