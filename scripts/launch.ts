/**
 * The one-command launcher behind `npm start`, `npm run dev` and
 * `npm run with-db -- <command>`.
 *
 *   start  build if needed, migrate, seed an empty database, `next start`
 *   dev    migrate, seed an empty database, `next dev`
 *   exec   run any command with DATABASE_URL pointing at the database
 *
 * When DATABASE_URL is unset it runs an embedded PostgreSQL (data under
 * .data/pg) and stops it after the app, in that order, on Ctrl-C or SIGTERM.
 */
import "./require-node";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { LOCAL_SECRET_FILE, localSecret } from "@/lib/app-secret";
import { ROOT, createDatabaseIfMissing, loadDotEnv, openServer, withDatabaseName, type DatabaseServer } from "./database";

const BIN = path.join(ROOT, "node_modules", ".bin");
const log = (line: string) => console.error(`[petstore] ${line}`);

/** Runs a command to completion, failing loudly on a non-zero exit. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: "inherit" });
  if (result.status !== 0) {
    throw new Error(`\`${path.basename(command)} ${args.join(" ")}\` failed (exit ${result.status ?? result.signal})`);
  }
}

/** The Prisma client is generated code (git-ignored); npm runs no postinstall here, so we generate on demand. */
export function generateClientIfStale(): void {
  const client = path.join(ROOT, "lib", "generated", "prisma", "client.ts");
  const schema = path.join(ROOT, "prisma", "schema.prisma");
  if (fs.existsSync(client) && fs.statSync(client).mtimeMs >= fs.statSync(schema).mtimeMs) return;
  log("Generating the Prisma client ...");
  run(path.join(BIN, "prisma"), ["generate"]);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (full.includes(`${path.sep}generated${path.sep}`)) continue;
    newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** A production build is made when there is none, or the sources changed since. */
function buildIfStale(env: NodeJS.ProcessEnv): void {
  const buildId = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (fs.existsSync(buildId)) {
    const built = fs.statSync(buildId).mtimeMs;
    // Everything the build reads: the source folders, and the files at the
    // top (proxy.ts makes the pages' headers: a change to it alone must rebuild too).
    const files = ["proxy.ts", "next.config.mjs", "postcss.config.mjs", "package-lock.json"].map((f) => path.join(ROOT, f)).filter((f) => fs.existsSync(f));
    const sources = Math.max(...["app", "components", "lib", "pages"].map((d) => newestMtime(path.join(ROOT, d))), ...files.map((f) => fs.statSync(f).mtimeMs));
    if (sources <= built) return;
  }
  log("Building the app (next build) ...");
  run(path.join(BIN, "next"), ["build"], env);
}

/**
 * The session secret of a local setup (the embedded database, or
 * `npm run dev`): made once and kept in .data/, so sessions survive restarts.
 * A deployment sets SESSION_SECRET itself.
 */
export function localSessionSecret(): string {
  // The same file lib/app-secret.ts falls back to, so the CLI and scripts run
  // by hand key their hashes and seals as this server does.
  return localSecret(path.join(ROOT, LOCAL_SECRET_FILE));
}

/** Resolves DATABASE_URL (embedded server when unset) and makes sure the database exists. */
export async function prepareDatabase(): Promise<{ server: DatabaseServer; url: string }> {
  loadDotEnv();
  const given = process.env.DATABASE_URL || undefined;
  const server = await openServer(given, "dev", log);
  const url = given ?? withDatabaseName(server.adminUrl, "petstore");
  if (!given) log(`Using the embedded PostgreSQL in .data/pg (${server.owned ? "started" : "already running"}).`);
  await createDatabaseIfMissing(url);
  return { server, url };
}

/** Applies committed migrations, then seeds the demo data if the database is empty. */
export async function migrateAndSeed(env: NodeJS.ProcessEnv): Promise<void> {
  run(path.join(BIN, "prisma"), ["migrate", "deploy"], env);
  await migrateJobQueue(env.DATABASE_URL!);
  run(process.execPath, ["--import", "tsx", path.join(ROOT, "prisma", "seed.ts")], env);
}

/**
 * graphile-worker's own tables (the graphile_worker schema), which it
 * migrates itself: done here too, so that a request queueing a job (an
 * adoption email) on a new database never runs before the first worker has.
 */
export async function migrateJobQueue(connectionString: string): Promise<void> {
  const { runMigrations } = await import("graphile-worker");
  await runMigrations({ connectionString, logger: new (await import("graphile-worker")).Logger(() => () => {}) });
}

function forward(child: ChildProcess, server: DatabaseServer): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(signal));
  child.on("exit", (code, signal) => {
    void server.stop().finally(() => process.exit(code ?? (signal ? 0 : 1)));
  });
}

/**
 * What a local setup (the embedded database, or `npm run dev`) turns on that
 * a deployment does not, for the variables the operator left unset.
 */
export function localSetupDefaults(given: Record<string, string | undefined>, mode: string): Record<string, string> {
  const defaults: Record<string, string> = {};
  // The embedded database means a local trial: reached over plain HTTP by
  // any name (a phone on the LAN included), where browsers would drop the
  // Secure __Host- cookies of a real deployment. With DATABASE_URL given,
  // the production rules apply unless the operator says otherwise.
  if (!given.DATABASE_URL && given.INSECURE_COOKIES === undefined) defaults.INSECURE_COOKIES = "true";
  // The published demo login belongs to local setups only (lib/staff/demo.ts).
  if ((!given.DATABASE_URL || mode === "dev") && given.SEED_DEMO_STAFF === undefined) defaults.SEED_DEMO_STAFF = "true";
  // Not WEBHOOK_ALLOW_PRIVATE: a local trial is still a server anyone with a
  // webhooks:manage key can point at 127.0.0.1 or the LAN and read the
  // answers in the deliveries log. Who wants a receiver there says so.
  return defaults;
}

export async function main(argv: string[]): Promise<void> {
  const [mode, ...rest] = argv;
  if (mode !== "start" && mode !== "dev" && mode !== "exec") {
    console.error("usage: launch.ts start|dev|exec -- <command> [args...]");
    process.exit(2);
  }
  const { server, url } = await prepareDatabase();
  const env: NodeJS.ProcessEnv = { ...process.env, ...localSetupDefaults(process.env, mode), DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1" };
  if (mode !== "exec" && !env.SESSION_SECRET) {
    if (process.env.DATABASE_URL && mode === "start") {
      log("SESSION_SECRET is required in production: 32+ random characters, the same on every instance (e.g. `openssl rand -base64 48`).");
      await server.stop();
      process.exit(1);
    }
    env.SESSION_SECRET = localSessionSecret();
  }
  try {
    generateClientIfStale();
    if (mode === "exec") {
      const [command, ...args] = rest[0] === "--" ? rest.slice(1) : rest;
      if (!command) throw new Error("exec needs a command");
      forward(spawn(command, args, { cwd: ROOT, env, stdio: "inherit" }), server);
      return;
    }
    await migrateAndSeed(env);
    if (mode === "start") buildIfStale({ ...env, NODE_ENV: "production" });
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    await server.stop();
    process.exit(1);
  }

  const port = process.env.PORT ?? "3000";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "server.ts"), mode], {
    cwd: ROOT,
    env: { ...env, PORT: port, NODE_ENV: mode === "start" ? "production" : "development" },
    stdio: ["inherit", "pipe", "inherit"],
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (chunk.toString().includes("Ready on")) {
      // The server is this process's Node (process.execPath): which one is worth a line, as the system's may be older.
      log(
        `Petstore is up on Node.js ${process.versions.node}: http://localhost:${port}  (API: http://localhost:${port}/v1, docs: http://localhost:${port}/docs)`,
      );
    }
  });
  forward(child, server);
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith("launch.ts")) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
