import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { GET as healthz } from "@/app/healthz/route";
import { GET as readyz } from "@/app/readyz/route";
import { disconnectDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { CHECK_TIMEOUT_MS } from "@/lib/health";
import { closeResources, onShutdown, startDraining } from "@/lib/lifecycle";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { PostgresCounterStore } from "@/lib/rate-limit/postgres-store";

// Liveness never touches a dependency; readiness reports each one, and
// turns 503 when one is away or the instance is draining.

const lifecycle = () => (globalThis as unknown as Record<symbol, { draining: boolean }>)[Symbol.for("petstore.lifecycle")]!;

const DATABASE_URL = process.env.DATABASE_URL!;
/** A PostgreSQL URL on which nothing listens (port 1). */
const NOWHERE = "postgresql://postgres:postgres@127.0.0.1:1/none";

afterEach(async () => {
  lifecycle().draining = false;
  vi.unstubAllEnvs();
  resetEnvCache();
  await setCounterStore(undefined);
});

afterAll(async () => {
  await disconnectDb();
});

async function readiness() {
  const res = await readyz();
  expect(res.headers.get("content-type")).toBe("application/json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get("retry-after") };
}

describe("GET /healthz", () => {
  it("answers 200 without touching the database (it works with the database unreachable)", async () => {
    vi.stubEnv("DATABASE_URL", NOWHERE);
    resetEnvCache();
    await disconnectDb();
    const res = healthz();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    await disconnectDb();
  });
});

describe("GET /readyz", () => {
  it("is 200 with each dependency named when PostgreSQL and the counter store answer", async () => {
    const { status, body } = await readiness();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "ready",
      checks: { database: { status: "up" }, counterStore: { status: "up", kind: "postgres" } },
    });
  });

  it("is 503 naming the database when PostgreSQL cannot be reached, without internals", async () => {
    vi.stubEnv("DATABASE_URL", NOWHERE);
    resetEnvCache();
    await disconnectDb();
    // The counter store keeps its own (working) pool.
    await setCounterStore(new PostgresCounterStore(DATABASE_URL));
    const { status, body, retryAfter } = await readiness();
    expect(status).toBe(503);
    expect(retryAfter).toBe("5");
    expect(body).toMatchObject({ status: "not_ready", checks: { database: { status: "down" } } });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|:1\b|password/i);
    await disconnectDb();
  });

  it("is 503 naming the counter store when it cannot be reached", async () => {
    await setCounterStore(new PostgresCounterStore(NOWHERE));
    const { status, body } = await readiness();
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "not_ready", checks: { database: { status: "up" }, counterStore: { status: "down", reason: "error" } } });
  });

  it("gives up on a dependency that hangs after a short timeout", async () => {
    await setCounterStore({
      hit: async () => [],
      peek: async () => [],
      sweep: async () => 0,
      close: async () => {},
      ping: () => new Promise<void>(() => {}),
    });
    const started = Date.now();
    const { status, body } = await readiness();
    expect(Date.now() - started).toBeLessThan(CHECK_TIMEOUT_MS + 1_000);
    expect(status).toBe(503);
    expect(body).toMatchObject({ checks: { counterStore: { status: "down", reason: "timeout" } } });
  });

  it("is 503 draining as soon as shutdown begins, whatever the dependencies say", async () => {
    startDraining();
    const { status, body } = await readiness();
    expect(status).toBe(503);
    expect(body).toEqual({ status: "draining" });
  });
});

describe("shutdown hooks", () => {
  it("close background work first, then pools; a hanging or failing one does not stop the rest", async () => {
    const order: string[] = [];
    onShutdown("test pool", async () => void order.push("pool"), 10);
    onShutdown("test hang", () => new Promise(() => {}), 5);
    onShutdown(
      "test fail",
      async () => {
        throw new Error("boom");
      },
      7,
    );
    onShutdown("test work", async () => void order.push("work"), 0);
    const logged: string[] = [];
    await closeResources(50, (line) => logged.push(line));
    expect(order).toEqual(["work", "pool"]);
    expect(logged).toEqual(expect.arrayContaining(["test hang: did not close within 50 ms", "test fail: boom"]));
  });
});
