/**
 * Runs a test command with TEST_DATABASE_URL naming a PostgreSQL server the
 * tests may create databases on: the one given, or the embedded server when
 * none is. Test suites create, migrate and drop their own databases there
 * (never the development database "petstore").
 *
 * Likewise TEST_REDIS_URL for the Redis counter-store tests: the one given,
 * or a throw-away redis-server when the machine has one; with neither, those
 * tests are skipped (and say so).
 */
import "./require-node";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { ROOT, assertLocalDatabase, freePort, loadDotEnv, openServer } from "./database";

/** A redis-server of our own, in memory only, when one is installed; resolves once it accepts connections. */
async function startThrowawayRedis(): Promise<{ url: string; process: ChildProcess } | undefined> {
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("Ready to accept connections") && resolve());
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code})`)));
  });
  child.stdout!.resume();
  return { url: `redis://127.0.0.1:${port}/0`, process: child };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [command, ...args] = argv[0] === "--" ? argv.slice(1) : argv;
  if (!command) throw new Error("usage: with-test-db.ts -- <command> [args...]");
  loadDotEnv();
  const given = process.env.TEST_DATABASE_URL || undefined;
  if (given) assertLocalDatabase(given);
  const server = await openServer(given, "test", (line) => console.error(line));
  const redis = process.env.TEST_REDIS_URL ? undefined : await startThrowawayRedis().catch(() => undefined);
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: {
      ...process.env,
      TEST_DATABASE_URL: server.adminUrl,
      ...(redis ? { TEST_REDIS_URL: redis.url } : {}),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    redis?.process.kill("SIGTERM");
    void server.stop().finally(() => process.exit(code ?? (signal ? 1 : 0)));
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
