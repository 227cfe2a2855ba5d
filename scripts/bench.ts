/**
 * `npm run bench`: the API's throughput and latency against the framework's
 * own ceiling, on a production build and a seeded database.
 *
 * The floor is a plain node:http + pg server on the same Node sending the
 * same statements (scripts/bench-floor.ts): what is left above it is what the
 * framework and this project's code cost. Every case is measured on both in
 * the same run, interleaved (rounds of every case in turn, the two servers
 * taking turns), and reported as ratios, because this machine is shared and
 * noisy: absolute figures drift, ratios hold. GET /healthz on both is the
 * framework's own cost (a route handler of the same build that does nothing).
 * The same no-op in an empty Next app (scripts/bench-empty-next: nothing but
 * the route, served as scripts/server.ts serves ours) is measured in the same
 * rounds: its throughput over a case's floor is the highest ratio any route
 * handler can reach for that case on this framework and machine (the
 * "framework ceiling" column), whatever the handler does.
 *
 *   BENCH_DURATION=5     seconds per case per round     BENCH_ROUNDS=3
 *   BENCH_CONNECTIONS=50 BENCH_PETS=10000               BENCH_PROFILE=1 (CPU profiles into .data/profiles)
 *   BENCH_BUILD=0        keep the production build in .next   BENCH_FLOOR_PORT (default BENCH_PORT + 1)
 *   BENCH_FLOOR_SHARE=1  the floor shares round trips between requests as the service does (scripts/bench-floor.ts)
 *
 *   npm run bench -- --scale   page times per filter at 10,000 and 1,000,000 animals (scripts/bench-scale.ts)
 *
 * It creates its own database ("petstore_bench", or BENCH_DATABASE) on the embedded server, or
 * on DATABASE_URL's server, and drops it at the end.
 *
 * `npm run bench -- --alerts`: alert matching, one new animal against 100,000 confirmed alerts (scripts/bench-alerts.ts).
 * `npm run bench -- --webhooks` measures webhook delivery instead (scripts/bench-webhooks.ts).
 * `npm run bench -- --replicas`: list throughput with reads on a streaming replica against the primary alone (scripts/bench-replicas.ts).
 * `npm run bench -- --uploads`: the list's p99 while 4 clients upload 12-megapixel photos, and photos a minute (scripts/bench-uploads.ts).
 * `npm run bench -- --import`: a 10,000-row listing file imported, timed, and the list's p99 meanwhile (scripts/bench-import.ts).
 * `npm run bench -- --reports`: the monthly report, a shelter's year at 100,000 stays and the network's month at 5,000,000,
 *   and what writing a stay costs an animal's change (scripts/bench-reports.ts).
 * `npm run bench -- --soak` (or `soak`): minutes of a mixed load on a never-vacuumed database: throughput, p99 and memory
 *   of the last third against the first, each kind alone before and after, lock waits, HOT updates and dead row versions
 *   (scripts/bench-soak.ts; BENCH_SOAK_SECONDS=540, BENCH_SOAK_AUTOVACUUM=off|on).
 * `npm run bench -- --history`: an edit of an animal with 100,000 edits, 1,000 stays, in a feed of 5,000,000 events, against
 *   one of a fresh animal (scripts/bench-history.ts).
 */
import "./require-node";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { ROOT } from "./database";
import { run } from "./launch";
import { BIN, PETS, PORT, PROFILE_DIR, benchEnvironment, profileArgs, startServer, stopServer } from "./bench-harness";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Case {
  name: string;
  method?: "GET" | "POST" | "PATCH";
  path: string;
  /** The body of every request, or one made for each request (the updaters: each sends a new name). */
  body?: string | (() => string);
  auth?: boolean;
  connections?: number;
  /** Compared against the targets (≥ 0.85× the floor's throughput, p99 ≤ 2× its p99). */
  target?: boolean;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(c: Case, key: string, duration: number, port: number): Promise<Sample> {
  const headers = {
    ...(c.auth === false ? {} : { authorization: `Bearer ${key}` }),
    ...(c.body ? { "content-type": "application/json" } : {}),
  };
  const body = c.body;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${c.path}`,
    method: c.method ?? "GET",
    headers,
    ...(typeof body === "function"
      ? { requests: [{ method: c.method ?? "GET", path: c.path, headers, setupRequest: (req: object) => ({ ...req, body: body() }) }] }
      : { body }),
    connections: c.connections ?? CONNECTIONS,
    duration,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Where the floor listens (scripts/bench-floor.ts). */
const FLOOR_PORT = Number(process.env.BENCH_FLOOR_PORT ?? PORT + 1);
/** Where the empty Next app listens (scripts/bench-empty-next). */
const EMPTY_PORT = FLOOR_PORT + 1;
const EMPTY_APP = path.join(ROOT, "scripts", "bench-empty-next");

/** The empty Next app, built like ours (BENCH_BUILD=0 keeps its build), one process per worker as the service has. */
function startEmptyNext(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  if (process.env.BENCH_BUILD !== "0" || !fs.existsSync(path.join(EMPTY_APP, ".next", "BUILD_ID"))) {
    run(path.join(BIN, "next"), ["build", EMPTY_APP], env);
  }
  const workers = Number(env.WEB_CONCURRENCY ?? os.availableParallelism());
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(EMPTY_APP, "server.mjs")], {
      cwd: EMPTY_APP,
      env: { ...env, EMPTY_NEXT_PORT: String(EMPTY_PORT), WEB_CONCURRENCY: String(workers) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let ready = 0;
    child.stdout!.on("data", (chunk: Buffer) => {
      ready += chunk.toString().split("Empty app ready on").length - 1;
      if (ready >= workers) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`empty Next app exited (${code})`)));
  });
}

/** The floor server, with as many workers as the service, ready when every worker says so. */
function startFloor(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const workers = Number(env.WEB_CONCURRENCY ?? os.availableParallelism());
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "bench-floor.ts")], {
      cwd: ROOT,
      env: { ...env, FLOOR_PORT: String(FLOOR_PORT), FLOOR_SHARE: process.env.BENCH_FLOOR_SHARE ?? "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let ready = 0;
    child.stdout!.on("data", (chunk: Buffer) => {
      ready += chunk.toString().split("Floor ready on").length - 1;
      if (ready >= workers) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`floor exited (${code})`)));
  });
}

async function apiBench(): Promise<void> {
  const bench = await benchEnvironment();
  const nodeArgs = profileArgs();
  let child: ChildProcess | undefined;
  let floor: ChildProcess | undefined;
  let empty: ChildProcess | undefined;
  try {
    child = await startServer(bench.env, nodeArgs);
    floor = await startFloor(bench.env);
    empty = await startEmptyNext(bench.env);
    const client = new pg.Client({ connectionString: bench.url });
    await client.connect();
    // The updaters' animal: the key's organisation's newest (every client changes its name, each time to a new one).
    const { rows: updated } = await client.query<{ id: string }>(
      "SELECT p.id FROM pets p JOIN api_keys k ON k.organization_id = p.organization_id WHERE k.name = 'bench' ORDER BY p.id DESC LIMIT 1",
    );
    await client.end();
    let renames = 0;
    const deepCursor = Buffer.from(JSON.stringify({ v: 1, d: "after", id: Math.floor(PETS / 2) })).toString("base64url");
    const cases: Case[] = [
      { name: "no-op route (GET /healthz)", path: "/healthz", auth: false },
      { name: "list (status=available, limit 20)", path: "/v1/pets?limit=20&status=available", target: true },
      { name: "deep page by cursor", path: `/v1/pets?limit=20&cursor=${deepCursor}`, target: true },
      { name: "get one (deprecated)", path: `/v1/pets/${Math.floor(PETS / 3)}`, target: true },
      { name: "create", method: "POST", path: "/v1/pets", body: JSON.stringify({ name: "Bench", categoryId: 1 }), target: true },
      { name: "near search (within 50 km)", path: "/v1/pets?limit=20&status=available&near=41.8789,-87.6359&within=50km", target: true },
      {
        name: "20 clients updating one animal",
        method: "PATCH",
        path: `/v1/pets/${updated[0]!.id}`,
        body: () => JSON.stringify({ name: `Bench ${++renames}` }),
        connections: 20,
        target: true,
      },
    ];
    const servers = [
      { name: "service", port: PORT },
      { name: "floor", port: FLOOR_PORT },
    ] as const;
    const emptyNoop: Case = { name: "no-op route, empty Next app (GET /ping)", path: "/ping", auth: false };
    // Warm up: the first requests compile routes, fill pools and JIT.
    for (const c of cases) for (const server of servers) await measure(c, bench.key, 2, server.port);
    await measure(emptyNoop, bench.key, 2, EMPTY_PORT);
    const emptySamples: Sample[] = [];

    type Pair = { service: Sample; floor: Sample };
    const samples = new Map<Case, Pair[]>(cases.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts at another case, so no case always runs first or
      // last, and the service and the floor take turns going first.
      const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
      for (const c of order) {
        const pair = {} as Pair;
        for (const server of round % 2 ? [...servers].reverse() : servers) pair[server.name] = await measure(c, bench.key, DURATION, server.port);
        samples.get(c)!.push(pair);
        // The empty app's no-op beside the service's own, in every round.
        if (c === cases[0]) {
          emptySamples.push(await measure(emptyNoop, bench.key, DURATION, EMPTY_PORT));
          console.error(`  round ${round + 1}/${ROUNDS} ${emptyNoop.name}: ${Math.round(emptySamples.at(-1)!.rps)} req/s, p99 ${emptySamples.at(-1)!.p99} ms`);
        }
        const line = (s: Sample) =>
          `${Math.round(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms${s.non2xx || s.errors ? `, ${s.non2xx} non-2xx, ${s.errors} errors` : ""}`;
        console.error(`  round ${round + 1}/${ROUNDS} ${c.name}: service ${line(pair.service)} | floor ${line(pair.floor)}`);
      }
    }

    const emptyRps = median(emptySamples.map((s) => s.rps));
    const rows = cases.map((c) => {
      const pairs = samples.get(c)!;
      const rpsRatio = median(pairs.map((p) => p.service.rps / p.floor.rps));
      // No route handler answers faster than the empty app's no-op: against this case's floor, that is the best ratio it can reach.
      const ceiling = Math.min(1, emptyRps / median(pairs.map((p) => p.floor.rps)));
      const p99Ratio = median(pairs.map((p) => p.service.p99 / Math.max(p.floor.p99, 1)));
      return {
        case: c.name,
        "req/s": Math.round(median(pairs.map((p) => p.service.rps))),
        "floor req/s": Math.round(median(pairs.map((p) => p.floor.rps))),
        "× floor": rpsRatio.toFixed(2),
        "p50 ms": median(pairs.map((p) => p.service.p50)),
        "p99 ms": median(pairs.map((p) => p.service.p99)),
        "floor p99": median(pairs.map((p) => p.floor.p99)),
        "p99 × floor": p99Ratio.toFixed(2),
        "non-2xx": pairs.reduce((n, p) => n + p.service.non2xx + p.floor.non2xx, 0),
        "framework ceiling": ceiling.toFixed(2),
        target: c.target ? (rpsRatio >= 0.85 && p99Ratio <= 2 ? "met" : ceiling < 0.85 ? "MISSED (above the ceiling)" : "MISSED") : "(framework)",
      };
    });
    const floorNoop = median(samples.get(cases[0]!)!.map((p) => p.floor.rps));
    rows.splice(1, 0, {
      case: emptyNoop.name,
      "req/s": Math.round(emptyRps),
      "floor req/s": Math.round(floorNoop),
      "× floor": (emptyRps / floorNoop).toFixed(2),
      "p50 ms": median(emptySamples.map((s) => s.p50)),
      "p99 ms": median(emptySamples.map((s) => s.p99)),
      "floor p99": median(samples.get(cases[0]!)!.map((p) => p.floor.p99)),
      "p99 × floor": "",
      "non-2xx": emptySamples.reduce((n, s) => n + s.non2xx, 0),
      "framework ceiling": "",
      target: "(framework)",
    });
    const workers = bench.env.WEB_CONCURRENCY ?? "default (one per core)";
    console.log(
      `\nPetstore benchmark: ${ROUNDS} interleaved rounds × ${DURATION} s per case and server, ${CONNECTIONS} connections (updaters: 20), ${PETS} animals, production build, WEB_CONCURRENCY ${workers}, Node ${process.versions.node}`,
    );
    console.log(
      `The floor: a plain node:http + pg server sending the same statements (scripts/bench-floor.ts)${process.env.BENCH_FLOOR_SHARE === "1" ? ", sharing round trips between requests as the service does" : ", one request's statements at a time"}. Targets: each API case ≥ 0.85× the floor's throughput and p99 ≤ 2× its p99 (medians of per-round ratios).`,
    );
    console.log(
      `Framework ceiling: the empty Next app's no-op (${Math.round(emptyRps)} req/s) over the case's floor, the most any route handler can reach; a target above it cannot be met on this framework.\n`,
    );
    console.table(rows);
    if (nodeArgs.length) console.log(`CPU profiles: ${PROFILE_DIR}`);
  } finally {
    if (empty) await stopServer(empty);
    if (floor) await stopServer(floor);
    if (child) await stopServer(child);
    await bench.cleanup();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--scale")) {
    const { scaleBench } = await import("./bench-scale");
    await scaleBench();
    return;
  }
  // Matching one new animal against 100,000 confirmed alerts: database time (scripts/bench-alerts.ts).
  if (args.includes("--alerts")) {
    const { alertsBench } = await import("./bench-alerts");
    await alertsBench();
    return;
  }
  // Webhook latency and the cost of delivery on the write path (scripts/bench-webhooks.ts).
  if (args.includes("--webhooks")) {
    const { main: webhooksBench } = await import("./bench-webhooks");
    await webhooksBench();
    return;
  }
  // List throughput with reads on a streaming replica against the primary alone (scripts/bench-replicas.ts).
  if (args.includes("--replicas")) {
    const { main: replicasBench } = await import("./bench-replicas");
    await replicasBench();
    return;
  }
  // The list's latency while clients upload photos, and the upload throughput (scripts/bench-uploads.ts).
  if (args.includes("--uploads")) {
    const { main: uploadsBench } = await import("./bench-uploads");
    await uploadsBench();
    return;
  }
  // A 10,000-row import's time, and the list's latency while it runs (scripts/bench-import.ts).
  if (args.includes("--import")) {
    const { main: importBench } = await import("./bench-import");
    await importBench();
    return;
  }
  // The monthly report at 100,000 stays for a shelter and 5,000,000 for the network, and its cost on the write path (scripts/bench-reports.ts).
  if (args.includes("--reports")) {
    const { main: reportsBench } = await import("./bench-reports");
    await reportsBench();
    return;
  }
  // Minutes of a mixed load: what degrades with time (scripts/bench-soak.ts).
  if (args.includes("--soak") || args.includes("soak")) {
    const { main: soakBench } = await import("./bench-soak");
    await soakBench();
    return;
  }
  // An edit of an animal with a long history against one without (scripts/bench-history.ts).
  if (args.includes("--history")) {
    const { main: historyBench } = await import("./bench-history");
    await historyBench();
    return;
  }
  await apiBench();
}

if (process.argv[1]?.endsWith("bench.ts")) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  });
}
