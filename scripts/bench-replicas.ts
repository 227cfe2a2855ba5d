/**
 * `npm run bench -- --replicas`: list throughput with its reads on a
 * streaming replica, against the primary alone, on a production build.
 *
 * A primary and a real streaming replica of its own (scripts/replica-cluster.ts:
 * Debian's PostgreSQL 15 binaries, pg_basebackup -R), BENCH_PETS animals
 * (10,000), and two servers of the same build: one with DATABASE_URL only,
 * one with DATABASE_REPLICA_URL too. GET /v1/pets?limit=20 from callers that
 * never write (so the replica may answer), BENCH_CONNECTIONS (50) for
 * BENCH_DURATION seconds (5), BENCH_ROUNDS (3) interleaved rounds, reported
 * as req/s, p99 and the ratio. After each round the replica-enabled
 * server's /metrics (METRICS_TOKEN set for it alone) says how many reads
 * reached the replica; a round with none fails the run, since its figures
 * would be the primary's twice over.
 *
 * On one machine the replica shares the primary's cores, so this measures
 * what the routing costs and that it works under load, not the capacity a
 * replica on its own machine adds. BENCH_BUILD=0 keeps the build in .next.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { cliOut, startServer, stopServer } from "./bench-harness";
import { ROOT } from "./database";
import { localSessionSecret, run } from "./launch";
import { startReplicaCluster } from "./replica-cluster";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PETS = Number(process.env.BENCH_PETS ?? 10_000);
const PORT = Number(process.env.BENCH_PORT ?? 3240);
const BIN = path.join(ROOT, "node_modules", ".bin");
const METRICS_TOKEN = randomBytes(32).toString("base64url");

interface Sample {
  rps: number;
  p99: number;
  errors: number;
}

async function measure(port: number, key: string, duration: number): Promise<Sample> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/pets?limit=20`,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${key}` },
  });
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/**
 * Reads by where they went (replica, primary, primary_fallback), from a
 * server's /metrics: petstore_db_reads_total (lib/metrics.ts); `lines` keeps
 * all its petstore_db_ samples (replica up, lag) to show when none moved.
 */
async function readsByTarget(port: number): Promise<{ reads: Record<string, number>; lines: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`GET /metrics on port ${port} answered ${res.status}`);
  const text = await res.text();
  const reads: Record<string, number> = {};
  for (const m of text.matchAll(/^petstore_db_reads_total\{target="(\w+)"\} (\S+)$/gm)) reads[m[1]!] = Number(m[2]);
  return {
    reads,
    lines: text
      .split("\n")
      .filter((l) => l.startsWith("petstore_db_"))
      .join("\n"),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function main(): Promise<void> {
  const cluster = await startReplicaCluster();
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  try {
    const base = {
      ...process.env,
      DATABASE_URL: cluster.primaryUrl,
      NODE_ENV: "production",
      LOG_LEVEL: "silent",
      NEXT_TELEMETRY_DISABLED: "1",
      SESSION_SECRET: process.env.SESSION_SECRET ?? localSessionSecret(),
    } as NodeJS.ProcessEnv;
    run(process.execPath, ["--import", "tsx", path.join(ROOT, "prisma", "seed.ts")], base);
    const client = new pg.Client({ connectionString: cluster.primaryUrl });
    await client.connect();
    await client.query(
      `INSERT INTO pets (name, organization_id, category_id, status)
       SELECT 'Bench pet ' || g, (SELECT min(id) FROM organizations), (SELECT id FROM categories ORDER BY id LIMIT 1 OFFSET (g % 6)), (ARRAY['available','pending','sold'])[1 + g % 3]::"PetStatus"
       FROM generate_series(1, $1::int) AS g`,
      [PETS],
    );
    await client.query("VACUUM ANALYZE pets");
    await client.end();
    if (process.env.BENCH_BUILD === "0") console.error("  BENCH_BUILD=0: using the production build in .next as it is");
    else run(path.join(BIN, "next"), ["build"], base);
    // A reader that never writes: its reads may go to the replica.
    const key = cliOut(
      [
        "keys",
        "create",
        "--name",
        "bench reader",
        "--org",
        "1",
        "--plan",
        "enterprise",
        "--per-minute",
        "100000000",
        "--per-day",
        "100000000",
        "--scopes",
        "pets:read",
      ],
      base,
    )
      .trim()
      .split("\n")
      .at(-1)!;

    const setups = [
      { name: "primary alone", port: PORT, env: { ...base, PORT: String(PORT) } },
      {
        name: "reads on the replica",
        port: PORT + 1,
        env: { ...base, PORT: String(PORT + 1), DATABASE_REPLICA_URL: cluster.replicaUrl, METRICS_TOKEN },
        replica: true,
      },
    ];
    for (const setup of setups) servers.push(await startServer(setup.env));
    for (const setup of setups) await measure(setup.port, key, 2); // warm up

    const samples = new Map<string, Sample[]>(setups.map((s) => [s.name, []]));
    const replicaPort = PORT + 1;
    const { reads: firstReads } = await readsByTarget(replicaPort);
    let lastReads = firstReads;
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? setups : [...setups].reverse();
      for (const setup of order) {
        const sample = await measure(setup.port, key, DURATION);
        samples.get(setup.name)!.push(sample);
        console.error(`  round ${round}/${ROUNDS} ${setup.name}: ${sample.rps} req/s, p99 ${sample.p99} ms, ${sample.errors} errors`);
        if (!("replica" in setup)) continue;
        const { reads, lines } = await readsByTarget(replicaPort);
        const previous = lastReads;
        const moved = (target: string) => (reads[target] ?? 0) - (previous[target] ?? 0);
        lastReads = reads;
        console.error(`    reads: ${moved("replica")} on the replica, ${moved("primary")} on the primary, ${moved("primary_fallback")} fell back to it`);
        if (moved("replica") === 0) {
          throw new Error(
            `round ${round}: no read reached the replica (petstore_db_reads_total{target="replica"} did not move), so "${setup.name}" measured the primary alone. Its /metrics:\n${lines}`,
          );
        }
      }
    }
    const [alone, replica] = setups.map((s) => samples.get(s.name)!);
    const rows = setups.map((s) => {
      const xs = samples.get(s.name)!;
      return {
        setup: s.name,
        "req/s (median)": median(xs.map((x) => x.rps)),
        "p99 ms (median)": median(xs.map((x) => x.p99)),
        errors: xs.reduce((n, x) => n + x.errors, 0),
      };
    });
    console.log(
      `\nPetstore replica benchmark: GET /v1/pets?limit=20, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds x ${DURATION} s, ${PETS} animals, one machine`,
    );
    console.table(rows);
    const ratio = median(replica!.map((x) => x.rps)) / median(alone!.map((x) => x.rps));
    console.log(`Throughput with reads on the replica / primary alone: ${ratio.toFixed(2)}x (same machine: the replica shares its cores)`);
    const total = (target: string) => (lastReads[target] ?? 0) - (firstReads[target] ?? 0);
    console.log(
      `Reads of the replica-enabled server in the rounds (/metrics): ${total("replica")} on the replica, ${total("primary")} on the primary, ${total("primary_fallback")} fell back to it (fewer than requests: identical reads at the same moment share one)`,
    );
  } finally {
    for (const server of servers) await stopServer(server);
    cluster.stop();
  }
}
