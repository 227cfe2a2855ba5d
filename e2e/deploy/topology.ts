import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import pg from "pg";
import { freePort } from "../../scripts/database";

// The deployment recipe of docs/deploy.md, started for real: app instances
// (scripts/server.ts, as `npm run serve` runs it) sharing the e2e database and
// Redis, behind nginx running deploy/nginx.conf as shipped (only its ports
// and scratch directory are changed, so two runs cannot collide).

export const hasNginx = spawnSync("nginx", ["-v"]).status === 0;

/**
 * A database of the test's own on the suite's server, migrated and seeded
 * the way an operator does it (`npm run cli -- db migrate`); returns its URL.
 */
export async function freshDatabase(name: string, extraEnv: Record<string, string> = {}): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: new URL("/postgres", url).toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  const migrated = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "db", "migrate"], {
    env: { ...process.env, DATABASE_URL: url.toString(), ...extraEnv },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (migrated.status !== 0) throw new Error(`db migrate failed:\n${migrated.stderr}`);
  return url.toString();
}

export interface Instance {
  port: number;
  /** The Node process serving (its pid names its database connections: application_name petstore:<pid>). */
  pid: number;
  /** Every line it wrote to standard output (JSON log lines). */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  process: ChildProcess;
}

export interface InstanceOptions {
  env?: Record<string, string>;
  /**
   * Start it as `bash -c 'node ... & wait'` does: a background job of a
   * non-interactive shell, which starts with SIGINT ignored. SIGTERM must
   * still stop it gracefully.
   */
  backgroundOfShell?: boolean;
}

export function appEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    NODE_ENV: "production",
    TRUST_PROXY: "true",
    LOG_LEVEL: "info",
    ...extra,
  };
  if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  return env;
}

export async function startInstance(options: InstanceOptions = {}): Promise<Instance> {
  const port = await freePort();
  const env = appEnv(port, options.env);
  const node = [process.execPath, "--import", "tsx", "scripts/server.ts", "start"];
  const spawnOptions: SpawnOptions = { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "inherit"] };
  const child: ChildProcess = options.backgroundOfShell
    ? spawn("bash", ["-c", `${node.map((a) => `'${a}'`).join(" ")} & echo "pid=$!"; wait`], spawnOptions)
    : spawn(node[0]!, node.slice(1), spawnOptions);
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let pid = options.backgroundOfShell ? 0 : child.pid!;
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        const announced = /^pid=(\d+)$/.exec(line);
        if (announced) pid = Number(announced[1]);
        if (line.includes("Ready on")) resolve();
      }
    });
    void exited.then(({ code }) => reject(new Error(`instance on ${port} exited (${code}) before it was ready`)));
  });
  return { port, pid, output, exited, process: child };
}

/** SIGTERM to the serving Node process itself (not a wrapper), as an orchestrator sends it. */
export async function stopInstance(instance: Instance): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  try {
    process.kill(instance.pid, "SIGTERM");
  } catch {
    // already gone
  }
  const { code } = await instance.exited;
  return { code, ms: Date.now() - started };
}

/** How many /v1 requests an instance logged. */
export function servedRequests(instance: Instance): number {
  return instance.output.filter((line) => line.includes('"msg":"request"')).length;
}

export interface Proxy {
  origin: string;
  /** nginx's error log so far. */
  log: string[];
  stop(): Promise<void>;
}

/** nginx with deploy/nginx.conf, its upstreams pointed at the given instances' ports. */
export async function startNginx(upstreamPorts: number[]): Promise<Proxy> {
  const port = await freePort();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-nginx-"));
  // nginx's workers drop to an unprivileged user when started as root: they must reach the scratch space.
  fs.chmodSync(prefix, 0o755);
  fs.mkdirSync(path.join(prefix, "run"));
  let conf = fs.readFileSync("deploy/nginx.conf", "utf8");
  const servers = /(\n\s*)server 127\.0\.0\.1:3001 ([^\n]*)\n\s*server 127\.0\.0\.1:3002 [^\n]*\n/;
  if (!servers.test(conf) || !/listen 8080;/.test(conf)) throw new Error("deploy/nginx.conf no longer has the upstreams and listen line this test rewrites");
  conf = conf
    .replace(servers, (_m, indent: string, rest: string) => upstreamPorts.map((p) => `${indent}server 127.0.0.1:${p} ${rest}`).join("") + "\n")
    .replace("listen 8080;", `listen 127.0.0.1:${port};`)
    .replaceAll("deploy/run/", "run/");
  fs.writeFileSync(path.join(prefix, "nginx.conf"), conf);
  const check = spawnSync("nginx", ["-t", "-p", prefix, "-c", "nginx.conf"], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  // Its error log (refused upstreams while an instance stops are expected)
  // is kept, not printed: a failing test can read it from `log`.
  const child = spawn("nginx", ["-p", prefix, "-c", "nginx.conf", "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  const log: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  await expect
    .poll(
      () =>
        fetch(`${origin}/nginx-health`)
          .then((r) => r.ok)
          .catch(() => false),
      { message: "nginx to come up", intervals: [50], timeout: 5_000 },
    )
    .toBe(true);
  return {
    origin,
    log,
    stop: async () => {
      child.kill("SIGQUIT"); // graceful
      await exited;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}
