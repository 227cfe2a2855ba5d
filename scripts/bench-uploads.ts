/**
 * `npm run bench -- --uploads`: whether making photo variants stalls the
 * server. Resizing runs in a child process at a lower CPU priority
 * (lib/photos/resizer.ts, PHOTO_RESIZER_NICE), so the list should barely
 * notice it.
 *
 * One 12-megapixel JPEG (4000 x 3000, a few MB) is made once with sharp.
 * Then, in BENCH_ROUNDS (3) interleaved rounds (the order alternates, so
 * drift on a shared machine hits both sides alike):
 *   (a) GET /v1/pets?limit=20 with BENCH_CONNECTIONS (10) connections for
 *       BENCH_DURATION (10) seconds, alone: its p99 and req/s;
 *   (b) the same load while BENCH_UPLOADERS (4) clients upload the photo in
 *       a loop, each to another animal every time, deleting the photo once
 *       it is added (so no animal reaches its 10-photo cap): the list's p99
 *       and req/s, and the uploads completed in the window (photos a minute).
 * Target: the list's p99 with uploads within 1.5x of its p99 alone (medians).
 * Last, the uploads alone for one window: photos a minute on an idle machine.
 *
 * The uploaders run on a thread of their own: pushing megabytes of request
 * bodies on autocannon's event loop would delay the list's requests on the
 * client side, and the bench would measure itself.
 *
 * It creates its own database ("petstore_bench_uploads", BENCH_PETS 2,000
 * animals) on the embedded server or on DATABASE_URL's server, and drops it
 * at the end. Like the other cases it builds first; BENCH_BUILD=0 reuses
 * the production build in .next as it is.
 */
import { Worker } from "node:worker_threads";
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import pg from "pg";
import sharp from "sharp";
import { PROFILE_DIR, benchEnvironment, cliOut, profileArgs, startServer, stopServer } from "./bench-harness";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 4);
const PETS = Number(process.env.BENCH_PETS ?? 2_000);
const PORT = Number(process.env.BENCH_PORT ?? 3230);
const api = `http://127.0.0.1:${PORT}/v1`;
const LIST = `${api}/pets?limit=20`;
/** The issue's bound: the list's p99 with uploads over its p99 alone. */
const TARGET = 1.5;

/** A 4000 x 3000 JPEG that does not compress to nothing: gradients, a wave and grain, as a photo has. */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 0x2545f491;
  const noise = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) / 4294967296 - 0.5) * 48;
  };
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const n = noise();
      raw[i] = clamp(128 + 100 * Math.sin(x / 170) * Math.cos(y / 230) + n);
      raw[i + 1] = clamp((x * 255) / width + n);
      raw[i + 2] = clamp((y * 255) / height - n);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function seedAnimals(url: string, count: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO pets (name, organization_id, category_id, status)
       SELECT 'Bench pet ' || g, (SELECT min(id) FROM organizations), (SELECT id FROM categories ORDER BY id LIMIT 1 OFFSET (g % 6)),
              (ARRAY['available','pending','sold'])[1 + g % 3]::"PetStatus"
       FROM generate_series(1, $1::int) AS g`,
      [count],
    );
    await client.query("VACUUM ANALYZE pets");
    const { rows } = await client.query<{ id: number }>("SELECT id FROM pets WHERE name LIKE 'Bench pet %' ORDER BY id");
    return rows.map((r) => Number(r.id));
  } finally {
    await client.end();
  }
}

// Plain JavaScript, so the thread needs no TypeScript loader. Each loop
// takes the next animal of the shared rotation (a counter in shared memory),
// uploads the photo as the raw body with its Content-Type, and deletes it.
const UPLOADER_THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const { api, key, pets, uploaders } = workerData;
// A copy of its own: fetch refuses a body on shared memory.
const photo = Buffer.from(new Uint8Array(workerData.photo));
const next = new Int32Array(workerData.next);
const auth = { authorization: "Bearer " + key };
async function loop(until, done) {
  while (performance.now() < until) {
    const pet = pets[Atomics.add(next, 0, 1) % pets.length];
    const started = performance.now();
    try {
      const res = await fetch(api + "/pets/" + pet + "/photos?alt=Bench", { method: "POST", headers: { ...auth, "content-type": "image/jpeg" }, body: photo });
      const body = await res.text();
      if (res.status !== 201) {
        done.errors.push(res.status + " " + body.slice(0, 200));
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const finished = performance.now();
      // Counted when the 201 arrives within the window; one that finishes after it is not.
      if (finished <= until) done.latencies.push(finished - started);
      else done.late++;
      const id = JSON.parse(body).id;
      const del = await fetch(api + "/pets/" + pet + "/photos/" + id, { method: "DELETE", headers: auth });
      await del.arrayBuffer();
      if (del.status !== 204) done.errors.push("DELETE " + del.status);
    } catch (error) {
      done.errors.push(String(error));
    }
  }
}
parentPort.on("message", async ({ seconds }) => {
  const done = { latencies: [], late: 0, errors: [] };
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: uploaders }, () => loop(until, done)));
  parentPort.postMessage({ ...done, drainMs: performance.now() - until });
});
parentPort.postMessage({ ready: true });
`;

interface UploadRun {
  latencies: number[];
  late: number;
  errors: string[];
  /** How long after the window the last in-flight upload (and its delete) finished. */
  drainMs: number;
}

async function startUploaders(photo: Buffer, key: string, pets: number[]) {
  const shared = new SharedArrayBuffer(photo.length);
  new Uint8Array(shared).set(photo);
  const thread = new Worker(UPLOADER_THREAD, {
    eval: true,
    workerData: { api, key, pets, uploaders: UPLOADERS, photo: shared, next: new SharedArrayBuffer(4) },
  });
  await new Promise<void>((resolve, reject) => {
    thread.once("error", reject);
    thread.once("message", () => resolve());
  });
  return {
    /** Uploads for `seconds`, then waits for the uploads in flight to finish. */
    run: (seconds: number) =>
      new Promise<UploadRun>((resolve) => {
        thread.once("message", (result: UploadRun) => resolve(result));
        thread.postMessage({ seconds });
      }),
    close: async () => void (await thread.terminate()),
  };
}

interface ListSample {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measureList(key: string, duration: number): Promise<ListSample> {
  const result = await autocannon({ url: LIST, headers: { authorization: `Bearer ${key}` }, connections: CONNECTIONS, duration });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);

export async function main(): Promise<void> {
  const bench = await benchEnvironment("petstore_bench_uploads", 0, PORT);
  const { env } = bench;
  const pets = await seedAnimals(bench.url, PETS);
  let child: ChildProcess | undefined;
  let uploaders: Awaited<ReturnType<typeof startUploaders>> | undefined;
  try {
    // Limits far above what a run can send; pets:write to add and delete photos.
    const key = cliOut(
      [
        "keys",
        "create",
        "--name",
        "bench uploads",
        "--org",
        "1",
        "--plan",
        "enterprise",
        "--per-minute",
        "100000000",
        "--per-day",
        "100000000",
        "--scopes",
        "pets:read,pets:write",
      ],
      env,
    )
      .trim()
      .split("\n")
      .at(-1)!;

    const made = performance.now();
    const photo = await twelveMegapixelJpeg();
    const meta = await sharp(photo).metadata();
    console.error(
      `  photo: ${meta.width} x ${meta.height} JPEG, ${(photo.length / 1024 / 1024).toFixed(2)} MB (made in ${Math.round(performance.now() - made)} ms)`,
    );

    child = await startServer(env, profileArgs());
    child.once("exit", (code, signal) => console.error(`  the server exited (${code ?? signal}) during the benchmark`));
    uploaders = await startUploaders(photo, key, pets);

    // Warm up: compile the routes, fill the pools, load sharp in every worker.
    await measureList(key, 2);
    const warm = await uploaders.run(3);
    if (warm.errors.length) throw new Error(`uploads fail: ${warm.errors.slice(0, 3).join("; ")}`);

    const alone: ListSample[] = [];
    const loaded: ListSample[] = [];
    const uploads: (UploadRun & { perMinute: number })[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const withUploads = async () => {
        const [list, up] = await Promise.all([measureList(key, DURATION), uploaders!.run(DURATION)]);
        loaded.push(list);
        uploads.push({ ...up, perMinute: (up.latencies.length / DURATION) * 60 });
        const sorted = [...up.latencies].sort((a, b) => a - b);
        console.error(
          `  round ${round}/${ROUNDS} list with ${UPLOADERS} uploaders: ${Math.round(list.rps)} req/s, p50 ${list.p50} ms, p99 ${list.p99} ms${list.non2xx || list.errors ? `, ${list.non2xx} non-2xx, ${list.errors} errors` : ""}; ` +
            `${up.latencies.length} photos (${uploads.at(-1)!.perMinute.toFixed(1)}/min), upload p50 ${Math.round(percentile(sorted, 50))} ms, max ${Math.round(sorted.at(-1) ?? NaN)} ms, ${up.late} finished after the window (drained ${(up.drainMs / 1000).toFixed(1)} s later)${up.errors.length ? `, ${up.errors.length} failed: ${up.errors.slice(0, 2).join("; ")}` : ""}`,
        );
      };
      const listAlone = async () => {
        const list = await measureList(key, DURATION);
        alone.push(list);
        console.error(
          `  round ${round}/${ROUNDS} list alone: ${Math.round(list.rps)} req/s, p50 ${list.p50} ms, p99 ${list.p99} ms${list.non2xx || list.errors ? `, ${list.non2xx} non-2xx, ${list.errors} errors` : ""}`,
        );
      };
      if (round % 2) {
        await listAlone();
        await withUploads();
      } else {
        await withUploads();
        await listAlone();
      }
    }

    const ratios = alone.map((a, i) => loaded[i]!.p99 / Math.max(a.p99, 1));
    console.log(
      `\nPetstore upload benchmark: ${ROUNDS} interleaved rounds × ${DURATION} s, list GET /v1/pets?limit=20 with ${CONNECTIONS} connections, ${UPLOADERS} uploaders of a ${(photo.length / 1024 / 1024).toFixed(1)} MB 12-megapixel JPEG, ${PETS} animals, production build, WEB_CONCURRENCY ${env.WEB_CONCURRENCY ?? "default (one per core)"}`,
    );
    console.log(`Target: the list's p99 with uploads ≤ ${TARGET}× its p99 alone (median of per-round ratios).\n`);
    const rows = alone.map((a, i) => {
      const l = loaded[i]!;
      const u = uploads[i]!;
      return {
        round: String(i + 1),
        "list req/s alone": Math.round(a.rps),
        "list p99 alone ms": a.p99,
        "list req/s w/ uploads": Math.round(l.rps),
        "list p99 w/ uploads ms": l.p99,
        "p99 ratio": ratios[i]!.toFixed(2),
        photos: u.latencies.length,
        "photos/min": u.perMinute.toFixed(1),
        "upload p50 ms": Math.round(
          percentile(
            [...u.latencies].sort((x, y) => x - y),
            50,
          ),
        ),
        "failed uploads": u.errors.length,
      };
    });
    const allLatencies = uploads.flatMap((u) => u.latencies).sort((a, b) => a - b);
    rows.push({
      round: "median",
      "list req/s alone": Math.round(median(alone.map((s) => s.rps))),
      "list p99 alone ms": median(alone.map((s) => s.p99)),
      "list req/s w/ uploads": Math.round(median(loaded.map((s) => s.rps))),
      "list p99 w/ uploads ms": median(loaded.map((s) => s.p99)),
      "p99 ratio": median(ratios).toFixed(2),
      photos: median(uploads.map((u) => u.latencies.length)),
      "photos/min": median(uploads.map((u) => u.perMinute)).toFixed(1),
      "upload p50 ms": Math.round(percentile(allLatencies, 50)),
      "failed uploads": uploads.reduce((n, u) => n + u.errors.length, 0),
    });
    console.table(rows);
    // Uploads with the machine otherwise idle: the resizer's lower priority
    // (PHOTO_RESIZER_NICE) only costs uploads time while requests want the CPU.
    const idle = await uploaders.run(DURATION);
    const idlePerMinute = (idle.latencies.length / DURATION) * 60;
    const idleSorted = [...idle.latencies].sort((a, b) => a - b);
    console.log(
      `Uploads alone (no list load, ${DURATION} s): ${idle.latencies.length} photos (${idlePerMinute.toFixed(1)}/min), upload p50 ${Math.round(percentile(idleSorted, 50))} ms${idle.errors.length ? `, ${idle.errors.length} failed` : ""}`,
    );
    const ratio = median(ratios);
    console.log(
      `Verdict: list p99 ${median(alone.map((s) => s.p99))} ms alone, ${median(loaded.map((s) => s.p99))} ms with ${UPLOADERS} uploaders: ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? "MET" : "MISSED"}; ` +
        `upload throughput ${median(uploads.map((u) => u.perMinute)).toFixed(1)} photos a minute under the list's load (median of ${ROUNDS} rounds), ${idlePerMinute.toFixed(1)} alone (12 MP; resizer nice ${env.PHOTO_RESIZER_NICE ?? "default"})`,
    );
    if (process.env.BENCH_PROFILE) console.log(`CPU profiles: ${PROFILE_DIR}`);
  } finally {
    if (uploaders) await uploaders.close();
    if (child && child.exitCode === null && child.signalCode === null) await stopServer(child);
    await bench.cleanup();
  }
}
