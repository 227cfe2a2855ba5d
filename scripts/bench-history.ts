/**
 * `npm run bench -- --history`: does a write cost more when there is more history? (issue 51)
 *
 * One animal with BENCH_HISTORY_EDITS (100,000) edits behind it (its audit records, its events and
 * BENCH_HISTORY_STAYS (1,000) closed stays), in a feed of BENCH_HISTORY_EVENTS (5,000,000) events,
 * against an animal of the same shelter with none: PATCH /v1/pets/{id} of each (a description, as the
 * soak's edits), BENCH_HISTORY_CONNECTIONS (10) keep-alive connections for BENCH_HISTORY_SECONDS (8),
 * in BENCH_HISTORY_ROUNDS (3) interleaved rounds, on the production server. Reported: each round's
 * throughput and median of both, and the long history's over the fresh one's (target: ≥ 0.9×, i.e. a
 * write's cost does not depend on what came before it).
 *
 * The history is generated with SQL (generate_series) with the triggers off (session_replication_role),
 * then analyzed, and the feed's readers' marks are put at its end (as they are on a live service, where
 * they follow the feed): the measurement is of the write, not of background work catching up.
 * Its own database ("petstore_bench_history", BENCH_DATABASE), dropped at the end.
 */
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import pg from "pg";
import { benchEnvironment, startServer, stopServer } from "./bench-harness";

const EDITS = Number(process.env.BENCH_HISTORY_EDITS ?? 100_000);
const EVENTS = Number(process.env.BENCH_HISTORY_EVENTS ?? 5_000_000);
const STAYS = Number(process.env.BENCH_HISTORY_STAYS ?? 1_000);
const CONNECTIONS = Number(process.env.BENCH_HISTORY_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_HISTORY_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_HISTORY_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3251);
const DATABASE = process.env.BENCH_DATABASE ?? "petstore_bench_history";
const BATCH = 500_000;

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = Float64Array.from(xs).sort();
  return s[Math.floor(s.length / 2)]!;
};

/** The long history, as SQL: audit records and events of `long`, other animals' events, closed stays. */
async function buildHistory(client: pg.Client, long: string, others: { from: number; to: number }): Promise<void> {
  await client.query("SET session_replication_role = replica");
  const started = performance.now();
  await client.query(
    `INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, before, after, created_at)
     SELECT $1::bigint, 'updated', 1 + g, 'api_key', 1, 'bench', 'bench-' || g,
            jsonb_build_object('description', 'Edited ' || (g - 1) || ' times'),
            jsonb_build_object('id', $1::bigint, 'name', 'Long history', 'status', 'available', 'version', 1 + g, 'description', 'Edited ' || g || ' times'),
            now() - interval '20 days' + g * interval '10 ms'
       FROM generate_series(1, $2::int) g`,
    [long, EDITS],
  );
  await client.query("UPDATE pets SET version = $2, description = 'Edited many times' WHERE id = $1", [long, EDITS + 1]);
  // The feed: the long history's events among everyone else's, in position order, within the 30 days kept.
  for (let done = 0; done < EVENTS; done += BATCH) {
    const n = Math.min(BATCH, EVENTS - done);
    await client.query(
      `INSERT INTO events (position, type, pet_id, organization_id, data, created_at)
       SELECT nextval('events_position_seq'), 'pet.updated', pet, (SELECT min(id) FROM organizations),
              jsonb_build_object('pet', jsonb_build_object('id', pet, 'status', 'available'), 'previous', jsonb_build_object('description', 'x')),
              now() - interval '20 days' + ($4::bigint + g) * interval '300 us'
         FROM (SELECT g, CASE WHEN ($4::bigint + g) % ($5::bigint / $6::bigint) = 0 THEN $1::bigint ELSE $2::bigint + g % ($3::bigint - $2::bigint) END AS pet
                 FROM generate_series(1, $7::int) g) s`,
      [long, others.from, others.to, done, EVENTS, Math.max(1, Math.min(EDITS, EVENTS)), n],
    );
    process.stderr.write(`\r  events: ${Math.round(((done + n) / EVENTS) * 100)}%${done + n >= EVENTS ? "\n" : ""}`);
  }
  await client.query(
    `INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_on, intake_type, outcome_at, outcome_on, outcome_type)
     SELECT $1::bigint, (SELECT organization_id FROM pets WHERE id = $1), t, t::date, 'stray', t + interval '1 day', (t + interval '1 day')::date, 'returnedToOwner'
       FROM (SELECT timestamptz '2020-01-01 12:00:00+00' + g * interval '2 days' AS t FROM generate_series(1, $2::int) g) s`,
    [long, STAYS],
  );
  await client.query("SET session_replication_role = DEFAULT");
  // The feed's readers are where a live service's are: at its end.
  await client.query(
    `INSERT INTO event_marks (name, position) SELECT m, (SELECT max(position) FROM events) FROM unnest(ARRAY['dispatched', 'matched', 'listings']) m
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`,
  );
  await client.query("ANALYZE");
  console.error(`  history built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

export async function main(): Promise<void> {
  const bench = await benchEnvironment(DATABASE, Number(process.env.BENCH_PETS ?? 10_000), PORT);
  const client = new pg.Client({ connectionString: bench.url });
  let server: ChildProcess | undefined;
  try {
    await client.connect();
    const { rows } = await client.query<{ min: string; max: string }>("SELECT min(id) AS min, max(id) AS max FROM pets WHERE in_care");
    const long = rows[0]!.max;
    const fresh = String(Number(rows[0]!.max) - 1);
    await buildHistory(client, long, { from: Number(rows[0]!.min), to: Number(fresh) });
    const sizes = await client.query<{ name: string; rows: string; size: string }>(
      `SELECT relname AS name, reltuples::bigint AS rows, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class WHERE relname IN ('events', 'pet_audit', 'pet_stays', 'pets') ORDER BY relname`,
    );
    console.table(sizes.rows);

    server = await startServer(bench.env);
    const headers = { authorization: `Bearer ${bench.key}`, "content-type": "application/json" };
    let n = 0;
    const edit = async (id: string) => {
      const latencies: number[] = [];
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `http://127.0.0.1:${PORT}`,
            headers,
            connections: CONNECTIONS,
            duration: SECONDS,
            requests: [
              { method: "PATCH", path: `/v1/pets/${id}`, setupRequest: (req) => ({ ...req, body: JSON.stringify({ description: `Edited again (${++n})` }) }) },
            ],
          },
          (error, r) => (error ? reject(error) : resolve(r)),
        );
        instance.on("response", (_c, _s, _b, ms) => latencies.push(ms));
      });
      return { rps: result.requests.total / SECONDS, median: median(latencies), bad: result.non2xx + result.errors + result.timeouts };
    };
    await edit(fresh);
    await edit(long);
    const rounds: {
      round: number;
      "fresh req/s": number;
      "long history req/s": number;
      "fresh median ms": number;
      "long history median ms": number;
      "non-2xx": number;
    }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Interleaved, the order alternating: the machine is shared, and the neighbours' load moves both.
      let a, b;
      if (round % 2) {
        a = await edit(fresh);
        b = await edit(long);
      } else {
        b = await edit(long);
        a = await edit(fresh);
      }
      rounds.push({
        round,
        "fresh req/s": Math.round(a.rps),
        "long history req/s": Math.round(b.rps),
        "fresh median ms": a.median,
        "long history median ms": b.median,
        "non-2xx": a.bad + b.bad,
      });
    }
    console.log(
      `\nPetstore long history: PATCH of one animal with ${EDITS} edits, ${STAYS} stays, in a feed of ${EVENTS} events, against an animal with none; ${CONNECTIONS} connections, ${SECONDS} s, ${ROUNDS} rounds\n`,
    );
    console.table(rounds);
    const ratio = median(rounds.map((r) => r["long history req/s"] / Math.max(1, r["fresh req/s"])));
    console.log(
      `Verdict: the long history's throughput ${ratio.toFixed(2)}× the fresh animal's (median of the rounds' ratios; target ≥ 0.9×) ${ratio >= 0.9 ? "MET" : "MISSED"}`,
    );
  } finally {
    if (server) await stopServer(server);
    await client.end().catch(() => {});
    await bench.cleanup();
  }
}
