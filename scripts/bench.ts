/**
 * `npm run bench`: throughput and latency of the API on a production build
 * and a seeded database, with the rate limiter on and off in one run, so its
 * cost is measured rather than guessed.
 *
 *   BENCH_DURATION=10   seconds per case      BENCH_CONNECTIONS=20
 *   BENCH_PETS=10000    animals in the database (paging depth matters)
 *
 * It creates its own database ("petstore_bench") on the embedded server, or
 * on DATABASE_URL's server, and drops it at the end.
 *
 * `npm run bench -- --webhooks` measures webhook delivery instead (scripts/bench-webhooks.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { ROOT, createDatabaseIfMissing, dropDatabase, loadDotEnv, openServer, withDatabaseName } from "./database";
import { generateClientIfStale, localSessionSecret, run } from "./launch";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PETS = Number(process.env.BENCH_PETS ?? 10_000);
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const BIN = path.join(ROOT, "node_modules", ".bin");

interface Case {
  name: string;
  method?: "GET" | "POST";
  path: string;
  body?: string;
  auth?: boolean;
}

async function seedMany(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Set-based insert: 10,000 animals in one statement, spread over categories and statuses.
  await client.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT 'Bench pet ' || g, (SELECT id FROM categories ORDER BY id LIMIT 1 OFFSET (g % 6)),
            (ARRAY['available','pending','sold'])[1 + g % 3]::"PetStatus"
     FROM generate_series(1, $1::int) AS g`,
    [PETS],
  );
  await client.query("ANALYZE pets");
  await client.end();
}

function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "server.ts"), "start"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready on")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code})`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function measure(c: Case, key: string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}${c.path}`,
    method: c.method ?? "GET",
    body: c.body,
    headers: {
      ...(c.auth === false ? {} : { authorization: `Bearer ${key}` }),
      ...(c.body ? { "content-type": "application/json" } : {}),
    },
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main(): Promise<void> {
  loadDotEnv();
  const server = await openServer(process.env.DATABASE_URL || undefined, "dev", (l) => console.error(l));
  const url = withDatabaseName(server.adminUrl, "petstore_bench");
  const env = {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: "production",
    PORT: String(PORT),
    LOG_LEVEL: "silent",
    NEXT_TELEMETRY_DISABLED: "1",
    SESSION_SECRET: process.env.SESSION_SECRET ?? localSessionSecret(),
  } as NodeJS.ProcessEnv;
  try {
    await dropDatabase(url);
    await createDatabaseIfMissing(url);
    generateClientIfStale();
    run(path.join(BIN, "prisma"), ["migrate", "deploy"], env);
    run(process.execPath, ["--import", "tsx", path.join(ROOT, "prisma", "seed.ts")], env);
    await seedMany(url);
    run(path.join(BIN, "next"), ["build"], env);

    // The key's figures are far above what a run can send, so the limiter
    // does all its work (count, compare, headers) without ever refusing.
    const keyOut = spawnSyncOut(["keys", "create", "--name", "bench", "--plan", "enterprise", "--per-minute", "100000000", "--per-day", "100000000"], env);
    const key = keyOut.trim().split("\n").at(-1)!;
    const deepCursor = Buffer.from(JSON.stringify({ v: 1, d: "after", id: Math.floor(PETS / 2) })).toString("base64url");

    const cases: Case[] = [
      { name: "list (limit 20)", path: "/v1/pets" },
      { name: "list status=available", path: "/v1/pets?status=available&limit=20" },
      { name: "list deep page (cursor)", path: `/v1/pets?limit=20&cursor=${deepCursor}` },
      { name: "get one (deprecated)", path: "/v1/pets/1" },
      { name: "create", method: "POST", path: "/v1/pets", body: JSON.stringify({ name: "Bench", categoryId: 1 }) },
    ];

    const rows: Record<string, string | number>[] = [];
    const listRps: Record<string, number> = {};
    for (const limiter of ["on", "off"] as const) {
      const child = await startServer({ ...env, RATE_LIMIT_ENABLED: limiter === "on" ? "true" : "false" });
      try {
        // Warm up: first requests compile routes and fill pools.
        await autocannon({ url: `http://127.0.0.1:${PORT}/v1/pets`, headers: { authorization: `Bearer ${key}` }, amount: 200, connections: 10 });
        for (const c of cases) {
          const m = await measure(c, key);
          if (c.name === "list (limit 20)") listRps[limiter] = m.rps;
          rows.push({ case: c.name, limiter, "req/s": m.rps, "p50 ms": m.p50, "p90 ms": m.p90, "p99 ms": m.p99, "non-2xx": m.non2xx, errors: m.errors });
          console.error(`  ${c.name} (limiter ${limiter}): ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms`);
        }
      } finally {
        await stopServer(child);
      }
    }
    console.log(`\nPetstore benchmark: ${DURATION}s per case, ${CONNECTIONS} connections, ${PETS} seeded animals, production build\n`);
    console.table(rows);
    const ratio = listRps.on! / listRps.off!;
    console.log(`List throughput with the limiter on / off: ${listRps.on} / ${listRps.off} req/s = ${(ratio * 100).toFixed(1)}%`);
  } finally {
    await dropDatabase(url).catch(() => {});
    await server.stop();
  }
}

function spawnSyncOut(args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "cli.ts"), ...args], { cwd: ROOT, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

// `npm run bench -- --webhooks`: webhook latency and cost instead (scripts/bench-webhooks.ts).
const selected = process.argv.includes("--webhooks") ? import("./bench-webhooks").then((m) => m.main()) : main();
selected.catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
