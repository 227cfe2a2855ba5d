import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ROOT, createDatabaseIfMissing, dropDatabase, loadDotEnv, openServer, withDatabaseName, type DatabaseServer } from "./database";
import { generateClientIfStale, localSessionSecret, run } from "./launch";

// What every bench script shares: a seeded database and a production
// server to measure, the CLI, CPU profiles. scripts/bench.ts runs the bench
// scripts; they and it import this module, which imports none of them.

export const PETS = Number(process.env.BENCH_PETS ?? 10_000);
export const PORT = Number(process.env.BENCH_PORT ?? 3200);
export const BIN = path.join(ROOT, "node_modules", ".bin");

export interface BenchEnvironment {
  url: string;
  env: NodeJS.ProcessEnv;
  key: string;
  server: DatabaseServer;
  cleanup(): Promise<void>;
}

/** A database of the bench's own, migrated and seeded, a production build, and an API key with limits no run reaches. */
export async function benchEnvironment(name = process.env.BENCH_DATABASE ?? "petstore_bench", pets = PETS, port = PORT): Promise<BenchEnvironment> {
  loadDotEnv();
  const server = await openServer(process.env.DATABASE_URL || undefined, "dev", (l) => console.error(l));
  const url = withDatabaseName(server.adminUrl, name);
  const env = {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: "production",
    PORT: String(port),
    LOG_LEVEL: "silent",
    NEXT_TELEMETRY_DISABLED: "1",
    SESSION_SECRET: process.env.SESSION_SECRET ?? localSessionSecret(),
  } as NodeJS.ProcessEnv;
  await dropDatabase(url);
  await createDatabaseIfMissing(url);
  generateClientIfStale();
  run(path.join(BIN, "prisma"), ["migrate", "deploy"], env);
  run(process.execPath, ["--import", "tsx", path.join(ROOT, "prisma", "seed.ts")], env);
  if (pets > 0) await seedUniform(url, pets);
  productionBuild(env);
  // Limits far above what a run can send: the limiter does all its work
  // (count, compare, headers) without ever refusing.
  const keyOut = cliOut(
    ["keys", "create", "--name", "bench", "--org", "1", "--plan", "enterprise", "--per-minute", "100000000", "--per-day", "100000000"],
    env,
  );
  const key = keyOut.trim().split("\n").at(-1)!;
  return {
    url,
    env,
    key,
    server,
    cleanup: async () => {
      await dropDatabase(url).catch(() => {});
      await server.stop();
    },
  };
}

/** A production build in .next; BENCH_BUILD=0 keeps the one there as it is (a second case right after the first). */
export function productionBuild(env: NodeJS.ProcessEnv): void {
  if (process.env.BENCH_BUILD !== "0" || !fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) run(path.join(BIN, "next"), ["build"], env);
  else console.error("  BENCH_BUILD=0: using the production build in .next as it is");
}

async function seedUniform(url: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Set-based insert, spread over categories and statuses.
  await client.query(
    `INSERT INTO pets (name, organization_id, category_id, status)
     SELECT 'Bench pet ' || g, (SELECT min(id) FROM organizations), (SELECT id FROM categories ORDER BY id LIMIT 1 OFFSET (g % 6)),
            (ARRAY['available','pending','sold'])[1 + g % 3]::"PetStatus"
     FROM generate_series(1, $1::int) AS g`,
    [count],
  );
  await client.query("VACUUM ANALYZE pets");
  await client.end();
}

export function cliOut(args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "cli.ts"), ...args], { cwd: ROOT, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** The production server as deployments run it (scripts/server.ts), ready when it says so. */
export function startServer(env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", path.join(ROOT, "scripts", "server.ts"), "start"], {
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

export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Where BENCH_PROFILE=1 puts the server's CPU profiles (one per process, written at its exit). */
export const PROFILE_DIR = path.join(ROOT, ".data", "profiles");

/** Node flags for the server: a CPU profile of every process (workers included) when BENCH_PROFILE is set. */
export function profileArgs(): string[] {
  if (!process.env.BENCH_PROFILE) return [];
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  return ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`];
}

/** Organisations a scale bench spreads its animals over (BENCH_SCALE_ORGS). */
export const ORGS = Number(process.env.BENCH_SCALE_ORGS ?? 10_000);

/**
 * ORGS organisations (the seed's demo shelters among them), the others at
 * ZIP code centres drawn at random: a fixed seed, so every run has the same map.
 */
export async function seedOrganizations(client: pg.Client, count = ORGS): Promise<number[]> {
  const { lookUpZip } = await import("@/lib/organizations/zip");
  const existing = Number((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations")).rows[0]!.n);
  // mulberry32: 32-bit integer arithmetic (Math.imul), so the sequence is exact and long.
  let state = 42;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  const places: { zip: string; lat: number; lng: number; city: string; region: string }[] = [];
  const seen = new Set<string>();
  while (places.length < count - existing) {
    const zip = String(next() % 100_000).padStart(5, "0");
    if (seen.has(zip)) continue;
    seen.add(zip);
    const place = await lookUpZip(zip);
    // The 48 contiguous states, Alaska and Hawaii; not military mail codes abroad.
    if (place && place.region && place.lat > 18 && place.lng < -60) places.push(place);
  }
  await client.query(
    `INSERT INTO organizations (name, slug, city, region, postcode, country, lat, lng)
     SELECT 'Bench shelter ' || i, 'bench-shelter-' || i, city, region, zip, 'US', lat, lng
     FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[]) WITH ORDINALITY AS p(zip, city, region, lat, lng, i)`,
    [places.map((p) => p.zip), places.map((p) => p.city), places.map((p) => p.region), places.map((p) => p.lat), places.map((p) => p.lng)],
  );
  await client.query("VACUUM ANALYZE organizations");
  return (await client.query<{ id: string }>("SELECT id FROM organizations WHERE lat IS NOT NULL ORDER BY id")).rows.map((r) => Number(r.id));
}
