/**
 * The floor of `npm run bench`: a plain `node:http` + `pg` server, on the
 * same Node, sending PostgreSQL exactly the statements the service sends for
 * each bench case, and answering JSON of the same shape. What the service
 * costs beyond it is the framework, the wrapper, validation and presentation:
 * the bench reports each case as a ratio to this server, in the same run.
 *
 * Per request, as the service: the API key's row by its hash (kept 5 s per
 * process, as lib/keys/cache.ts does), the rate-limit counters' upsert
 * (lib/rate-limit/postgres-store.ts, the key's minute and day windows; a
 * read runs beside it, a write after it), then the case's statement, built
 * by the service's own SQL builders (lib/pets/queries.ts), run prepared.
 * One request, one set of statements: the plain server the targets were set
 * against (issue 33). The service also shares round trips between
 * concurrent requests (lib/batch.ts: counter hits of one key as one `+n`,
 * identical reads as one, look-ups by id and creates batched), which a
 * plain server does not: where that is what a case measures (creates, whose
 * commits queue on the feed's lock, and the near search's heavier statement,
 * which 50 clients all ask at once), the service can pass the floor.
 * FLOOR_SHARE=1 (BENCH_FLOOR_SHARE=1) makes the floor share them the same
 * way: then it is the same database work with nothing around it, an upper
 * bound no framework reaches (the no-op route is the framework's own cost).
 *
 *   FLOOR_PORT, DATABASE_URL, WEB_CONCURRENCY (workers, default one per core), DATABASE_POOL_SIZE
 *
 * Not part of the app: started by scripts/bench.ts only.
 */
import cluster from "node:cluster";
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import os from "node:os";
import pg from "pg";
import { Batcher } from "@/lib/batch";
import { chordOfKm } from "@/lib/organizations/geo";
import { insertPetsWithRecords, readForChangeSql, updateWithRecordSql, type PetToCreate } from "@/lib/pets/queries/writes";
import { NEAR_CHUNK_FIRST, nearChunkSql } from "@/lib/pets/queries/near";
import { pageSql } from "@/lib/pets/queries/pages";
import { petsByIdSql } from "@/lib/pets/queries/lookups";
import { newPetSchema } from "@/lib/pets/schemas/pet";

const PORT = Number(process.env.FLOOR_PORT ?? 3281);
const WORKERS = Number(process.env.WEB_CONCURRENCY ?? os.availableParallelism());
const POOL = Math.max(2, Math.ceil(Number(process.env.DATABASE_POOL_SIZE ?? 10) / WORKERS));
const COUNTER_POOL = Math.max(2, Math.ceil(5 / WORKERS));
const KEY_TTL_MS = 5_000;

interface Key {
  id: string;
  organizationId: string | null;
  expiresAt: number;
}

function serve(): void {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL });
  const counters = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: COUNTER_POOL });
  // An idle connection the server closes (a restart, an administrator) must not end the floor, as it does not end the service.
  pool.on("error", () => {});
  counters.on("error", () => {});
  const keys = new Map<string, Key>();
  // A create's fields with every default the API's schema gives them (parsed once).
  const newPet = newPetSchema.parse({ name: "Bench", categoryId: 1 });

  const run = async <R extends pg.QueryResultRow>(p: pg.Pool, sql: { text: string; values: unknown[] }, name: string): Promise<R[]> =>
    (await p.query<R>({ name, text: sql.text, values: sql.values })).rows;

  // FLOOR_SHARE=1: the service's sharing of round trips (lib/db.ts sharedQuery, lib/rate-limit/coalesce.ts, lib/pets/queries.ts).
  const sharing = process.env.FLOOR_SHARE === "1";
  const identical = new Batcher<{ sql: { text: string; values: unknown[] }; name: string }, unknown[]>(async (items) => {
    const rows = await run(pool, items[0]!.sql, items[0]!.name);
    return items.map(() => rows);
  }, Number.MAX_SAFE_INTEGER);
  const shared = (sql: { text: string; values: unknown[] }, name: string) =>
    (sharing
      ? identical.run(`${sql.text}\u0000${JSON.stringify(sql.values, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`, { sql, name })
      : run(pool, sql, name)) as Promise<pg.QueryResultRow[]>;
  const petsOf = async (ids: number[]) => {
    const rows = await run<{ id: string }>(pool, petsByIdSql(ids), "floor-by-id");
    const found = new Map(rows.map((r) => [Number(r.id), r]));
    return ids.map((id) => found.get(id) ?? null);
  };
  const byId = new Batcher<number, unknown>(petsOf, 100);
  const insert = async (items: PetToCreate[]) => {
    const rows = await run<{ ord: number }>(pool, insertPetsWithRecords(items), "floor-create");
    const byOrd = new Map(rows.map((r) => [Number(r.ord), r]));
    return items.map((_, i) => byOrd.get(i + 1) ?? null);
  };
  const creates = new Batcher<PetToCreate, unknown>(insert, 100);
  const hits = new Batcher<Key, void>(async (items) => {
    await hitBy(items[0]!, items.length);
    return items.map(() => undefined);
  }, Number.MAX_SAFE_INTEGER);
  const hit = (key: Key) => (sharing ? hits.run(key.id, key) : hitBy(key, 1));
  const findById = (id: number) => (sharing ? byId.run("primary", id) : petsOf([id]).then(([pet]) => pet));
  const create = (item: PetToCreate) => (sharing ? creates.run("create", item) : insert([item]).then(([pet]) => pet));

  async function keyOf(authorization: string | undefined): Promise<Key | null> {
    const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
    if (!token) return null;
    const hash = createHash("sha256").update(token).digest("hex");
    const now = Date.now();
    const cached = keys.get(hash);
    if (cached && cached.expiresAt > now) return cached;
    const rows = await run<{ id: string; organization_id: string | null; revoked_at: Date | null }>(
      pool,
      {
        text: `SELECT id, name, prefix, last4, plan, scopes, per_minute, per_day, created_at, last_used_at, revoked_at, banned_until, organization_id
                 FROM api_keys WHERE hash = $1 LIMIT 1`,
        values: [hash],
      },
      "floor-key",
    );
    const row = rows[0];
    if (!row || row.revoked_at) return null;
    const key = { id: row.id, organizationId: row.organization_id, expiresAt: now + KEY_TTL_MS };
    keys.set(hash, key);
    return key;
  }

  async function hitBy(key: Key, by: number): Promise<void> {
    const now = Date.now();
    const day = Math.floor(now / 86_400_000) * 86_400_000;
    const minute = Math.floor(now / 60_000) * 60_000;
    // In key order, as the service sends them ("key:1:day" < "key:1:minute").
    await counters.query({
      name: "rate-limit-hit-2",
      text: `INSERT INTO rate_limit_counters AS c (key, window_start, hits, expires_at)
             VALUES ($2, $3, $1::int, $4), ($5, $6, $1::int, $7)
             ON CONFLICT (key, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits
             RETURNING key, hits`,
      values: [by, `key:${key.id}:day`, new Date(day), new Date(day + 86_400_000), `key:${key.id}:minute`, new Date(minute), new Date(minute + 60_000)],
    });
  }

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => resolve(Buffer.concat(chunks).toString()));
      req.on("error", reject);
    });

  async function list(url: URL): Promise<unknown> {
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const status = (url.searchParams.get("status") ?? undefined) as "available" | undefined;
    const near = url.searchParams.get("near");
    if (near) {
      const [lat, lng] = near.split(",").map(Number) as [number, number];
      const maxChord = chordOfKm(Number(url.searchParams.get("within") ?? 80));
      const rows = await shared(nearChunkSql({ lat, lng, maxChord, status, take: limit + 1, from: 0, chunk: NEAR_CHUNK_FIRST }), `floor-near-${status}`);
      const pets = rows.filter((r) => r.id !== null).slice(0, limit);
      return { pets, cursors: rows.length > limit ? { next: `${pets.at(-1)?.chord}.${pets.at(-1)?.id}` } : {} };
    }
    const cursor = url.searchParams.get("cursor");
    const after = cursor ? (JSON.parse(Buffer.from(cursor, "base64url").toString()) as { id: number }).id : undefined;
    const sql = pageSql({ status, after, take: limit + 1 });
    const rows = await shared(sql, `floor-page-${status}-${after !== undefined}`);
    const pets = rows.filter((r) => r.id !== null).slice(0, limit);
    return {
      pets,
      cursors: rows.length > limit ? { next: Buffer.from(JSON.stringify({ v: 1, d: "after", id: Number(pets.at(-1)!.id) })).toString("base64url") } : {},
    };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://floor");
    if (url.pathname === "/healthz") return send(res, 200, { status: "ok" });
    const key = await keyOf(req.headers.authorization);
    if (!key) return send(res, 401, { code: "unauthorized", message: "A valid API key is required.", status: 401 });
    const one = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
    if (req.method === "GET" && url.pathname === "/v1/pets") {
      const [, body] = await Promise.all([hit(key), list(url)]);
      return send(res, 200, body);
    }
    if (req.method === "GET" && one) {
      const [, pet] = await Promise.all([hit(key), findById(Number(one[1]))]);
      return pet ? send(res, 200, pet) : send(res, 404, { code: "not_found", message: "There is no such animal.", status: 404 });
    }
    if (req.method === "POST" && url.pathname === "/v1/pets") {
      const input = JSON.parse(await readBody(req)) as { name: string; categoryId: number };
      await hit(key);
      const pet = await create({
        pet: { ...newPet, name: input.name, categoryId: input.categoryId, organizationId: Number(key.organizationId) },
        actor: { kind: "api_key", id: Number(key.id), name: null },
        requestId: randomUUID(),
      });
      return send(res, 201, pet);
    }
    if (req.method === "PATCH" && one) {
      // The change as one statement with its audit record: the row, read
      // first for its version and the record's "before", then written if
      // still at that version (as lib/pets/service.ts updatePlainly does).
      const input = JSON.parse(await readBody(req)) as { name: string };
      await hit(key);
      const id = Number(one[1]);
      const organizationId = key.organizationId === null ? undefined : Number(key.organizationId);
      for (;;) {
        const [was] = await run<{ version: number; name: string }>(pool, readForChangeSql(id, organizationId), "floor-read");
        if (!was) return send(res, 404, { code: "not_found", message: "There is no such animal.", status: 404 });
        if (was.name === input.name) return send(res, 200, was);
        const sql = updateWithRecordSql({
          id,
          organizationId,
          version: was.version,
          columns: { name: input.name },
          before: { name: was.name },
          actor: { kind: "api_key", id: Number(key.id), name: null },
          requestId: randomUUID(),
        });
        const rows = await run(pool, sql, "floor-update");
        if (rows[0]) return send(res, 200, rows[0]);
      }
    }
    send(res, 404, { code: "not_found", message: "No such route.", status: 404 });
  }

  http
    .createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) send(res, 500, { code: "internal", message: "floor failed", status: 500 });
      });
    })
    .listen(PORT, "127.0.0.1", () => console.log(`Floor ready on ${PORT}`));
}

if (cluster.isPrimary && WORKERS > 1) {
  for (let i = 0; i < WORKERS; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  serve();
  process.on("SIGTERM", () => process.exit(0));
}
