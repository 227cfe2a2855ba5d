/**
 * Runs a test command with TEST_DATABASE_URL naming a PostgreSQL server the
 * tests may create databases on: the one given, or the embedded server when
 * none is. Test suites create, migrate and drop their own databases there
 * (never the development database "petstore").
 */
import { spawn } from "node:child_process";
import { ROOT, assertLocalDatabase, loadDotEnv, openServer } from "./database";

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [command, ...args] = argv[0] === "--" ? argv.slice(1) : argv;
  if (!command) throw new Error("usage: with-test-db.ts -- <command> [args...]");
  loadDotEnv();
  const given = process.env.TEST_DATABASE_URL || undefined;
  if (given) assertLocalDatabase(given);
  const server = await openServer(given, "test", (line) => console.error(line));
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE_URL: server.adminUrl, NEXT_TELEMETRY_DISABLED: "1" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    void server.stop().finally(() => process.exit(code ?? (signal ? 1 : 0)));
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
