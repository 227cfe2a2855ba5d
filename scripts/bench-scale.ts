/**
 * `npm run bench -- --scale`: does a page cost the same at a million
 * animals as at ten thousand? Seeds both sizes with the same realistic,
 * skewed history (the oldest 90% sold, the newest available or pending, one
 * category found only among the old), then times every filter combination
 * of the list (none, status, category, both, a name search; first pages and
 * deep pages in both directions) through the API, at each size, and prints
 * the ratio (target: ≤ 1.2× from 10k to 1M). Then the profile filters (sex,
 * size, age, goodWith, and status with age), first and deep pages, each as a
 * ratio to the plain list at 1M in the same run (target: ≤ 1.5×). Then
 * search near a place (issue "Many shelters"): the animals are spread over
 * 10,000 organisations placed at real US ZIP code centres (as dense as
 * ZIP codes are: cities crowded, the plains sparse), a fifth of the animals
 * in care live in foster homes (issue 50: found at their foster's ZIP code
 * centre, tens of km from their organisation; BENCH_SCALE_FOSTER_SHARE), and
 * near pages, first and tenth, are timed against the plain list's first and
 * tenth pages in the same run (target: ≤ 1.5×). Then the listing-site filters (issue 34:
 * houseTrained, specialNeeds, spayedNeutered, coatLength), first and tenth
 * pages against the plain list's first and tenth (target: ≤ 1.5×).
 *
 *   BENCH_SCALE_ROWS=1000000   the large size     BENCH_SCALE_SAMPLES=60 requests per combination
 *   BENCH_SCALE_ORGS=10000     organisations the animals are spread over
 *   BENCH_SCALE_ONLY=near      only the near search (the large size alone)
 *   BENCH_SCALE_FOSTER_SHARE=0.2  the share of the animals in care (an open stay) living in foster homes, at every size:
 *                              the seed then gives every animal its stays, and places that share with active fosters
 *                              near their organisation (seedFosters); 0: no stays, no fosters (the setup before issue 50).
 *                              0 by default with BENCH_SCALE_ONLY=listing, which has no near search
 *   BENCH_SCALE_KEEP=1         keep the seeded databases at the end (to profile them; drop them by hand)
 *   BENCH_SCALE_EXPLAIN=1      EXPLAIN (ANALYZE, BUFFERS) of the statements of each near page over 1.5× (=all: of every near page)
 *   BENCH_SCALE_ONLY=listing   only the listing-site filters (the large size alone)
 *   BENCH_SCALE_ONLY=alerts    only alert matching (scripts/bench-alerts.ts; also `npm run bench -- --alerts`)
 *   BENCH_DATABASE=petstore_bench_scale   the databases' names (<name>, <name>_0, <name>_1): another run on the same server takes another
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { Prisma } from "@/lib/generated/prisma/client";
import { EARTH_RADIUS_M, chordOfKm } from "@/lib/organizations/geo";
import { ORGS, PORT, benchEnvironment, cliOut, seedOrganizations, startServer, stopServer } from "./bench-harness";
import { createDatabaseIfMissing, databaseName, dropDatabase, withDatabaseName } from "./database";
import { run } from "./launch";
import path from "node:path";
import { ROOT } from "./database";

const LARGE = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);
const SMALL = 10_000;
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 60);
const BATCH = 50_000;
const NEAR_ONLY = process.env.BENCH_SCALE_ONLY === "near";
const LISTING_ONLY = process.env.BENCH_SCALE_ONLY === "listing";
const LARGE_ONLY = NEAR_ONLY || LISTING_ONLY;
/** The share of the animals in care that live in foster homes (issue 50); the listing-only run, which has no near search, keeps none. */
const FOSTER_SHARE = Number(process.env.BENCH_SCALE_FOSTER_SHARE ?? (LISTING_ONLY ? 0 : 0.2));
if (!(FOSTER_SHARE >= 0 && FOSTER_SHARE <= 1))
  throw new Error(`BENCH_SCALE_FOSTER_SHARE must be a fraction from 0 to 1, not ${process.env.BENCH_SCALE_FOSTER_SHARE}`);
/** BENCH_SCALE_EXPLAIN=1: the plans of the near pages over 1.5×; =all: of every near page. */
const EXPLAIN = process.env.BENCH_SCALE_EXPLAIN === "all" ? "all" : process.env.BENCH_SCALE_EXPLAIN ? "over" : "";
/** How far from its organisation a foster lives, at most (km): a rescue's volunteers live around it. */
const FOSTER_RADIUS_KM = 40;
const NAMES = [
  "Biscuit",
  "Luna",
  "Max",
  "Pepper",
  "Rosie",
  "Duke",
  "Maple",
  "Otis",
  "Zoë",
  "Bruno",
  "Mittens",
  "Shadow",
  "Cleo",
  "Nala",
  "Thumper",
  "Clover",
  "Kiwi",
  "Mango",
  "Spike",
  "Peanut",
];

function progress(label: string, done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(
    `\r  ${label} [${"█".repeat(filled)}${"░".repeat(width - filled)}] ${Math.round((done / total) * 100)}% ${done.toLocaleString("en")}/${total.toLocaleString("en")}`,
  );
  if (done >= total) process.stderr.write("\n");
}

/** `rows` animals with the skewed history, spread over ORGS organisations, inserted in batches with a progress bar. */
async function seedSkewed(url: string, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("TRUNCATE pets CASCADE");
  const organizations = await seedOrganizations(client);
  const oldEnd = Math.floor(rows * 0.9);
  for (let from = 1; from <= rows; from += BATCH) {
    const to = Math.min(rows, from + BATCH - 1);
    await client.query(
      // Profiles spread as a shelter's are: a third of each sex (some unknown),
      // sizes with some unknown, birth dates over 15 years (some unknown),
      // goodWith answers yes, no or unknown, independently. The listing
      // sites' answers too: house-trained 2 in 5 (1 in 5 not, the rest not
      // known), special needs 1 in 20 (3 in 5 not), spayed or neutered 3 in
      // 5 (3 in 20 not), coats mostly short or medium.
      `INSERT INTO pets (name, organization_id, category_id, status, sex, size, birth_date, good_with_children, good_with_dogs, good_with_cats,
                         house_trained, special_needs, spayed_neutered, coat_length)
       SELECT ($4::text[])[1 + g % array_length($4::text[], 1)] || ' ' || g,
              -- Interleaved: an organisation's animals span the whole history, as a shelter's do.
              ($5::bigint[])[1 + (g::bigint * 7919) % array_length($5::bigint[], 1)],
              (SELECT id FROM categories ORDER BY id OFFSET (CASE WHEN g <= $3 THEN g % 6 ELSE g % 5 END) LIMIT 1),
              (CASE WHEN g <= $3 THEN 'sold' WHEN g % 3 = 0 THEN 'pending' ELSE 'available' END)::"PetStatus",
              (ARRAY['female', 'male', 'female', 'male', 'unknown'])[1 + g % 5]::"PetSex",
              (CASE WHEN g % 7 = 0 THEN NULL ELSE (ARRAY['small', 'medium', 'large', 'xlarge'])[1 + (g / 7) % 4] END)::"PetSize",
              CASE WHEN g % 13 = 0 THEN NULL ELSE current_date - ((g * 37) % 5500) END,
              (ARRAY[true, false, NULL])[1 + (g / 2) % 3],
              (ARRAY[true, false, NULL])[1 + (g / 5) % 3],
              (ARRAY[true, false, NULL])[1 + (g / 11) % 3],
              (ARRAY[true, true, false, NULL, NULL])[1 + (g / 3) % 5],
              (CASE WHEN g % 20 = 7 THEN true WHEN g % 5 < 3 THEN false END),
              (ARRAY[true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, NULL, NULL, NULL, NULL, NULL])[1 + (g / 13) % 20],
              (ARRAY['short', 'short', 'short', 'short', 'short', 'short', 'short', 'medium', 'medium', 'medium', 'medium', 'medium',
                     'long', 'long', 'long', 'wire', 'curly', 'hairless', NULL, NULL])[1 + (g / 17) % 20]::"PetCoatLength"
       FROM generate_series($1::int, $2::int) g`,
      [from, to, oldEnd, NAMES, organizations],
    );
    progress(`seeding ${rows.toLocaleString("en")}`, to, rows);
  }
  process.stderr.write("  VACUUM ANALYZE ...\n");
  await client.query("VACUUM ANALYZE pets");
  await client.end();
}

/** What seedFosters did: the animals in care (an open stay), how many of them live in foster homes, with how many fosters, and the time each step took. */
interface FosterSeeding {
  inCare: number;
  fostered: number;
  fosters: number;
  staysMs: number;
  fostersMs: number;
  placementsMs: number;
  /** How far the fosters live from their organisation: median and farthest, km. */
  medianKm: number;
  maxKm: number;
}

/** Every US ZIP code centre seedOrganizations may place an organisation at (the 48 contiguous states, Alaska and Hawaii). */
async function zipCentres(): Promise<{ zip: string; lat: number; lng: number; city: string; region: string }[]> {
  const { lookUpZip } = await import("@/lib/organizations/zip");
  const out = [];
  for (let n = 0; n < 100_000; n++) {
    const place = await lookUpZip(String(n).padStart(5, "0"));
    if (place && place.region && place.lat > 18 && place.lng < -60) out.push(place);
  }
  return out;
}

/**
 * `share` of the animals in care in foster homes, as a rescue's records
 * would have them, all written through the tables' triggers as production
 * writes them (set-based INSERT … SELECT; no trigger disabled):
 *
 * - a stay for every animal (seedSkewed gives none; a placement lies inside
 *   an open stay): intakes spread over five years in id order, a sold
 *   animal's stay ended by an adoption 7 to 66 days later, the others open
 *   (in care);
 * - `share` of the animals with an open stay, drawn by a fixed shuffle of
 *   their ids (so some organisations foster more than others), each in an
 *   open placement that started during its stay;
 * - their organisation's fosters: active, two such animals each (capacity 2
 *   to 4) and half as many again with none just now, each living at a real
 *   ZIP code centre among the dozen nearest their organisation within
 *   FOSTER_RADIUS_KM (the nearest one where there is none that close).
 *
 * The placements' trigger sets pets.foster_point; a check compares it with
 * each open placement's foster's point afterwards.
 */
async function seedFosters(url: string, share: number): Promise<FosterSeeding> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { min, max } = (await client.query<{ min: string; max: string }>("SELECT min(id) AS min, max(id) AS max FROM pets")).rows[0]!;
    const [first, last] = [Number(min), Number(max)];
    const staysStarted = performance.now();
    for (let from = first; from <= last; from += BATCH) {
      const to = Math.min(last, from + BATCH - 1);
      await client.query(
        // Five years of intakes, the newest a day ago, of each type in turn:
        // stray, from its owner, a transfer in (in state), stray, other.
        `INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, intake_detail, outcome_at, outcome_type)
         SELECT p.id, p.organization_id, h.intake_at,
                (ARRAY['stray', 'relinquishedByOwner', 'transferredIn', 'stray', 'otherIntake'])[1 + p.id % 5]::"IntakeType",
                CASE WHEN p.id % 5 = 2 THEN 'inState' END,
                CASE WHEN p.status = 'sold' THEN h.intake_at + (7 + p.id % 60) * interval '1 day' END,
                CASE WHEN p.status = 'sold' THEN 'adoption'::"OutcomeType" END
         FROM pets p
         CROSS JOIN LATERAL (SELECT now() - interval '1 day' - ($4::bigint - p.id) * (interval '5 years' / GREATEST($4::bigint - $3::bigint, 1)) AS intake_at) h
         WHERE p.id BETWEEN $1 AND $2`,
        [from, to, first, last],
      );
      progress("stays", to - first + 1, last - first + 1);
    }
    const staysMs = performance.now() - staysStarted;

    const fostersStarted = performance.now();
    const zips = await zipCentres();
    await client.query(`CREATE TEMP TABLE bench_zips (zip text, city text, region text, lat float8, lng float8, point cube)`);
    await client.query(
      `INSERT INTO bench_zips SELECT zip, city, region, lat, lng, geo_point(lat, lng)
       FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[]) AS z(zip, city, region, lat, lng)`,
      [zips.map((z) => z.zip), zips.map((z) => z.city), zips.map((z) => z.region), zips.map((z) => z.lat), zips.map((z) => z.lng)],
    );
    await client.query("CREATE INDEX ON bench_zips USING gist (point)");
    await client.query("ANALYZE bench_zips");
    const inCare = Number((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pet_stays WHERE outcome_at IS NULL")).rows[0]!.n);
    // The animals to foster, numbered within their organisation (two to a foster).
    await client.query(
      `CREATE TEMP TABLE bench_fostered AS
       SELECT pet_id, stay_id, organization_id, intake_at, row_number() OVER (PARTITION BY organization_id ORDER BY pet_id) - 1 AS n
       FROM (SELECT s.pet_id, s.id AS stay_id, s.organization_id, s.intake_at FROM pet_stays s WHERE s.outcome_at IS NULL
             ORDER BY (s.pet_id * 2654435761) % 4294967296 LIMIT $1) drawn`,
      [Math.round(share * inCare)],
    );
    const chord = chordOfKm(FOSTER_RADIUS_KM);
    const { rowCount: fosters } = await client.query(
      `INSERT INTO people (organization_id, name, email, city, region, postcode, country, lat, lng, foster_status, foster_capacity)
       SELECT f.org, 'Bench foster ' || f.org || '-' || f.n, 'foster-' || f.org || '-' || f.n || '@bench.example',
              z.city, z.region, z.zip, 'US', z.lat, z.lng, 'active', 2 + f.n % 3
       FROM (SELECT organization_id AS org, generate_series(0, ceil(ceil(count(*) / 2.0) * 1.5)::int - 1) AS n FROM bench_fostered GROUP BY organization_id) f
       JOIN organizations o ON o.id = f.org
       CROSS JOIN LATERAL (
         SELECT * FROM (SELECT z.*, z.point <-> o.earth_point AS chord, row_number() OVER (ORDER BY z.point <-> o.earth_point) AS nearest
                        FROM (SELECT * FROM bench_zips z ORDER BY z.point <-> o.earth_point LIMIT 12) z) z
          WHERE z.chord <= $1::float8 OR z.nearest = 1
          ORDER BY md5(f.org || '-' || f.n || '-' || z.zip) LIMIT 1) z
       ORDER BY f.org, f.n`,
      [chord],
    );
    const fostersMs = performance.now() - fostersStarted;
    const placementsStarted = performance.now();
    const { rowCount: fostered } = await client.query(
      // Placed some time into the stay (a tenth to nine tenths of it so far).
      `INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at)
       SELECT a.pet_id, a.organization_id, a.stay_id, pe.id, a.intake_at + (now() - a.intake_at) * (0.1 + (a.pet_id % 9) / 10.0)
       FROM bench_fostered a
       JOIN people pe ON pe.organization_id = a.organization_id AND lower(pe.email) = lower('foster-' || a.organization_id || '-' || (a.n / 2) || '@bench.example')`,
    );
    const placementsMs = performance.now() - placementsStarted;
    // What the triggers set, against each open placement's foster's point (every organisation shows foster homes).
    const check = (
      await client.query<{ placed: number; pointed: number; wrong: number }>(
        `SELECT (SELECT count(*)::int FROM pet_placements WHERE end_at IS NULL) AS placed,
                (SELECT count(*)::int FROM pets WHERE foster_point IS NOT NULL) AS pointed,
                (SELECT count(*)::int FROM pet_placements pl JOIN people pe ON pe.id = pl.person_id JOIN pets p ON p.id = pl.pet_id
                  WHERE pl.end_at IS NULL AND p.foster_point IS DISTINCT FROM pe.earth_point) AS wrong`,
      )
    ).rows[0]!;
    const { median, farthest } = (
      await client.query<{ median: number; farthest: number }>(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY km) AS median, max(km) AS farthest
         FROM (SELECT 2 * $1::float8 * asin(least(1, (pe.earth_point <-> o.earth_point) / (2 * $1::float8))) / 1000 AS km
               FROM people pe JOIN organizations o ON o.id = pe.organization_id WHERE pe.foster_status IS NOT NULL) d`,
        [EARTH_RADIUS_M],
      )
    ).rows[0]!;
    if (check.placed !== fostered || check.pointed !== fostered || check.wrong !== 0) throw new Error(`foster points not as placed: ${JSON.stringify(check)}`);
    process.stderr.write("  VACUUM ANALYZE ...\n");
    for (const table of ["pets", "pet_stays", "people", "pet_placements"]) await client.query(`VACUUM ANALYZE ${table}`);
    return { inCare, fostered: fostered ?? 0, fosters: fosters ?? 0, staysMs, fostersMs, placementsMs, medianKm: median, maxKm: farthest };
  } finally {
    await client.end();
  }
}

interface Combination {
  name: string;
  query: Record<string, string>;
  /** Where a cursor points, as a fraction of the id range; and which way. */
  cursor?: { at: number; d: "after" | "before" };
}

function combinations(categories: number[]): Combination[] {
  const out: Combination[] = [];
  for (const status of [undefined, "available", "pending", "sold"]) {
    for (const [categoryName, category] of [
      ["-", undefined],
      ["common", categories[0]],
      ["old-only", categories[5]],
    ] as const) {
      for (const [pageName, cursor] of [
        ["first", undefined],
        ["deep next", { at: 0.5, d: "after" as const }],
        ["deep prev", { at: 0.5, d: "before" as const }],
      ] as const) {
        const query: Record<string, string> = { limit: "20" };
        if (status) query.status = status;
        if (category) query.categoryId = String(category);
        out.push({ name: `status ${status ?? "-"}, category ${categoryName}, ${pageName}`, query, cursor });
      }
    }
  }
  for (const [name, query] of [
    ["search 'bis'", { limit: "20", q: "bis" }],
    ["search 'zoe' + available", { limit: "20", q: "zoe", status: "available" }],
    ["search 'mango' + sold, deep", { limit: "20", q: "mango", status: "sold" }],
  ] as const) {
    out.push({ name, query: { ...query }, cursor: name.endsWith("deep") ? { at: 0.5, d: "after" } : undefined });
  }
  return out;
}

/** The profile filters, each compared with the plain list at 1M (issue: ≤ 1.5×). */
function profileCombinations(): Combination[] {
  const out: Combination[] = [];
  const filters: [string, Record<string, string>][] = [
    ["no filter (the plain list)", {}],
    ["sex=female", { sex: "female" }],
    ["size=small", { size: "small" }],
    ["size=small,medium", { size: "small,medium" }],
    ["age=baby", { age: "baby" }],
    ["age=baby,young", { age: "baby,young" }],
    ["goodWith=children", { goodWith: "children" }],
    ["goodWith=children,cats", { goodWith: "children,cats" }],
    ["status=available&age=baby", { status: "available", age: "baby" }],
    // The listing sites' (issue 34); their tenth pages: listingBench.
    ["houseTrained=true", { houseTrained: "true" }],
    ["specialNeeds=true", { specialNeeds: "true" }],
    ["spayedNeutered=false", { spayedNeutered: "false" }],
    ["coatLength=short,long", { coatLength: "short,long" }],
  ];
  for (const [name, query] of filters) {
    for (const [pageName, cursor] of [
      ["first", undefined],
      ["deep next", { at: 0.5, d: "after" as const }],
    ] as const) {
      out.push({ name: `${name}, ${pageName}`, query: { limit: "20", ...query }, cursor });
    }
  }
  return out;
}

const cursorOf = (id: number, d: "after" | "before") => Buffer.from(JSON.stringify({ v: 1, d, id })).toString("base64url");

/** Timed GETs alternating between the two sizes' servers, so noise and warm-up fall on both alike. */
async function timePair(urls: [string, string], keys: [string, string]): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < SAMPLES + 5; i++) {
    for (const side of [0, 1] as const) {
      const started = performance.now();
      const res = await fetch(urls[side], { headers: { authorization: `Bearer ${keys[side]}` } });
      if (res.status !== 200) throw new Error(`${urls[side]}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      if (i >= 5) samples[side].push(performance.now() - started);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return [median(samples[0]), median(samples[1])];
}

/** The database's own execution time for the page statement (EXPLAIN ANALYZE), median of a few. */
async function dbTime(client: pg.Client, sql: Prisma.Sql): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const { rows } = await client.query<{ "QUERY PLAN": [{ "Execution Time": number }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, sql.values);
    times.push(rows[0]!["QUERY PLAN"][0]["Execution Time"]);
  }
  times.sort((a, b) => a - b);
  return times[3]!;
}

interface Size {
  rows: number;
  url: string;
  env: NodeJS.ProcessEnv;
  key: string;
  client: pg.Client;
  categories: number[];
  min: number;
  max: number;
  /** What seedFosters did; null when BENCH_SCALE_FOSTER_SHARE is 0 (no stays, no fosters: the setup before issue 50). */
  foster: FosterSeeding | null;
}

/** A database of `rows` skewed animals, migrated as deployments are, with a key; its server not yet started. */
async function prepareSize(base: Awaited<ReturnType<typeof benchEnvironment>>, rows: number, name: string, port: number): Promise<Size> {
  const url = withDatabaseName(base.url, name);
  const env = { ...base.env, DATABASE_URL: url, WEB_CONCURRENCY: "1", PORT: String(port) };
  await dropDatabase(url);
  await createDatabaseIfMissing(url);
  run(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], env);
  run(process.execPath, ["--import", "tsx", path.join(ROOT, "prisma", "seed.ts")], env);
  await seedSkewed(url, rows);
  const foster = FOSTER_SHARE > 0 ? await seedFosters(url, FOSTER_SHARE) : null;
  if (foster) {
    console.log(
      `Foster homes at ${rows.toLocaleString("en")} animals: ${foster.fostered.toLocaleString("en")} of the ${foster.inCare.toLocaleString("en")} in care ` +
        `(${((100 * foster.fostered) / Math.max(foster.inCare, 1)).toFixed(1)}%) with ${foster.fosters.toLocaleString("en")} fosters ` +
        `(a median ${foster.medianKm.toFixed(1)} km from their organisation, at most ${foster.maxKm.toFixed(1)} km); ` +
        `seeding took ${(foster.staysMs / 1000).toFixed(1)} s for the stays, ${(foster.fostersMs / 1000).toFixed(1)} s for the fosters ` +
        `(ZIP code centres loaded and placed) and ${(foster.placementsMs / 1000).toFixed(1)} s for the placements (one INSERT … SELECT, triggers on)`,
    );
  }
  const key = cliOut(["keys", "create", "--name", "scale", "--org", "1", "--plan", "enterprise", "--per-minute", "100000000", "--per-day", "100000000"], env)
    .trim()
    .split("\n")
    .at(-1)!;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const categories = (await client.query<{ id: string }>("SELECT id FROM categories ORDER BY id")).rows.map((r) => Number(r.id));
  const { min, max } = (await client.query<{ min: string; max: string }>("SELECT min(id) AS min, max(id) AS max FROM pets")).rows[0]!;
  return { rows, url, env, key, client, categories, min: Number(min), max: Number(max), foster };
}

/** The API URL and the page statement of a combination, for one size. */
async function target(size: Size, port: number, c: Combination): Promise<{ url: string; sql: Prisma.Sql }> {
  const { pageSql } = await import("@/lib/pets/queries/pages");
  const query = new URLSearchParams(c.query);
  let cursorId: number | undefined;
  if (c.cursor) {
    cursorId = Math.floor(size.min + (size.max - size.min) * c.cursor.at);
    query.set("cursor", cursorOf(cursorId, c.cursor.d));
  }
  const { isoDay } = await import("@/lib/pets/age");
  const today = isoDay(new Date());
  const list = <T extends string>(v: string | undefined) => (v ? (v.split(",") as T[]) : undefined);
  const sql = pageSql({
    take: 21,
    status: c.query.status as "available" | undefined,
    categoryId: c.query.categoryId ? Number(c.query.categoryId) : undefined,
    search: c.query.q,
    sex: c.query.sex as "female" | undefined,
    sizes: list(c.query.size),
    ages: c.query.age ? { groups: list(c.query.age)!, today, refreshedOn: today } : undefined,
    goodWith: list(c.query.goodWith),
    houseTrained: c.query.houseTrained === undefined ? undefined : c.query.houseTrained === "true",
    specialNeeds: c.query.specialNeeds === undefined ? undefined : c.query.specialNeeds === "true",
    spayedNeutered: c.query.spayedNeutered === undefined ? undefined : c.query.spayedNeutered === "true",
    coatLengths: list(c.query.coatLength),
    after: c.cursor?.d === "after" ? cursorId : undefined,
    before: c.cursor?.d === "before" ? cursorId : undefined,
  });
  return { url: `http://127.0.0.1:${port}/v1/pets?${query}`, sql };
}

/** The URL of the page `hops` pages after `url` (following rel="next"). */
async function pageAfter(url: string, key: string, hops: number): Promise<string> {
  const at = await pageAfterIfAny(url, key, hops);
  if (typeof at !== "string") throw new Error(`${url}: no page ${at.pages + 1}`);
  return at;
}

/** As pageAfter, or how many pages there are when there are not that many (a small run's sparse near search). */
async function pageAfterIfAny(url: string, key: string, hops: number): Promise<string | { pages: number }> {
  let at = url;
  for (let i = 0; i < hops; i++) {
    const res = await fetch(at, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    if (!next) return { pages: i + 1 };
    at = next;
  }
  return at;
}

/**
 * The statements a near page's request runs (lib/pets/reads.ts listPetsNear):
 * its chunks as findNearPets walks them (each run here to see where the next
 * one starts) and, after a cursor, the look behind it (nearAnyBeforeSql),
 * for their database time and plans.
 */
async function nearStatements(client: pg.Client, url: string): Promise<{ chunks: Prisma.Sql[]; behind?: Prisma.Sql }> {
  const { NEAR_CHUNK_FIRST, NEAR_CHUNK_MAX, nearAnyBeforeSql, nearChunkSql } = await import("@/lib/pets/queries/near");
  const { nearSchema, withinSchema } = await import("@/lib/organizations/geo");
  const { resolveNear } = await import("@/lib/organizations/zip");
  const { decodeCursor } = await import("@/lib/core/pagination");
  const q = new URL(url).searchParams;
  const search = await resolveNear(nearSchema.parse(q.get("near")), q.has("within") ? withinSchema.parse(q.get("within")) : undefined);
  const walk = { status: (q.get("status") ?? undefined) as "available" | undefined, ...search.point, maxChord: search.maxChord };
  const cursor = q.get("cursor") ? decodeCursor(q.get("cursor")!) : undefined;
  const at = cursor && { k: cursor.k!, id: cursor.id };
  const take = Number(q.get("limit") ?? 20) + 1;
  const chunks: Prisma.Sql[] = [];
  let found = 0;
  let from = at?.k ?? 0;
  for (let chunk = NEAR_CHUNK_FIRST; ; chunk = Math.min(chunk * 2, NEAR_CHUNK_MAX)) {
    const sql = nearChunkSql({ ...walk, after: at, take: take - found, from, chunk });
    chunks.push(sql);
    const { rows } = await client.query<{ id: string | null; chunkSize: number; chunkFar: number | null }>(sql.text, sql.values);
    found += rows.filter((r) => r.id !== null).length;
    const { chunkSize, chunkFar } = rows[0] ?? { chunkSize: 0, chunkFar: null };
    if (found >= take || chunkSize < chunk || chunkFar === null || chunkFar > walk.maxChord) break;
    from = chunkFar;
  }
  return { chunks, behind: at && nearAnyBeforeSql({ ...walk, at }) };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement, as text. */
async function explain(client: pg.Client, sql: Prisma.Sql): Promise<string> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

/**
 * Near search at the large size: first and tenth pages near a city (a
 * ZIP code and a point), with and without a status, and near a sparse place,
 * each against the plain list's page of the same depth and status, asked in turn.
 */
async function nearBench(large: Size, port: number): Promise<void> {
  const base = `http://127.0.0.1:${port}/v1/pets`;
  const cases: [string, string, string][] = [
    ["near=60601 (Chicago)", "near=60601", ""],
    ["near=60601, status=available", "near=60601&status=available", "status=available"],
    ["near=40.7128,-74.0060 within 25mi (New York)", "near=40.7128,-74.0060&within=25mi", ""],
    ["near=59001 within 500mi (rural Montana)", "near=59001&within=500mi", ""],
    ["near=78701 within 800km, status=available (Austin)", "near=78701&within=800km&status=available", "status=available"],
  ];
  const rows = [];
  const plans: string[] = [];
  for (const [name, near, plain] of cases) {
    for (const [pageName, hops] of [
      ["first", 0],
      ["tenth", 9],
    ] as const) {
      const nearUrl = await pageAfterIfAny(`${base}?limit=20&${near}`, large.key, hops);
      if (typeof nearUrl !== "string") {
        // Too few animals there for a tenth page (BENCH_SCALE_ROWS far below a million): nothing to time.
        const none = { "plain list ms": "-", "near ms": "-", ratio: "-", "DB ms plain": "-", "DB ms near": "-", chunks: "-", "DB ms behind": "-" };
        rows.push({ search: `${name}, ${pageName} page`, ...none, target: `n/a (${nearUrl.pages} pages)` });
        continue;
      }
      const plainUrl = await pageAfter(`${base}?limit=20${plain ? `&${plain}` : ""}`, large.key, hops);
      const [apiPlain, apiNear] = await timePair([plainUrl, nearUrl], [large.key, large.key]);
      const ratio = apiNear / apiPlain;
      // The database's side: the plain page's one statement; the near page's
      // chunks one after another (the look behind a cursor runs alongside them).
      const plainSql = await statementOf(plainUrl);
      const { chunks, behind } = await nearStatements(large.client, nearUrl);
      let dbChunks = 0;
      for (const sql of chunks) dbChunks += await dbTime(large.client, sql);
      const search = `${name}, ${pageName} page`;
      rows.push({
        search,
        "plain list ms": apiPlain.toFixed(2),
        "near ms": apiNear.toFixed(2),
        ratio: ratio.toFixed(2),
        "DB ms plain": (await dbTime(large.client, plainSql)).toFixed(3),
        "DB ms near": dbChunks.toFixed(3),
        chunks: String(chunks.length),
        "DB ms behind": behind ? (await dbTime(large.client, behind)).toFixed(3) : "-",
        target: ratio <= 1.5 ? "met" : "MISSED",
      });
      if (EXPLAIN === "all" || (EXPLAIN && ratio > 1.5)) {
        plans.push(`-- ${search}: the plain list's page\n${await explain(large.client, plainSql)}`);
        for (const [i, sql] of chunks.entries()) plans.push(`-- ${search}: near, chunk ${i + 1} of ${chunks.length}\n${await explain(large.client, sql)}`);
        if (behind) plans.push(`-- ${search}: near, the look behind the cursor\n${await explain(large.client, behind)}`);
      }
    }
  }
  const fostered = large.foster
    ? `${(FOSTER_SHARE * 100).toFixed(0)}% of the animals in care in foster homes (${large.foster.fostered.toLocaleString("en")} of ${large.foster.inCare.toLocaleString("en")}, each found at its foster's ZIP code centre)`
    : "none in foster homes (BENCH_SCALE_FOSTER_SHARE=0)";
  console.log(
    `\nNear search at ${LARGE.toLocaleString("en")} animals over ${ORGS.toLocaleString("en")} organisations, ${fostered}: median of ${SAMPLES} requests each, the plain list's page of the same depth and status asked in turn (DB = PostgreSQL's execution time: the plain page's statement; the near page's chunks, in turn, and the look behind its cursor, alongside); target ≤ 1.5×`,
  );
  console.table(rows);
  const over = rows.filter((r) => r.target === "MISSED").length;
  const missing = rows.filter((r) => r.target.startsWith("n/a")).length;
  console.log(
    (over ? `${over} near page(s) over 1.5×` : "Every near page within 1.5× of the plain list's.") +
      (missing ? ` ${missing} page(s) not there to time at this size.` : ""),
  );
  if (plans.length) console.log(`\nPlans (BENCH_SCALE_EXPLAIN=${EXPLAIN}):\n\n${plans.join("\n\n")}`);
}

/**
 * The listing-site filters at the large size (issue 34): each filter's first
 * and tenth pages (reached by following rel="next", as a client does)
 * against the plain list's first and tenth pages, asked in turn.
 */
async function listingBench(large: Size, port: number): Promise<void> {
  const base = `http://127.0.0.1:${port}/v1/pets`;
  const filters = [
    "houseTrained=true",
    "specialNeeds=true",
    "specialNeeds=false",
    "spayedNeutered=true",
    "spayedNeutered=false",
    "coatLength=short,long",
    "houseTrained=true&specialNeeds=false",
  ];
  const rows = [];
  for (const [pageName, hops] of [
    ["first", 0],
    ["tenth", 9],
  ] as const) {
    const plainUrl = await pageAfter(`${base}?limit=20`, large.key, hops);
    for (const filter of filters) {
      const filterUrl = await pageAfter(`${base}?limit=20&${filter}`, large.key, hops);
      // Unmeasured first, as for the other tables: the statement prepared, its pages in the cache.
      await timeOnce(filterUrl, large.key);
      const [apiPlain, apiFilter] = await timePair([plainUrl, filterUrl], [large.key, large.key]);
      const [dbPlain, dbFilter] = [await dbTime(large.client, await statementOf(plainUrl)), await dbTime(large.client, await statementOf(filterUrl))];
      const ratio = apiFilter / apiPlain;
      rows.push({
        filter: `${filter}, ${pageName} page`,
        "plain list ms": apiPlain.toFixed(2),
        "filtered ms": apiFilter.toFixed(2),
        ratio: ratio.toFixed(2),
        "DB ms plain": dbPlain.toFixed(3),
        "DB ms filtered": dbFilter.toFixed(3),
        target: ratio <= 1.5 ? "met" : "MISSED",
      });
    }
  }
  console.log(
    `\nListing-site filters at ${LARGE.toLocaleString("en")} animals: median of ${SAMPLES} requests each, the plain list's page of the same depth asked in turn (DB = PostgreSQL's execution time of each page statement); target ≤ 1.5×`,
  );
  console.table(rows);
  const over = rows.filter((r) => r.target !== "met").length;
  console.log(over ? `${over} listing-filter page(s) over 1.5×` : "Every listing-site filter page within 1.5× of the plain list's.");
}

/** The page statement a list URL runs (its filters and its cursor), for EXPLAIN. */
async function statementOf(url: string): Promise<Prisma.Sql> {
  const { pageSql } = await import("@/lib/pets/queries/pages");
  const { decodeCursor } = await import("@/lib/core/pagination");
  const q = new URL(url).searchParams;
  const cursor = q.get("cursor") ? decodeCursor(q.get("cursor")!) : undefined;
  const answer = (name: string) => (q.has(name) ? q.get(name) === "true" : undefined);
  return pageSql({
    take: Number(q.get("limit") ?? 20) + 1,
    status: (q.get("status") ?? undefined) as "available" | undefined,
    houseTrained: answer("houseTrained"),
    specialNeeds: answer("specialNeeds"),
    spayedNeutered: answer("spayedNeutered"),
    coatLengths: q.get("coatLength")?.split(",") as ("short" | "long")[] | undefined,
    after: cursor?.d === "after" ? cursor.id : undefined,
    before: cursor?.d === "before" ? cursor.id : undefined,
  });
}

async function timeOnce(url: string, key: string): Promise<void> {
  await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
}

export async function scaleBench(): Promise<void> {
  if (process.env.BENCH_SCALE_ONLY === "alerts") {
    const { alertsBench } = await import("./bench-alerts");
    await alertsBench();
    return;
  }
  // The environment's own database holds nothing: each size gets its own,
  // named after it (BENCH_DATABASE, so two runs on one server do not collide).
  const name = process.env.BENCH_DATABASE ?? "petstore_bench_scale";
  const base = await benchEnvironment(name, 0);
  const ports = [PORT, PORT + 1] as const;
  const sizes: Size[] = [];
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  try {
    for (const [i, rows] of [SMALL, LARGE].entries()) {
      if (LARGE_ONLY && rows !== LARGE) continue;
      console.error(`\n== ${rows.toLocaleString("en")} animals`);
      sizes.push(await prepareSize(base, rows, `${name}_${i}`, ports[i]!));
    }
    for (const size of sizes) servers.push(await startServer(size.env));
    if (NEAR_ONLY) {
      await nearBench(sizes[0]!, ports[1]);
      return;
    }
    if (LISTING_ONLY) {
      await listingBench(sizes[0]!, ports[1]);
      return;
    }
    const combos = combinations(sizes[0]!.categories);
    // One unmeasured pass: routes compiled, pools filled, JIT warm, on both.
    for (const c of combos) {
      for (const [i, size] of sizes.entries()) await fetch((await target(size, ports[i]!, c)).url, { headers: { authorization: `Bearer ${size.key}` } });
    }
    const rows = [];
    for (const c of combos) {
      const [small, large] = [await target(sizes[0]!, ports[0], c), await target(sizes[1]!, ports[1], c)];
      const [apiSmall, apiLarge] = await timePair([small.url, large.url], [sizes[0]!.key, sizes[1]!.key]);
      const [dbSmall, dbLarge] = [await dbTime(sizes[0]!.client, small.sql), await dbTime(sizes[1]!.client, large.sql)];
      const ratio = apiLarge / apiSmall;
      rows.push({
        combination: c.name,
        [`API ms at ${SMALL / 1000}k`]: apiSmall.toFixed(2),
        [`API ms at ${LARGE / 1_000_000}M`]: apiLarge.toFixed(2),
        ratio: ratio.toFixed(2),
        [`DB ms at ${SMALL / 1000}k`]: dbSmall.toFixed(3),
        [`DB ms at ${LARGE / 1_000_000}M`]: dbLarge.toFixed(3),
        target: ratio <= 1.2 ? "met" : "MISSED",
      });
    }
    console.log(
      `\nPage times: median of ${SAMPLES} sequential requests per size, the two sizes' servers asked in turn; DB = PostgreSQL's execution time of the page statement; skewed history`,
    );
    console.table(rows);
    const missed = rows.filter((r) => r.target !== "met").length;
    console.log(missed ? `${missed} combination(s) over 1.2×` : "Every combination within 1.2× from 10k to 1M.");

    // The profile filters at 1M against the plain list at 1M, asked in turn
    // (the plain list's first or deep page, as the filter's), same run.
    const large = sizes[1]!;
    const profile = profileCombinations();
    for (const c of profile) await fetch((await target(large, ports[1], c)).url, { headers: { authorization: `Bearer ${large.key}` } });
    const plain = { first: profile[0]!, deep: profile[1]! };
    const profileRows = [];
    for (const c of profile.slice(2)) {
      const base = c.cursor ? plain.deep : plain.first;
      const [baseTarget, filterTarget] = [await target(large, ports[1], base), await target(large, ports[1], c)];
      const [apiPlain, apiFilter] = await timePair([baseTarget.url, filterTarget.url], [large.key, large.key]);
      const ratio = apiFilter / apiPlain;
      profileRows.push({
        filter: c.name,
        "plain list ms": apiPlain.toFixed(2),
        "filtered ms": apiFilter.toFixed(2),
        ratio: ratio.toFixed(2),
        "DB ms": (await dbTime(large.client, filterTarget.sql)).toFixed(3),
        target: ratio <= 1.5 ? "met" : "MISSED",
      });
    }
    console.log(
      `\nProfile filters at ${LARGE.toLocaleString("en")} animals: median of ${SAMPLES} requests each, the plain list and the filter asked in turn; target ≤ 1.5× the plain list`,
    );
    console.table(profileRows);
    const over = profileRows.filter((r) => r.target !== "met").length;
    console.log(over ? `${over} filter page(s) over 1.5×` : "Every profile filter within 1.5× of the plain list.");

    await listingBench(large, ports[1]);
    await nearBench(large, ports[1]);
  } finally {
    for (const server of servers) await stopServer(server);
    for (const size of sizes) {
      await size.client.end();
      if (process.env.BENCH_SCALE_KEEP) console.error(`  BENCH_SCALE_KEEP: ${databaseName(size.url)} kept (drop it when done)`);
      else await dropDatabase(size.url);
    }
    await base.cleanup();
  }
}
