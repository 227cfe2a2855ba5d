/**
 * The primary of a multi-worker server (scripts/server.ts with
 * WEB_CONCURRENCY > 1): it forks the workers, which share the port through
 * node:cluster, and does little else. It restarts a worker that dies
 * (unless they keep dying at once), announces readiness when every worker
 * listens, sums the workers' metrics for whichever worker is scraped
 * (lib/metrics.ts), and on SIGTERM or SIGINT passes the signal on, waits for
 * each worker's graceful shutdown, and exits 0.
 */
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { serveClusterMetrics } from "@/lib/metrics";

/** How many workers: WEB_CONCURRENCY, or one per core. */
export function workerCount(): number {
  return env().WEB_CONCURRENCY ?? os.availableParallelism();
}

export async function runPrimary(count: number, port: number, shutdownTimeoutMs: number): Promise<void> {
  // Every worker names its database connections after this instance.
  process.env.PETSTORE_INSTANCE = `petstore:${process.pid}`;
  // A scrape of /metrics reaches one worker, which asks here for all of theirs.
  serveClusterMetrics();
  let stopping = false;
  const listening = new Set<number>();
  let announced = false;
  const recentDeaths: number[] = [];

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on("listening", () => {
      listening.add(worker.id);
      if (!announced && listening.size >= count) {
        announced = true;
        console.log(`✓ Ready on http://localhost:${port} (production, ${count} workers)`);
      }
    });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) return;
    // A worker that dies is replaced; one that dies right after starting,
    // again and again, is a broken deployment: stop instead of spinning.
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length && recentDeaths[0]! < now - 60_000) recentDeaths.shift();
    logger().error({ workerPid: worker.process.pid, code, signal }, "worker died");
    if (recentDeaths.length > count * 3) {
      logger().fatal("workers keep dying: stopping the server");
      void stop("SIGTERM", 1);
      return;
    }
    fork();
  });

  async function stop(signal: NodeJS.Signals, exitCode = 0): Promise<void> {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    const exited = Promise.all(workers.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once("exit", () => resolve())))));
    for (const w of workers) w.process.kill(signal === "SIGINT" ? "SIGTERM" : signal);
    // Workers bound their own drain by SHUTDOWN_TIMEOUT_MS; this bounds theirs.
    const timer = setTimeout(() => {
      for (const w of workers) if (!w.isDead()) w.process.kill("SIGKILL");
    }, shutdownTimeoutMs + 5_000);
    timer.unref();
    await exited;
    clearTimeout(timer);
    process.exit(exitCode);
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  for (let i = 0; i < count; i++) fork();
}
