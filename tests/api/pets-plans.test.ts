import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pageSql } from "@/lib/pets/queries/pages";
import { type PetPageQuery } from "@/lib/pets/queries/filters";
import { isoDay } from "@/lib/pets/age";
import type { PetStatus } from "@/lib/pets/schemas/fields";

// Every page of the list is served by an index that walks straight to its
// rows, whatever the data's history. The history here is the one that
// fooled the planner: the oldest 90% of the animals sold, the newest
// available or pending, and one category found only among the old. The
// plans are read through EXPLAIN ANALYZE, both as planned for the values at
// hand (custom) and as prepared statements plan once for any value
// (generic): no node may discard rows with a filter.

const ROWS = 30_000;
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
let categories: number[] = [];
let maxId = 0;

beforeAll(async () => {
  await client.connect();
  await client.query("TRUNCATE pets CASCADE");
  await client.query(
    `INSERT INTO pets (name, organization_id, category_id, status)
     SELECT 'Skewed ' || g, 1,
            (SELECT id FROM categories ORDER BY id OFFSET (CASE WHEN g <= $1 * 0.9 THEN g % 6 ELSE g % 5 END) LIMIT 1),
            (CASE WHEN g <= $1 * 0.9 THEN 'sold' WHEN g % 3 = 0 THEN 'pending' ELSE 'available' END)::"PetStatus"
     FROM generate_series(1, $1::int) g`,
    [ROWS],
  );
  // Animals out of care (transferred, returned to their owners...: lib/stays)
  // among the old and the new: on no list, and walked past by no page.
  await client.query("UPDATE pets SET in_care = false WHERE id % 10 = 7");
  // Some animals in care in foster homes (issue 50): each animal
  // read looks its open placement up (lib/pets/queries/rows.ts fosterPlacementOf).
  await client.query(`
    INSERT INTO people (organization_id, name, city, region, lat, lng)
    SELECT 1, 'Foster ' || g, 'Brooklyn', 'NY', 40.6 + g / 1000.0, -73.99 FROM generate_series(1, 300) g`);
  await client.query(`
    INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type)
    SELECT id, organization_id, now() - interval '1 day', 'stray' FROM pets WHERE id % 25 = 1 AND in_care`);
  await client.query(`
    INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at)
    SELECT s.pet_id, s.organization_id, s.id, (SELECT min(id) FROM people) + s.pet_id % 300, now() - interval '1 hour' FROM pet_stays s`);
  await client.query("VACUUM ANALYZE pets, people, pet_stays, pet_placements");
  categories = (await client.query<{ id: string }>("SELECT id FROM categories ORDER BY id")).rows.map((r) => Number(r.id));
  maxId = Number((await client.query<{ m: string }>("SELECT max(id) AS m FROM pets")).rows[0]!.m);
}, 60_000);

afterAll(async () => {
  // Every table that references people goes with it (PostgreSQL refuses to truncate a referenced table alone).
  await client.query("TRUNCATE pet_placements, pet_stays, foster_notes, foster_applications, foster_links, people");
  await client.end();
  await db().pet.deleteMany();
});

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Rows Removed by Filter"?: number;
  "Heap Fetches"?: number;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** A value as a SQL literal, for EXECUTE (numbers, bigints and our own strings only). */
function literal(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "string") return client.escapeLiteral(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(",")}]::${value.every((v) => typeof v === "string") ? "text" : "bigint"}[]`;
  throw new Error(`no literal for ${String(value)}`);
}

async function plan(q: PetPageQuery, mode: "custom" | "generic"): Promise<PlanNode> {
  const sql = pageSql(q);
  if (mode === "custom") {
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, sql.values);
    return rows[0]!["QUERY PLAN"][0].Plan;
  }
  await client.query("SET plan_cache_mode = force_generic_plan");
  try {
    await client.query(`PREPARE page AS ${sql.text}`);
    const args = sql.values.length ? `(${sql.values.map(literal).join(", ")})` : "";
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE page${args}`);
    return rows[0]!["QUERY PLAN"][0].Plan;
  } finally {
    await client.query("DEALLOCATE ALL");
    await client.query("RESET plan_cache_mode");
  }
}

const STATUSES: (PetStatus | undefined)[] = [undefined, "available", "pending", "sold"];
const PAGES = {
  first: {},
  "next page among the newest": { after: 0.97 },
  "next page deep in the old": { after: 0.5 },
  "previous page from the old": { before: 0.5 },
  "previous page from the newest": { before: 0.97 },
} as const;

/** A filter's query at each page of PAGES (its cursor placed in the id range once the table is seeded). */
function atEveryPage<T extends unknown[]>(filter: string, extra: Partial<PetPageQuery>, ...more: T): [string, () => PetPageQuery, ...T][] {
  return Object.entries(PAGES).map(([page, cursor]) => [
    `${filter}, ${page}`,
    () => ({
      take: 21,
      ...extra,
      ...("after" in cursor ? { after: Math.floor(maxId * cursor.after) } : {}),
      ...("before" in cursor ? { before: Math.floor(maxId * cursor.before) } : {}),
    }),
    ...more,
  ]);
}

describe("every filter combination, first and deep pages, both directions", () => {
  const cases: [string, () => PetPageQuery][] = [];
  for (const status of STATUSES) {
    for (const category of ["none", "everywhere", "only among the old"] as const) {
      for (const [page, cursor] of Object.entries(PAGES)) {
        cases.push([
          `status ${status ?? "any"}, category ${category}, ${page}`,
          () => {
            const q: PetPageQuery = { take: 21 };
            if (status) q.status = status;
            if (category === "everywhere") q.categoryId = categories[0]!;
            if (category === "only among the old") q.categoryId = categories[5]!;
            if ("after" in cursor) q.after = Math.floor(maxId * cursor.after);
            if ("before" in cursor) q.before = Math.floor(maxId * cursor.before);
            return q;
          },
        ]);
      }
    }
  }

  it.each(cases)("%s: an index serves it, no row is discarded", async (_name, query) => {
    for (const mode of ["custom", "generic"] as const) {
      const all = nodes(await plan(query(), mode));
      const discarding = all.filter((n) => (n["Rows Removed by Filter"] ?? 0) > 0);
      expect(discarding.map((n) => `${mode}: ${n["Node Type"]} ${n["Index Name"] ?? ""} discards ${n["Rows Removed by Filter"]}`)).toEqual([]);
      expect(
        all.some((n) => n["Node Type"] === "Seq Scan"),
        `${mode}: a sequential scan`,
      ).toBe(false);
    }
  });
});

describe("the age filter at any depth: its birthday windows are read from the covering index alone", () => {
  beforeAll(async () => {
    // Birth dates over 15 years (some unknown), as a shelter's are; the trigger stores each age group.
    await client.query("UPDATE pets SET birth_date = current_date - ((id * 37) % 5500)::int WHERE id % 13 <> 0");
    await client.query("VACUUM ANALYZE pets");
  }, 60_000);

  const today = isoDay(new Date());
  const filters: [string, Partial<PetPageQuery>][] = [
    ["age=baby,young", { ages: { groups: ["baby", "young"], today, refreshedOn: today } }],
    ["age=young,adult,senior", { ages: { groups: ["young", "adult", "senior"], today, refreshedOn: today } }],
    ["status=available&age=baby", { status: "available", ages: { groups: ["baby"], today, refreshedOn: today } }],
  ];
  const cases = filters.flatMap(([filter, extra]) => atEveryPage(filter, extra));

  it.each(cases)("%s: no window's rows are fetched from the table", async (_name, query) => {
    for (const mode of ["custom", "generic"] as const) {
      const all = nodes(await plan(query(), mode));
      // An OR of windows (a bitmap scan) or an index without the checked
      // columns would read each of a window's few hundred rows from the table.
      // A window is a BETWEEN on the birth date (the exact group range is "> ... <=").
      const windows = all.filter((n) => /birth_date >= ('|\$)/.test(n["Index Cond"] ?? ""));
      expect(windows.length, `${mode}: the windows read by birth date`).toBeGreaterThan(0);
      expect(windows.map((n) => `${mode}: ${n["Node Type"]} on ${n["Index Name"]}, ${n["Heap Fetches"]} heap fetches`)).toEqual(
        windows.map(() => `${mode}: Index Only Scan on pets_birth_date_cover_idx, 0 heap fetches`),
      );
      expect(
        all.some((n) => n["Node Type"] === "Seq Scan"),
        `${mode}: a sequential scan`,
      ).toBe(false);
    }
  });
});

describe("the listing-site filters at any depth: each walks its own index, even where the newest animals never match", () => {
  beforeAll(async () => {
    // The newest tenth (available and pending) with nothing known yet, as
    // animals just taken in are; the answers known among the older ones;
    // special needs rare. Some animals carry their shelter's own id.
    await client.query(
      `UPDATE pets SET
         house_trained = CASE WHEN id > $1 THEN NULL ELSE id % 3 = 0 END,
         special_needs = CASE WHEN id % 37 = 0 THEN true WHEN id % 3 = 1 THEN false END,
         spayed_neutered = CASE WHEN id > $2 THEN NULL ELSE id % 2 = 0 END,
         coat_length = CASE WHEN id > $1 THEN NULL ELSE (ARRAY['hairless','short','medium','long','wire','curly'])[1 + id % 6]::"PetCoatLength" END,
         external_id = CASE WHEN id % 5 = 0 THEN 'EXT-' || id END`,
      [Math.floor(maxId * 0.9), Math.floor(maxId * 0.5)],
    );
    await client.query("VACUUM ANALYZE pets");
  }, 60_000);

  // The filter, its query, the index that must serve it, and how many rows a node may discard: none, but for
  // the handful of animals a list of externalIds names, read whole and sorted (lib/pets/queries/filters.ts SMALL_SET).
  const filters: [string, Partial<PetPageQuery>, RegExp, number][] = [
    ["houseTrained=true", { houseTrained: true }, /^pets_house_trained_id_idx$/, 0],
    ["houseTrained=false", { houseTrained: false }, /^pets_not_house_trained_id_idx$/, 0],
    ["specialNeeds=true", { specialNeeds: true }, /^pets_special_needs_id_idx$/, 0],
    ["specialNeeds=false", { specialNeeds: false }, /^pets_no_special_needs_id_idx$/, 0],
    ["spayedNeutered=true", { spayedNeutered: true }, /^pets_spayed_neutered_id_idx$/, 0],
    ["spayedNeutered=false", { spayedNeutered: false }, /^pets_not_spayed_neutered_id_idx$/, 0],
    ["coatLength=short,long", { coatLengths: ["short", "long"] }, /^pets_coat_length_id_idx$/, 0],
    ["externalId=EXT-5,EXT-100,EXT-29000", { externalIds: ["EXT-5", "EXT-100", "EXT-29000"] }, /^pets_external_id_organization_id_key$/, 3],
  ];
  const cases = filters.flatMap(([filter, extra, index, mayDiscard]) => atEveryPage(filter, extra, index, mayDiscard));

  it.each(cases)("%s: its index serves it, no row is discarded", async (_name, query, index, mayDiscard) => {
    for (const mode of ["custom", "generic"] as const) {
      const all = nodes(await plan(query(), mode));
      const discarding = all.filter((n) => (n["Rows Removed by Filter"] ?? 0) > mayDiscard);
      expect(discarding.map((n) => `${mode}: ${n["Node Type"]} ${n["Index Name"] ?? ""} discards ${n["Rows Removed by Filter"]}`)).toEqual([]);
      expect(
        all.some((n) => n["Node Type"] === "Seq Scan"),
        `${mode}: a sequential scan`,
      ).toBe(false);
      // The rows' own look-ups: by id, their photos, their open placement with its foster and organisation.
      // (The planner probes the placements by either index keyed on pet_id: the open ones' or the no-overlap one.)
      const lookups = [
        "pets_pkey",
        "pet_photos_pet_id_position_idx",
        "pet_placements_one_open",
        "pet_placements_no_overlap",
        "people_pkey",
        "organizations_pkey",
      ];
      const walked = all.filter((n) => n["Index Name"] && !lookups.includes(n["Index Name"]));
      expect(walked.length, `${mode}: an index of the filter`).toBeGreaterThan(0);
      expect(
        walked.map((n) => n["Index Name"]!).filter((name) => !index.test(name)),
        `${mode}: other indexes walked`,
      ).toEqual([]);
    }
  });
});

describe("the foster home of each animal on a page (issue 50)", () => {
  it("is one probe of the placements by the animal's id per row, the foster and organisation by their keys", async () => {
    for (const mode of ["custom", "generic"] as const) {
      const all = nodes(await plan({ take: 21, status: "available" }, mode));
      const probes = all.filter((n) => n["Index Name"]?.startsWith("pet_placements"));
      expect(probes.length, `${mode}: one probe`).toBe(1);
      expect(probes[0]!["Index Cond"]).toMatch(/pet_id = /);
      expect(all.filter((n) => n["Index Name"] === "people_pkey").length, `${mode}: the foster by its key`).toBe(1);
    }
  });
});
