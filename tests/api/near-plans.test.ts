import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chordOfKm } from "@/lib/organizations/geo";
import { nearAnyBeforeSql, nearBeforeSql, nearChunkSql, type NearPageQuery } from "@/lib/pets/queries/near";

// A search near a place walks organisations nearest first through the GiST
// index on their points, a chunk at a time with a LIMIT, and each one's
// animals through its (organization_id, [status,] id) index. These plans
// are what keep a near page as cheap as the plain list at a million
// animals (npm run bench -- --scale); they are pinned here on 5,000
// organisations across the US and 50,000 animals, as planned for the
// values at hand and as prepared statements plan once for any value.

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });

beforeAll(async () => {
  await client.connect();
  await client.query("TRUNCATE pets, organizations RESTART IDENTITY CASCADE");
  await client.query(`
    INSERT INTO organizations (name, slug, city, country, lat, lng)
    SELECT 'Shelter ' || g, 'shelter-' || g, 'City', 'US', 25 + (g * 7919 % 2400) / 100.0, -124 + (g * 104729 % 5700) / 100.0
    FROM generate_series(1, 5000) g`);
  await client.query(`
    INSERT INTO pets (name, category_id, organization_id, status)
    SELECT 'Pet ' || g, (SELECT min(id) FROM categories) + g % 6, 1 + g % 5000,
           (ARRAY['available', 'available', 'pending', 'sold'])[1 + g % 4]::"PetStatus"
    FROM generate_series(1, 50000) g`);
  // A tenth out of care (lib/stays): the organisation indexes hold only the animals in care.
  await client.query("UPDATE pets SET in_care = false WHERE id % 10 = 3");
  // A fifth of those in care in foster homes shown at their foster's point
  // (issue 50). The placements' triggers keep the column; the plans only
  // read it, so it is written here directly.
  await client.query(`UPDATE pets SET foster_point = geo_point(25 + (id * 31 % 2400) / 100.0, -124 + (id * 7 % 5700) / 100.0) WHERE id % 5 = 2 AND in_care`);
  await client.query("VACUUM ANALYZE organizations");
  await client.query("VACUUM ANALYZE pets");
});

afterAll(async () => {
  await client.end();
});

const CHICAGO = { lat: 41.8786, lng: -87.6359 };

async function plans(sql: { text: string; values: unknown[] }): Promise<string[]> {
  const text = (rows: { "QUERY PLAN": string }[]) => rows.map((r) => r["QUERY PLAN"]).join("\n");
  const custom = text((await client.query(`EXPLAIN ${sql.text}`, sql.values)).rows);
  await client.query("SET plan_cache_mode = force_generic_plan");
  try {
    await client.query("DEALLOCATE ALL");
    await client.query({ text: `PREPARE near_plan AS ${sql.text}` });
    const args = sql.values.map((v) => (typeof v === "string" ? `'${v.replace(/'/g, "''")}'` : Array.isArray(v) ? `'{${v.join(",")}}'` : String(v))).join(", ");
    const generic = text((await client.query(`EXPLAIN EXECUTE near_plan(${args})`)).rows);
    return [custom, generic];
  } finally {
    await client.query("RESET plan_cache_mode");
  }
}

const query = (over: Partial<NearPageQuery> = {}): NearPageQuery & { from: number; chunk: number } => ({
  ...CHICAGO,
  maxChord: chordOfKm(100),
  take: 21,
  from: 0,
  chunk: 32,
  ...over,
});

describe("near search plans", () => {
  it.each([
    ["a first page", {}],
    ["a first page of available animals", { status: "available" as const }],
    ["a page after a cursor, 800 km", { maxChord: chordOfKm(800), after: { k: 250_000, id: 25_000 }, from: 250_000 }],
    ["with a category and a name search", { categoryId: 1, search: "pet 1" }],
  ])("%s: organisations and animals in foster homes by their GiST indexes in distance order, animals by their organisation's index", async (_, over) => {
    for (const plan of await plans(nearChunkSql(query(over)))) {
      expect(plan).toMatch(/Index Scan using organizations_earth_point_idx on organizations/);
      expect(plan).toMatch(/Order By: \(earth_point <-> /);
      expect(plan).toMatch(/Index Scan using pets_foster_point_idx on pets f/);
      expect(plan).toMatch(/Order By: \(foster_point <-> /);
      expect(plan).toMatch(/pets_organization_id(_status)?_id_idx/);
      expect(plan).not.toMatch(/Seq Scan on (pets|organizations)/);
    }
  });

  it("a previous page reads only the organisations nearer than its cursor, by the index", async () => {
    for (const plan of await plans(nearBeforeSql({ ...query({ status: "available" }), before: { k: 50_000, id: 30_000 } }))) {
      expect(plan).toMatch(/organizations_earth_point_idx/);
      expect(plan).toMatch(/pets_foster_point_idx/);
      expect(plan).toMatch(/pets_organization_id_status_id_idx/);
      expect(plan).not.toMatch(/Seq Scan on (pets|organizations)/);
    }
  });

  it("the look behind a next page's cursor finds places within its distance by the indexes", async () => {
    for (const plan of await plans(nearAnyBeforeSql({ ...query({ status: "available" }), at: { k: 50_000, id: 30_000 } }))) {
      expect(plan).toMatch(/organizations_earth_point_idx/);
      expect(plan).toMatch(/pets_foster_point_idx/);
      expect(plan).not.toMatch(/Seq Scan on (pets|organizations)/);
    }
  });

  it("the look behind answers as a previous page of one would, at every position of a walk, ties and foster homes included", async () => {
    for (const over of [{}, { status: "available" as const }]) {
      const walk = { ...query({ ...over, maxChord: chordOfKm(800), take: 400 }), chunk: 4096 };
      const found = (await client.query<{ id: string | null; chord: number }>(nearChunkSql(walk).text, nearChunkSql(walk).values)).rows.filter(
        (r) => r.id !== null,
      );
      expect(found.length).toBeGreaterThan(100);
      const positions = [
        ...found.map((r) => ({ k: r.chord, id: Number(r.id) })),
        // Just before the first animal (nothing at or before it), and beyond the last.
        { k: found[0]!.chord, id: Number(found[0]!.id) + 1 },
        { k: found.at(-1)!.chord + 1, id: 1 },
      ];
      for (const at of positions) {
        const any = (await client.query<{ any: boolean }>(nearAnyBeforeSql({ ...walk, at }).text, nearAnyBeforeSql({ ...walk, at }).values)).rows[0]!.any;
        const previous = nearBeforeSql({ ...walk, before: { k: at.k, id: at.id - 1 }, take: 1 });
        expect(any, JSON.stringify(at)).toBe((await client.query(previous.text, previous.values)).rows.length > 0);
      }
    }
  });
});
