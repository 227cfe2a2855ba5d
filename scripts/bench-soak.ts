/**
 * `npm run bench -- --soak` (or `npm run bench -- soak`): the service under a
 * steady mixed load for minutes, on a production build and a database whose
 * tables are never vacuumed (autovacuum off for them, as CI's PostgreSQL runs
 * with it off everywhere), to find what degrades with time rather than load.
 *
 * BENCH_CONNECTIONS (20) connections, shared out among six kinds of client
 * (as many of each as the table below says, out of 20), each sending its
 * request again as soon as it has the answer:
 *   4  GET  /v1/pets?limit=20                                   the list
 *   3  GET  /v1/pets?limit=20&status=available&categoryId=<c>   a filtered list
 *   3  GET  /v1/pets?limit=20&q=<a name's part>                 a name search
 *   4  GET  /v1/pets?id=<3 ids>                                 look-ups by id
 *   3  POST /v1/pets                                            a create
 *   3  PATCH /v1/pets/<one animal>                              an update of the same animal, every time
 * for BENCH_SOAK_SECONDS (540: nine minutes, issue 51's soak). (Kinds of their own, not every connection
 * taking turns: the updates of one animal wait for each other on its row,
 * and would otherwise hold every connection to their pace.) BENCH_SOAK_UPDATE says what the update
 * changes: `description` (the default: no indexed column, so it can be a
 * HOT update), `name` (the name search's index changes too), or `status`.
 *
 * Before the mix and after it, each kind alone (10 connections, 8 s:
 * BENCH_SOAK_ALONE_SECONDS, BENCH_SOAK_ALONE_CONNECTIONS): throughput and
 * median of each, after against before, so a kind whose own cost grew shows
 * apart from the others' (BENCH_SOAK_SECONDS=180 gives the "before and after
 * three minutes of the mix" of issue 51). Through the run, every 2 s, the
 * writers waiting on the feed's commit-order lock (pg_advisory_xact_lock(7411, 1),
 * decision 005) and on anything else, from pg_locks.
 *
 * BENCH_SOAK_AUTOVACUUM: `off` (the default: every table's autovacuum is
 * switched off, as CI's and this machine's clusters run) or `on` (the tables
 * keep the server's own setting: run it on a server with autovacuum on, as
 * production runs, e.g. the embedded one: DATABASE_URL unset, EMBEDDED_PG_DIR
 * and EMBEDDED_PG_PORT naming a cluster of its own).
 *
 * Reported: throughput (all kinds, and each) and p99 of the first and last
 * thirds and their ratios (target: throughput of the last third ≥ 0.85× the
 * first's), the machine's load average in each (this machine is shared: a
 * third run while something else ran is slower for that reason alone), the
 * server's resident memory (all its processes) over the last third against
 * the first, errors and non-2xx answers, and for `pets` over the run: updates,
 * the HOT share (pg_stat_user_tables.n_tup_hot_upd / n_tup_upd), dead row
 * versions, and the table's and its indexes' growth.
 *
 * It creates its own database ("petstore_bench_soak", BENCH_PETS animals,
 * default 10,000) on the embedded server or on DATABASE_URL's server, and
 * drops it at the end. BENCH_BUILD=0 reuses the production build in .next.
 */
import fs from "node:fs";
import os from "node:os";
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import pg from "pg";
import { benchEnvironment, profileArgs, startServer, stopServer } from "./bench-harness";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 540);
const ALONE_SECONDS = Number(process.env.BENCH_SOAK_ALONE_SECONDS ?? 8);
const ALONE_CONNECTIONS = Number(process.env.BENCH_SOAK_ALONE_CONNECTIONS ?? 10);
const AUTOVACUUM = (process.env.BENCH_SOAK_AUTOVACUUM ?? "off") as "on" | "off";
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PETS = Number(process.env.BENCH_PETS ?? 10_000);
const PORT = Number(process.env.BENCH_PORT ?? 3250);
const UPDATE = (process.env.BENCH_SOAK_UPDATE ?? "description") as "description" | "name" | "status";
const TARGET_RATIO = 0.85;
const TARGET_P99_RATIO = 1.5;
const DATABASE = process.env.BENCH_DATABASE ?? "petstore_bench_soak";
/** How often the server's memory is read. */
const MEMORY_EVERY_MS = 2_000;

interface Third {
  answers: number;
  latencies: number[];
  non2xx: number;
  byKind: Record<string, number>;
}

interface TableStats {
  updates: number;
  hot: number;
  dead: number;
  live: number;
  tableBytes: number;
  indexBytes: number;
}

/** The process and all its descendants (the cluster's workers, their photo resizers). */
function processTree(pid: number): number[] {
  const children = (p: number): number[] => {
    try {
      return fs
        .readdirSync(`/proc/${p}/task`)
        .flatMap((task) => fs.readFileSync(`/proc/${p}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      return [];
    }
  };
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]!));
  return all;
}

/** Resident memory of the server's processes together, in bytes (0 where /proc is missing). */
function serverRss(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1];
      total += Number(kb ?? 0) * 1024;
    } catch {
      // A process that ended between the listing and the read.
    }
  }
  return total;
}

/** CPU time (user + system, in clock ticks) of these processes, and of the PostgreSQL backends serving `database`. */
function cpuTicks(pids: number[], database: string): { server: number; postgres: number } {
  const ticks = (stat: string) => {
    // Fields after the command (which may hold spaces), from the 3rd: utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  let server = 0;
  let postgres = 0;
  for (const p of pids) {
    try {
      server += ticks(fs.readFileSync(`/proc/${p}/stat`, "utf8"));
    } catch {
      // Gone meanwhile.
    }
  }
  for (const entry of fs.existsSync("/proc") ? fs.readdirSync("/proc") : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.includes("(postgres)") && fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(database)) postgres += ticks(stat);
    } catch {
      // Gone meanwhile.
    }
  }
  return { server, postgres };
}

/**
 * The database's work for each kind of request, as shared buffers touched
 * (EXPLAIN (ANALYZE, BUFFERS): unlike times, the same on a busy machine as on
 * an idle one): the page statements as the API sends them, and the update
 * (in a transaction rolled back).
 */
async function databaseWork(client: pg.Client, q: { category: number; hotId: string; ids: number[] }): Promise<Record<string, number>> {
  const { pageSql } = await import("@/lib/pets/queries/pages");
  const statements: Record<string, { text: string; values: unknown[] }> = {
    list: pageSql({ take: 21 }),
    "filtered list": pageSql({ take: 21, status: "available", categoryId: q.category }),
    "name search": pageSql({ take: 21, search: "pet 500" }),
    "look-up by id": pageSql({ take: 21, ids: q.ids }),
    "update one": { text: "UPDATE pets SET description = 'soak', version = version + 1 WHERE id = $1", values: [q.hotId] },
  };
  const out: Record<string, number> = {};
  for (const [name, sql] of Object.entries(statements)) {
    await client.query("BEGIN");
    try {
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: Record<string, number> }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql.text}`,
        sql.values,
      );
      const plan = rows[0]!["QUERY PLAN"][0].Plan;
      out[name] = plan["Shared Hit Blocks"]! + plan["Shared Read Blocks"]!;
    } finally {
      await client.query("ROLLBACK");
    }
  }
  return out;
}

/** Every table's counters: what a run leaves behind for VACUUM, wherever it is. */
async function allTables(client: pg.Client): Promise<Map<string, { ins: number; upd: number; hot: number; dead: number; bytes: number }>> {
  const { rows } = await client.query<{ name: string; ins: string; upd: string; hot: string; dead: string; bytes: string }>(
    `SELECT relname AS name, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_dead_tup AS dead, pg_total_relation_size(relid) AS bytes
       FROM pg_stat_user_tables WHERE schemaname IN ('public', 'graphile_worker')`,
  );
  return new Map(rows.map((r) => [r.name, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), dead: Number(r.dead), bytes: Number(r.bytes) }]));
}

async function tableStats(client: pg.Client): Promise<TableStats> {
  const { rows } = await client.query<{ upd: string; hot: string; dead: string; live: string; table_bytes: string; index_bytes: string }>(
    `SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot, n_dead_tup AS dead, n_live_tup AS live,
            pg_relation_size('pets') AS table_bytes, pg_indexes_size('pets') AS index_bytes
       FROM pg_stat_user_tables WHERE relname = 'pets'`,
  );
  const r = rows[0]!;
  return {
    updates: Number(r.upd),
    hot: Number(r.hot),
    dead: Number(r.dead),
    live: Number(r.live),
    tableBytes: Number(r.table_bytes),
    indexBytes: Number(r.index_bytes),
  };
}

const p99 = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]!;
};
const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = Float64Array.from(xs).sort();
  return s[Math.floor(s.length / 2)]!;
};

/**
 * Backends of `database` waiting for a lock right now: on the feed's
 * commit-order lock (advisory (7411, 1): classid 7411, objid 1, objsubid 2
 * for the two-key form) and on anything else (a row, a transaction id).
 */
async function lockWaits(client: pg.Client, database: string): Promise<{ feed: number; other: number }> {
  const { rows } = await client.query<{ feed: number; other: number }>(
    `SELECT count(*) FILTER (WHERE l.locktype = 'advisory' AND l.classid = 7411 AND l.objid = 1 AND l.objsubid = 2)::int AS feed,
            count(*) FILTER (WHERE NOT (l.locktype = 'advisory' AND l.classid = 7411 AND l.objid = 1 AND l.objsubid = 2))::int AS other
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE NOT l.granted AND a.datname = $1`,
    [database],
  );
  return rows[0]!;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function main(): Promise<void> {
  const bench = await benchEnvironment(DATABASE, PETS, PORT);
  const { env, key, url } = bench;
  const client = new pg.Client({ connectionString: url });
  let server: ChildProcess | undefined;
  try {
    await client.connect();
    const autovacuum = (await client.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'autovacuum'")).rows[0]!.setting;
    // `off`: never vacuumed during the run, whatever the server's own setting: what CI's database does.
    if (AUTOVACUUM === "off") {
      const { rows: tables } = await client.query<{ name: string }>("SELECT quote_ident(relname) AS name FROM pg_stat_user_tables WHERE schemaname = 'public'");
      for (const t of tables) await client.query(`ALTER TABLE ${t.name} SET (autovacuum_enabled = off, toast.autovacuum_enabled = off)`);
    } else if (autovacuum !== "on") {
      console.error("  BENCH_SOAK_AUTOVACUUM=on, but this server runs without autovacuum: nothing will vacuum (use a server with it on)");
    }
    const { rows: hot } = await client.query<{ id: string }>("SELECT id FROM pets ORDER BY id DESC LIMIT 1");
    const hotId = hot[0]!.id;
    const { rows: categories } = await client.query<{ id: string }>("SELECT id FROM categories ORDER BY id");
    const maxId = Number(hotId);

    server = await startServer(env, profileArgs());
    server.once("exit", (code, signal) => console.error(`  the server exited (${code ?? signal}) during the soak`));
    const serverPid = server.pid!;

    let n = 0;
    const random = (below: number) => 1 + Math.floor(Math.random() * below);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const updateBody = () => {
      n++;
      if (UPDATE === "name") return JSON.stringify({ name: `Soak ${n}` });
      if (UPDATE === "status") return JSON.stringify({ status: n % 2 ? "pending" : "available" });
      return JSON.stringify({ description: `Edited ${n} times: calm, friendly and curious.` });
    };
    const kinds: { name: string; share: number; request: autocannon.Request }[] = [
      { name: "list", share: 4, request: { method: "GET", path: "/v1/pets?limit=20" } },
      {
        name: "filtered list",
        share: 3,
        request: {
          method: "GET",
          setupRequest: (req) => ({ ...req, path: `/v1/pets?limit=20&status=available&categoryId=${categories[random(categories.length) - 1]!.id}` }),
        },
      },
      {
        name: "name search",
        share: 3,
        request: { method: "GET", setupRequest: (req) => ({ ...req, path: `/v1/pets?limit=20&q=${encodeURIComponent(`pet ${random(999)}`)}` }) },
      },
      {
        name: "look-up by id",
        share: 4,
        request: { method: "GET", setupRequest: (req) => ({ ...req, path: `/v1/pets?id=${random(maxId)},${random(maxId)},${random(maxId)}` }) },
      },
      {
        name: "create",
        share: 3,
        request: { method: "POST", path: "/v1/pets", body: JSON.stringify({ name: "Soak new", categoryId: Number(categories[0]!.id) }) },
      },
      {
        name: `update one (${UPDATE})`,
        share: 3,
        request: { method: "PATCH", path: `/v1/pets/${hotId}`, setupRequest: (req) => ({ ...req, body: updateBody() }) },
      },
    ];
    const shares = kinds.reduce((a, k) => a + k.share, 0);
    // Each kind on its own, one after another: its throughput and median with nothing else running.
    const alone = async () => {
      const out: Record<string, { rps: number; median: number; non2xx: number }> = {};
      for (const kind of kinds) {
        const latencies: number[] = [];
        const result = await new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            { url: `http://127.0.0.1:${PORT}`, headers, requests: [kind.request], connections: ALONE_CONNECTIONS, duration: ALONE_SECONDS },
            (error, r) => (error ? reject(error) : resolve(r)),
          );
          instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
        });
        out[kind.name] = { rps: result.requests.total / ALONE_SECONDS, median: median(latencies), non2xx: result.non2xx + result.errors };
      }
      return out;
    };
    const load = async (seconds: number, onAnswer?: (kind: string, status: number, ms: number) => void) => {
      const results = await Promise.all(
        kinds.map(
          (kind) =>
            new Promise<autocannon.Result>((resolve, reject) => {
              const connections = Math.max(1, Math.round((CONNECTIONS * kind.share) / shares));
              const instance = autocannon(
                { url: `http://127.0.0.1:${PORT}`, headers, requests: [kind.request], connections, duration: seconds },
                (error, result) => (error ? reject(error) : resolve(result)),
              );
              if (onAnswer) instance.on("response", (_client, status, _bytes, ms) => onAnswer(kind.name, status, ms));
            }),
        ),
      );
      return {
        errors: results.reduce((a, r) => a + r.errors, 0),
        timeouts: results.reduce((a, r) => a + r.timeouts, 0),
        non2xx: results.reduce((a, r) => a + r.non2xx, 0),
      };
    };

    // Warm up (routes compiled, pools filled, JIT), then the counters' starting point.
    await load(5);
    console.error(`  each kind alone (${ALONE_CONNECTIONS} connections, ${ALONE_SECONDS} s each), before the mix`);
    const aloneBefore = await alone();
    const probe = { category: Number(categories[0]!.id), hotId, ids: [1, Math.floor(maxId / 2), maxId] };
    const workBefore = await databaseWork(client, probe);
    const before = await tableStats(client);
    const tablesBefore = await allTables(client);

    const thirds: Third[] = [0, 1, 2].map(() => ({ answers: 0, latencies: [], non2xx: 0, byKind: Object.fromEntries(kinds.map((k) => [k.name, 0])) }));
    const memory: number[][] = [[], [], []];
    const loadAverage: number[][] = [[], [], []];
    const cpu: { server: number; postgres: number }[][] = [[], [], []];
    const waits: { feed: number; other: number }[][] = [[], [], []];
    const lockClient = new pg.Client({ connectionString: url });
    await lockClient.connect();
    const started = performance.now();
    const third = () => Math.min(2, Math.floor((performance.now() - started) / ((SECONDS * 1000) / 3)));
    // Every process the server ran: a worker that died and was replaced shows as a new one.
    const seen = new Set<number>(processTree(serverPid));
    const sampler = setInterval(() => {
      for (const p of processTree(serverPid)) seen.add(p);
      memory[third()]!.push(serverRss(serverPid));
      loadAverage[third()]!.push(os.loadavg()[0]!);
      cpu[third()]!.push(cpuTicks(processTree(serverPid), DATABASE));
      const i = third();
      void lockWaits(lockClient, DATABASE).then(
        (w) => waits[i]!.push(w),
        () => {},
      );
    }, MEMORY_EVERY_MS);
    let lastReport = 0;
    // Non-2xx answers by kind and status ("update one (description) 409"): what they were, not only how many.
    const refused = new Map<string, number>();
    const result = await load(SECONDS, (kind, status, ms) => {
      const t = thirds[third()]!;
      t.answers++;
      t.byKind[kind]!++;
      t.latencies.push(ms);
      if (status < 200 || status > 299) {
        t.non2xx++;
        const name = `${kind} ${status}`;
        refused.set(name, (refused.get(name) ?? 0) + 1);
      }
      const elapsed = (performance.now() - started) / 1000;
      if (elapsed - lastReport >= 30) {
        lastReport = elapsed;
        console.error(`  ${Math.round(elapsed)} s: ${thirds.reduce((a, x) => a + x.answers, 0)} answers`);
      }
    });
    clearInterval(sampler);
    console.error(`  each kind alone, after ${SECONDS} s of the mix`);
    const aloneAfter = await alone();
    await lockClient.end().catch(() => {});
    const thirdSeconds = SECONDS / 3;
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const rss = memory.map(mean);
    const machineLoad = loadAverage.map(mean);

    // The server's backends report their table statistics as they go idle or exit: stop it first.
    await stopServer(server);
    server = undefined;
    await new Promise((r) => setTimeout(r, 1_000));
    const after = await tableStats(client);
    const tablesAfter = await allTables(client);
    const workAfter = await databaseWork(client, probe);

    const rps = thirds.map((t) => t.answers / thirdSeconds);
    const ticksPerMs = 100 / 1000; // USER_HZ: 100 clock ticks a second on Linux
    function perAnswer(i: number, who: "server" | "postgres"): string {
      const samples = cpu[i]!;
      if (samples.length < 2) return "n/a";
      const span = samples.length - 1;
      // The answers within the sampled span (the third's rate times the span's length).
      const answers = (thirds[i]!.answers / thirdSeconds) * ((span * MEMORY_EVERY_MS) / 1000);
      return ((samples.at(-1)![who] - samples[0]![who]) / ticksPerMs / answers).toFixed(2);
    }
    const p99s = thirds.map((t) => p99(t.latencies));
    const updates = after.updates - before.updates;
    const hotUpdates = after.hot - before.hot;
    const rpsRatio = rps[2]! / rps[0]!;
    console.log(
      `\nPetstore soak: ${SECONDS} s, ${CONNECTIONS} connections shared among list, filtered list, name search, look-up by id, create, update of one animal (${UPDATE}); ${PETS} animals to start; production build; ${AUTOVACUUM === "off" ? "autovacuum off for every table" : "autovacuum as the server runs it"} (the server's own setting: ${autovacuum})\n`,
    );
    console.table(
      thirds.map((t, i) => ({
        third: ["first", "middle", "last"][i],
        "req/s": Math.round(rps[i]!),
        "p99 ms": p99s[i],
        "non-2xx": t.non2xx,
        "server memory": mb(rss[i]!),
        "machine load": machineLoad[i]!.toFixed(1),
        // CPU per answer, between the third's first and last samples: the server's processes, and the backends of the bench's database.
        "server CPU ms/answer": perAnswer(i, "server"),
        "PostgreSQL CPU ms/answer": perAnswer(i, "postgres"),
        // Sampled every 2 s: backends waiting on the feed's commit-order lock, and on any other lock.
        "waiting on feed lock (mean)": mean(waits[i]!.map((w) => w.feed)).toFixed(2),
        "waiting on other locks (mean)": mean(waits[i]!.map((w) => w.other)).toFixed(2),
      })),
    );
    console.table(
      kinds.map((k) => ({
        kind: k.name,
        connections: Math.max(1, Math.round((CONNECTIONS * k.share) / shares)),
        "first req/s": Math.round(thirds[0]!.byKind[k.name]! / thirdSeconds),
        "last req/s": Math.round(thirds[2]!.byKind[k.name]! / thirdSeconds),
        "last/first": (thirds[2]!.byKind[k.name]! / Math.max(thirds[0]!.byKind[k.name]!, 1)).toFixed(2),
      })),
    );
    console.table(
      kinds.map((k) => {
        const b = aloneBefore[k.name]!;
        const a = aloneAfter[k.name]!;
        return {
          alone: k.name,
          "before req/s": Math.round(b.rps),
          "after req/s": Math.round(a.rps),
          "after/before": (a.rps / Math.max(b.rps, 1)).toFixed(2),
          "median ms before → after": `${b.median} → ${a.median}`,
          "non-2xx": b.non2xx + a.non2xx,
        };
      }),
    );
    const p99Ratio = p99s[2]! / Math.max(p99s[0]!, 1);
    console.table([
      {
        "throughput last/first": rpsRatio.toFixed(2),
        "p99 last/first": p99Ratio.toFixed(2),
        "memory last/first": rss[0] ? (rss[2]! / rss[0]).toFixed(2) : "n/a",
        "server processes (all seen)": seen.size,
        errors: result.errors,
        timeouts: result.timeouts,
        "non-2xx": result.non2xx,
      },
    ]);
    console.table([
      {
        "pets updates": updates,
        "HOT updates": hotUpdates,
        "HOT share": updates ? `${((100 * hotUpdates) / updates).toFixed(1)} %` : "n/a",
        "dead row versions": after.dead,
        "live rows": after.live,
        table: `${mb(before.tableBytes)} -> ${mb(after.tableBytes)}`,
        indexes: `${mb(before.indexBytes)} -> ${mb(after.indexBytes)}`,
      },
    ]);
    console.table(
      Object.keys(workBefore).map((kind) => ({
        "database work (shared buffers)": kind,
        start: workBefore[kind],
        end: workAfter[kind],
        "end/start": (workAfter[kind]! / Math.max(1, workBefore[kind]!)).toFixed(2),
      })),
    );
    // Where dead row versions piled up (no VACUUM ran), table by table.
    console.table(
      [...tablesAfter.entries()]
        .map(([name, a]) => {
          const b = tablesBefore.get(name) ?? { ins: 0, upd: 0, hot: 0, dead: 0, bytes: 0 };
          return {
            table: name,
            inserts: a.ins - b.ins,
            updates: a.upd - b.upd,
            "HOT updates": a.hot - b.hot,
            "dead row versions": a.dead,
            size: `${mb(b.bytes)} -> ${mb(a.bytes)}`,
          };
        })
        .filter((t) => t.inserts + t.updates + t["dead row versions"] > 0)
        .sort((x, y) => y["dead row versions"] - x["dead row versions"] || y.updates - x.updates)
        .slice(0, 10),
    );
    if (refused.size) console.log(`Non-2xx answers: ${[...refused].map(([k, n]) => `${k}: ${n}`).join(", ")}`);
    console.log(
      `Verdict: throughput of the last third ${rpsRatio.toFixed(2)}× the first's (target ≥ ${TARGET_RATIO}×) ${rpsRatio >= TARGET_RATIO ? "MET" : "MISSED"}; ` +
        `p99 ${p99Ratio.toFixed(2)}× (target ≤ ${TARGET_P99_RATIO}×) ${p99Ratio <= TARGET_P99_RATIO ? "MET" : "MISSED"}; ` +
        `${result.errors + result.timeouts + result.non2xx === 0 ? "every request answered 2xx" : `${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`}`,
    );
  } finally {
    if (server && server.exitCode === null && server.signalCode === null) await stopServer(server);
    await client.end().catch(() => {});
    await bench.cleanup();
  }
}
