/**
 * `npm run bench -- --webhooks`: how fast a change reaches a partner, and
 * what webhooks cost the write path, on a production build.
 *
 *   1. Latency: creates and status changes at BENCH_RATE a second (50) for
 *      BENCH_DURATION seconds (20); for each, the time from the API's
 *      201/200 to the receiver's request (p50, p90, p99, max).
 *   2. Throughput: POST /v1/pets with BENCH_CONNECTIONS (20) connections for
 *      BENCH_DURATION seconds, without and with an endpoint registered (every
 *      create then also becomes a signed delivery), BENCH_ROUNDS (3) rounds
 *      of each, alternating; and how long after each run with an endpoint
 *      its last delivery arrives.
 *
 * It creates its own database ("petstore_bench_webhooks") on the embedded
 * server or on DATABASE_URL's server, and drops it at the end. The receiver
 * runs on a thread of this process on 127.0.0.1 and answers 200 at once.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import { ROOT, createDatabaseIfMissing, dropDatabase, loadDotEnv, openServer, withDatabaseName } from "./database";
import { generateClientIfStale, localSessionSecret, run } from "./launch";

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3210);
const BIN = path.join(ROOT, "node_modules", ".bin");
const api = `http://127.0.0.1:${PORT}/v1`;

function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "server.ts"), "start"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("Ready on") && resolve(child));
    child.once("exit", (code) => reject(new Error(`server exited (${code})`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function cliKey(env: NodeJS.ProcessEnv, name: string, scopes: string): string {
  const args = [
    "keys",
    "create",
    "--name",
    name,
    "--org",
    "1",
    "--plan",
    "enterprise",
    "--per-minute",
    "100000000",
    "--per-day",
    "100000000",
    "--scopes",
    scopes,
  ];
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "cli.ts"), ...args], { cwd: ROOT, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cli keys create failed: ${result.stderr}`);
  return result.stdout.trim().split("\n").at(-1)!;
}

/** The receiver: when each (animal, version) arrived. */
interface BenchReceiver {
  url: string;
  arrivals: Map<string, number>;
  /** Record arrivals (the latency case). */
  timing(on: boolean): void;
  count: () => number;
  close: () => Promise<void>;
}

// The receiver runs on a thread of its own: a partner's receiver does not
// share the load generator's event loop (in this process, autocannon's), and
// while both were on one loop, every delivery delayed the creates being
// measured. It still shares the machine's cores, as its cost should.
// Plain JavaScript, so the thread needs no TypeScript loader.
const RECEIVER_THREAD = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const count = new Int32Array(workerData.counter);
let timing = false;
parentPort.on("message", (message) => { timing = message.timing; });
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    // One clock for both threads (performance.now() is per thread).
    const at = performance.timeOrigin + performance.now();
    Atomics.add(count, 0, 1);
    // Only the latency case needs to know which change arrived.
    if (timing) {
      const pet = JSON.parse(Buffer.concat(chunks).toString("utf8")).data.pet;
      parentPort.postMessage({ key: pet.id + ":" + pet.version, at });
    }
    res.writeHead(200).end();
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.address().port }));
`;

async function startReceiver(): Promise<BenchReceiver> {
  const arrivals = new Map<string, number>();
  const counter = new SharedArrayBuffer(4);
  const count = new Int32Array(counter);
  const thread = new Worker(RECEIVER_THREAD, { eval: true, workerData: { counter } });
  const port = await new Promise<number>((resolve, reject) => {
    thread.once("error", reject);
    thread.once("message", (message: { port: number }) => resolve(message.port));
  });
  thread.on("message", (message: { key?: string; at?: number }) => {
    if (message.key && !arrivals.has(message.key)) arrivals.set(message.key, message.at! - performance.timeOrigin);
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    timing: (on) => thread.postMessage({ timing: on }),
    count: () => Atomics.load(count, 0),
    close: async () => void (await thread.terminate()),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function json(method: string, url: string, key: string, body?: unknown, contentType = "application/json") {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": contentType } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return { answeredAt: performance.now(), body: JSON.parse(text) as { id: number; version: number } };
}

/** Changes at RATE a second for DURATION seconds; the latency of each to the receiver. */
async function measureLatency(writer: string, receiver: BenchReceiver) {
  receiver.timing(true);
  const answered = new Map<string, number>();
  const pending: Promise<void>[] = [];
  const pets: number[] = [];
  const total = RATE * DURATION;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    // Paced by the clock, not by the answers: RATE requests a second whatever the latency.
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const change =
      i % 2 === 0 || pets.length === 0
        ? json("POST", `${api}/pets`, writer, { name: `Bench ${i}`, categoryId: 1 + (i % 6) }).then((r) => {
            pets.push(r.body.id);
            return r;
          })
        : json("PATCH", `${api}/pets/${pets.shift()}`, writer, { status: "sold" }, "application/merge-patch+json");
    pending.push(change.then((r) => void answered.set(`${r.body.id}:${r.body.version}`, r.answeredAt)));
  }
  await Promise.all(pending);
  const deadline = performance.now() + 30_000;
  while ([...answered.keys()].some((k) => !receiver.arrivals.has(k)) && performance.now() < deadline) await sleep(50);
  const latencies = [...answered].filter(([k]) => receiver.arrivals.has(k)).map(([k, at]) => receiver.arrivals.get(k)! - at);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    changes: answered.size,
    delivered: sorted.length,
    achievedRate: Math.round((answered.size / ((performance.now() - started) / 1000)) * 10) / 10,
    p50: Math.round(percentile(sorted, 50)),
    p90: Math.round(percentile(sorted, 90)),
    p99: Math.round(percentile(sorted, 99)),
    max: Math.round(sorted.at(-1)!),
  };
}

async function measureCreates(writer: string) {
  const result = await autocannon({
    url: `${api}/pets`,
    method: "POST",
    body: JSON.stringify({ name: "Throughput", categoryId: 1 }),
    headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

export async function main(): Promise<void> {
  loadDotEnv();
  const server = await openServer(process.env.DATABASE_URL || undefined, "dev", (l) => console.error(l));
  const url = withDatabaseName(server.adminUrl, "petstore_bench_webhooks");
  const env = {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: "production",
    PORT: String(PORT),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
    NEXT_TELEMETRY_DISABLED: "1",
    SESSION_SECRET: process.env.SESSION_SECRET ?? localSessionSecret(),
    WEBHOOK_ALLOW_PRIVATE: "true",
    RATE_LIMIT_ENABLED: "true",
  } as NodeJS.ProcessEnv;
  const receiver = await startReceiver();
  let child: ChildProcess | undefined;
  try {
    await dropDatabase(url);
    await createDatabaseIfMissing(url);
    generateClientIfStale();
    run(path.join(BIN, "prisma"), ["migrate", "deploy"], env);
    run(process.execPath, ["--import", "tsx", path.join(ROOT, "prisma", "seed.ts")], env);
    run(path.join(BIN, "next"), ["build"], env);
    const writer = cliKey(env, "bench writer", "pets:read,pets:write");
    const partner = cliKey(env, "bench partner", "webhooks:manage");
    child = await startServer(env);
    child.once("exit", (code, signal) => console.error(`  the server exited (${code ?? signal}) during the benchmark`));
    // Warm up: compile routes, fill pools.
    await autocannon({ url: `${api}/pets`, headers: { authorization: `Bearer ${writer}` }, amount: 200, connections: 10 });

    // Alternating rounds, so that drift on a shared machine hits both sides alike.
    const without: Awaited<ReturnType<typeof measureCreates>>[] = [];
    const withEndpoint: typeof without = [];
    let delivered = 0;
    const drainSeconds: number[] = [];
    let created = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      without.push(await measureCreates(writer));
      console.error(`  round ${round}: create, no endpoint: ${without.at(-1)!.rps} req/s`);
      const endpoint = await json("POST", `${api}/webhooks`, partner, { url: receiver.url, events: ["pet.created", "pet.updated"] });
      const before = receiver.count();
      withEndpoint.push(await measureCreates(writer));
      console.error(`  round ${round}: create, one endpoint: ${withEndpoint.at(-1)!.rps} req/s`);
      // The deliveries of that run drain before anything else is measured.
      // How long after the run its last delivery arrives: while the CPUs are
      // saturated by requests, deliveries yield to them (lib/jobs/yield.ts).
      const expected = before + withEndpoint.at(-1)!.total;
      const ended = performance.now();
      const deadline = ended + 120_000;
      while (receiver.count() < expected && performance.now() < deadline) await sleep(50);
      drainSeconds.push((performance.now() - ended) / 1000);
      delivered += receiver.count() - before;
      created += withEndpoint.at(-1)!.total;
      await fetch(`${api}/webhooks/${endpoint.body.id}`, { method: "DELETE", headers: { authorization: `Bearer ${partner}` } });
    }
    await json("POST", `${api}/webhooks`, partner, { url: receiver.url, events: ["pet.created", "pet.updated"] });
    const latency = await measureLatency(writer, receiver);
    console.error(`  latency at ${RATE}/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms`);

    console.log(`\nPetstore webhook benchmark: production build, ${DURATION}s per case, receiver on 127.0.0.1\n`);
    const mean = (runs: { rps: number }[]) => Math.round(runs.reduce((sum, r) => sum + r.rps, 0) / runs.length);
    console.table([
      ...without.map((r, i) => ({
        case: `create, no endpoint (round ${i + 1})`,
        "req/s": r.rps,
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "non-2xx": r.non2xx,
        errors: r.errors,
      })),
      ...withEndpoint.map((r, i) => ({
        case: `create, one endpoint (round ${i + 1})`,
        "req/s": r.rps,
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "non-2xx": r.non2xx,
        errors: r.errors,
      })),
    ]);
    console.log(
      `Deliveries of the throughput runs: ${delivered} for ${created} creates; the last of each run arrived ${drainSeconds.map((s) => s.toFixed(1)).join(" s, ")} s after it ended (deliveries yield to requests while the CPUs are saturated)`,
    );
    console.log(
      `Create throughput with an endpoint / without: ${mean(withEndpoint)} / ${mean(without)} req/s = ${((mean(withEndpoint) / mean(without)) * 100).toFixed(1)}% (target: within 10%)`,
    );
    console.log(
      `Change to receiver at ${latency.achievedRate} changes/s (${latency.changes} changes, ${latency.delivered} delivered): p50 ${latency.p50} ms, p90 ${latency.p90} ms, p99 ${latency.p99} ms, max ${latency.max} ms (target: p99 under 1000 ms)`,
    );
  } finally {
    if (child) await stopServer(child);
    await receiver.close();
    await dropDatabase(url).catch(() => {});
    await server.stop();
  }
}
