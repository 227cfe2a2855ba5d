import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { isDraining } from "@/lib/lifecycle";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { replicaStatus, replicasConfigured, type ReplicaStatus } from "@/lib/replicas";
import { counterStore } from "@/lib/rate-limit/shared-store";

// Liveness and readiness for load balancers and orchestrators (outside /v1,
// never rate-limited, never touching a session). Liveness says only that the
// process answers; readiness says whether it can serve: PostgreSQL and the
// counter store each answer within CHECK_TIMEOUT_MS, and it is not shutting down.

export const CHECK_TIMEOUT_MS = 1_000;

export interface CheckResult {
  status: "up" | "down";
  /** Why it is down, in a word: no internals (addresses, messages) leave the process. */
  reason?: "timeout" | "error";
  ms: number;
}

export interface Readiness {
  status: "ready" | "not_ready" | "draining";
  checks?: {
    database: CheckResult;
    counterStore: CheckResult & { kind: "postgres" | "redis" };
    /** Each read replica as its last check found it (DATABASE_REPLICA_URL). Informative: reads fall back to the primary, so they never make the instance unready. */
    replicas?: ReplicaStatus[];
  };
}

async function check(name: string, probe: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), CHECK_TIMEOUT_MS);
  });
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const outcome = await Promise.race([probe().then(() => "up" as const), timeout]);
    if (outcome === "timeout") {
      logger().warn({ check: name, timeoutMs: CHECK_TIMEOUT_MS }, "readiness check timed out");
      return { status: "down", reason: "timeout", ms: elapsed() };
    }
    return { status: "up", ms: elapsed() };
  } catch (error) {
    logger().warn({ check: name, err: error }, "readiness check failed");
    return { status: "down", reason: "error", ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(): Promise<Readiness> {
  const result = await checkReadiness();
  // What the load balancer was last told, for an alert on flapping.
  metrics().ready.set(result.status === "ready" ? 1 : 0);
  return result;
}

async function checkReadiness(): Promise<Readiness> {
  // A draining instance must leave the pool whatever its dependencies say.
  if (isDraining()) return { status: "draining" };
  const [database, store] = await Promise.all([check("database", () => db().$queryRaw`SELECT 1`), check("counterStore", () => counterStore().ping())]);
  const checks = {
    database,
    counterStore: { ...store, kind: env().REDIS_URL ? ("redis" as const) : ("postgres" as const) },
    ...(replicasConfigured() ? { replicas: replicaStatus() } : {}),
  };
  // Draining may have begun while the checks ran.
  if (isDraining()) return { status: "draining", checks };
  return { status: database.status === "up" && store.status === "up" ? "ready" : "not_ready", checks };
}

export const HEALTH_HEADERS = { "Cache-Control": "no-store", "Content-Type": "application/json" } as const;
