import { sharedReadQuery } from "@/lib/replicas";
import { Prisma } from "@/lib/generated/prisma/client";
import type { NearWalk } from "@/lib/organizations/geo";
import { type PetFilter, plainConditions, anyOfConditions } from "@/lib/pets/queries/filters";
import { type PetRow, type RawPetRow, fromRaw, PET_COLUMNS, PHOTOS_JOIN } from "@/lib/pets/queries/rows";

// Search near a place. An animal is where its organisation is, unless it
// lives in a foster home its organisation shows: then it is at the foster's
// ZIP code centre (pets.foster_point, kept by the database: migration
// 20261211400000; the rule is placeOf below, which alerts share). So a near
// page walks places nearest first: organisations through the GiST index on
// their points, each holding its animals not away in a foster home (taken
// newest first from its (organization_id, [status,] id) index), and animals
// in foster homes through the GiST index on their own points, each a place
// of one. The order is (distance, id descending), and a cursor carries
// both. The database's distance is the chord `k` (lib/organizations/geo.ts).
//
// Places are walked in chunks: the nearest `chunk` beyond where the walk
// stands, by two plain nearest-first index scans with a LIMIT (one per
// kind of place) merged by distance, which the planner always takes
// (bounded by a search area, it estimates cube containment so low that it
// prefers reading and sorting every organisation in the area: 2,000 within
// 800 km, 4 ms). A chunk only answers for the places strictly nearer than
// its farthest one (places tied at that distance may continue in the next
// chunk), and a page that did not fill goes on with a chunk twice as large
// from there. One round trip in the common case; a sparse filter costs a
// few more.

export interface NearPageQuery extends PetFilter, NearWalk {
  /** Continue after (next page) or before (previous page) this position: the chord `k` and the animal's id. */
  after?: { k: number; id: number };
  before?: { k: number; id: number };
  take: number;
}

export type NearPetRow = PetRow & { chord: number };

/** The places a page's first chunk takes, and the most any chunk takes (exported for the benches, which replay a page's chunks). */
export const NEAR_CHUNK_FIRST = 32;
export const NEAR_CHUNK_MAX = 16_384;
/** Above every id (bigint's largest): the cursor's id bound for places beyond its distance. */
const MAX_ID = Prisma.sql`9223372036854775807::bigint`;

/**
 * Where the animal `p` of organisation `o` is (an SQL point): its foster
 * home's point while it lives in one its organisation shows, else its
 * organisation's. Near search walks the same rule by its two indexes
 * (nearChunkSql), and alerts match by it.
 */
export function placeOf(p: string, o: string): Prisma.Sql {
  return Prisma.sql`COALESCE(${Prisma.raw(p)}.foster_point, ${Prisma.raw(o)}.earth_point)`;
}

function searchPoint(w: NearWalk): Prisma.Sql {
  return Prisma.sql`geo_point(${w.lat}::float8, ${w.lng}::float8)`;
}

/** The filters as conditions on one organisation's animals (a handful of rows each: one set of conditions, no branches). */
function nearPetConditions(f: PetFilter): Prisma.Sql[] {
  return [...plainConditions(f), ...anyOfConditions({ ...f, organizationIds: undefined })];
}

/** Organisations that may hold a match: with a place, and among those asked for. */
function nearOrganizationConditions(f: PetFilter): Prisma.Sql[] {
  return [Prisma.sql`o.earth_point IS NOT NULL`, ...(f.organizationIds?.length ? [Prisma.sql`o.id = ANY(${f.organizationIds.map(BigInt)}::bigint[])`] : [])];
}

/** Animals in foster homes that may be a match, as places of their own: with a point, and of the organisations asked for. */
function nearFosteredConditions(f: PetFilter): Prisma.Sql[] {
  return [
    Prisma.sql`f.foster_point IS NOT NULL`,
    ...(f.organizationIds?.length ? [Prisma.sql`f.organization_id = ANY(${f.organizationIds.map(BigInt)}::bigint[])`] : []),
  ];
}

/**
 * The animals of the places `c` (org: an organisation's id; pet: an animal
 * in a foster home's id; chord) that match, with their chord, after the
 * cursor condition `cursor` (on `id` and `c.chord`), at most `take`
 * per place in `order` of id: a previous page's (nearBeforeSql), which
 * sorts them all (a next page's: firstAnimalsOfPlaces). An organisation holds only its animals not
 * away in a foster home: the other ones are places of their own.
 */
function placesAnimals(f: PetFilter, cursor: Prisma.Sql, order: Prisma.Sql, take: number): Prisma.Sql {
  const conditions = [...nearPetConditions(f), cursor];
  const where = Prisma.join(conditions, " AND ");
  return Prisma.sql`
    SELECT c.chord, a.id FROM c CROSS JOIN LATERAL (
      SELECT id FROM pets WHERE organization_id = c.org AND foster_point IS NULL AND ${where} ORDER BY id ${order} LIMIT ${take}) a
     WHERE c.org IS NOT NULL
    UNION ALL
    SELECT c.chord, a.id FROM c CROSS JOIN LATERAL (SELECT id FROM pets WHERE id = c.pet AND ${where}) a
     WHERE c.pet IS NOT NULL`;
}

/**
 * The first `take` animals of the places `c` in the walk's order (distance,
 * then id descending), after the cursor condition `cursor`: each place's
 * matching animals newest first, the places joined nearest first. In that
 * order PostgreSQL sorts only the animals of one distance at a time
 * (an incremental sort) and stops reading places once the page is full,
 * where a sort of every place's animals read them all: 32 organisations'
 * first pages for a page the nearest one or two fill.
 */
function firstAnimalsOfPlaces(f: PetFilter, cursor: Prisma.Sql, take: number): Prisma.Sql {
  const where = Prisma.join([...nearPetConditions(f), cursor], " AND ");
  return Prisma.sql`
    SELECT c.chord, a.id FROM (SELECT * FROM c ORDER BY chord) c CROSS JOIN LATERAL (
      (SELECT id FROM pets WHERE c.org IS NOT NULL AND organization_id = c.org AND foster_point IS NULL AND ${where} ORDER BY id DESC LIMIT ${take})
      UNION ALL
      (SELECT id FROM pets WHERE c.pet IS NOT NULL AND id = c.pet AND ${where})
    ) a
     ORDER BY c.chord, a.id DESC LIMIT ${take}`;
}

/** One chunk of a forward walk: the page's rows found among the places it answers for, and where the next chunk starts. */
export function nearChunkSql(q: NearPageQuery & { from: number; chunk: number }): Prisma.Sql {
  const point = searchPoint(q);
  // After the cursor: at its distance, older than its animal; farther, any.
  // One comparison on id rather than an OR, so each place's index walk starts
  // at the cursor (an index condition, not a filter) and the planner has no
  // OR to try against every index of pets.
  const cursor = q.after ? Prisma.sql`id < (CASE WHEN c.chord > ${q.after.k}::float8 THEN ${MAX_ID} ELSE ${BigInt(q.after.id)} END)` : Prisma.sql`true`;
  return Prisma.sql`
    WITH chunk AS MATERIALIZED (
      SELECT * FROM (
        (SELECT o.id AS org, NULL::bigint AS pet, o.earth_point <-> ${point} AS chord FROM organizations o
          WHERE ${Prisma.join(nearOrganizationConditions(q), " AND ")} AND o.earth_point <-> ${point} >= ${q.from}::float8
          ORDER BY o.earth_point <-> ${point} LIMIT ${q.chunk})
        UNION ALL
        (SELECT NULL::bigint, f.id, f.foster_point <-> ${point} FROM pets f
          WHERE ${Prisma.join(nearFosteredConditions(q), " AND ")} AND f.foster_point <-> ${point} >= ${q.from}::float8
          ORDER BY f.foster_point <-> ${point} LIMIT ${q.chunk})
      ) places ORDER BY chord LIMIT ${q.chunk}
    ), edge AS (
      SELECT count(*)::int AS size, max(chord) AS far FROM chunk
    ), c AS (
      SELECT * FROM chunk
       WHERE chord <= ${q.maxChord}::float8 AND (chord < (SELECT far FROM edge) OR (SELECT size FROM edge) < ${q.chunk})
    ), ids AS (${firstAnimalsOfPlaces(q, cursor, q.take)})
    SELECT e.size AS "chunkSize", e.far AS "chunkFar", x.*
      FROM edge e
      LEFT JOIN LATERAL (
        SELECT ids.chord, ${PET_COLUMNS}
          FROM ids CROSS JOIN LATERAL (SELECT * FROM pets WHERE pets.id = ids.id LIMIT 1) p
          ${PHOTOS_JOIN}
         ORDER BY ids.chord, p.id DESC
      ) x ON true`;
}

type NearChunkRow = (RawPetRow & { chord: number }) | { id: null };

/**
 * Up to `take` animals near a place, nearest first (newest first at one
 * distance), after the cursor: chunk after chunk until the page is full or
 * every organisation within the radius has been seen.
 */
export async function findNearPets(q: NearPageQuery): Promise<NearPetRow[]> {
  const rows: NearPetRow[] = [];
  let from = q.after?.k ?? 0;
  for (let chunk = NEAR_CHUNK_FIRST; ; chunk = Math.min(chunk * 2, NEAR_CHUNK_MAX)) {
    const found = await sharedReadQuery<NearChunkRow & { chunkSize: number; chunkFar: number | null }>(
      nearChunkSql({ ...q, from, chunk, take: q.take - rows.length }),
    );
    for (const r of found) if (r.id !== null) rows.push({ ...fromRaw(r as RawPetRow), chord: (r as { chord: number }).chord });
    const { chunkSize, chunkFar } = found[0] ?? { chunkSize: 0, chunkFar: null };
    // Done: the page is full, no organisation is left, or the chunk reached past the radius.
    if (rows.length >= q.take || chunkSize < chunk || chunkFar === null || chunkFar > q.maxChord) return rows;
    from = chunkFar;
  }
}

/**
 * A previous page: the animals just before the cursor, walking back towards
 * the place (farthest first), as many as `take`. The places nearer than
 * the cursor are few (as many as the pages before it), so they are read
 * and sorted, not walked by the indexes.
 */
export function nearBeforeSql(q: NearPageQuery & { before: { k: number; id: number } }): Prisma.Sql {
  const point = searchPoint(q);
  // Before the cursor: at its distance, newer than its animal; nearer, any (as nearChunkSql's, one comparison).
  const cursor = Prisma.sql`id > (CASE WHEN c.chord < ${q.before.k}::float8 THEN 0 ELSE ${BigInt(q.before.id)} END)`;
  return Prisma.sql`
    WITH c AS MATERIALIZED (
      SELECT o.id AS org, NULL::bigint AS pet, o.earth_point <-> ${point} AS chord FROM organizations o
       WHERE ${Prisma.join(nearOrganizationConditions(q), " AND ")}
         AND cube_enlarge(${point}, ${q.before.k}::float8, 3) @> o.earth_point AND o.earth_point <-> ${point} <= ${q.before.k}::float8
      UNION ALL
      SELECT NULL::bigint, f.id, f.foster_point <-> ${point} FROM pets f
       WHERE ${Prisma.join(nearFosteredConditions(q), " AND ")}
         AND cube_enlarge(${point}, ${q.before.k}::float8, 3) @> f.foster_point AND f.foster_point <-> ${point} <= ${q.before.k}::float8
    ), ids AS (
      SELECT * FROM (${placesAnimals(q, cursor, Prisma.sql`ASC`, q.take)}) found
       ORDER BY chord DESC, id ASC LIMIT ${q.take}
    )
    SELECT ids.chord, ${PET_COLUMNS}
      FROM ids CROSS JOIN LATERAL (SELECT * FROM pets WHERE pets.id = ids.id LIMIT 1) p
      ${PHOTOS_JOIN}
     ORDER BY ids.chord DESC, p.id ASC`;
}

/**
 * Whether any animal lies at or before the position `at` of the walk: the
 * look behind a next page's cursor, which its "prev" link needs. An EXISTS
 * over each kind of place within the cursor's distance stops at the first
 * place holding a match; a previous page's statement (nearBeforeSql) reads
 * every place nearer than the cursor and sorts their animals, which costs
 * more the more animals live in foster homes (each one a place), for one row.
 */
export function nearAnyBeforeSql(q: PetFilter & NearWalk & { at: { k: number; id: number } }): Prisma.Sql {
  const point = searchPoint(q);
  const k = Prisma.sql`${q.at.k}::float8`;
  const id = BigInt(q.at.id);
  const where = Prisma.join(nearPetConditions(q), " AND ");
  return Prisma.sql`
    SELECT EXISTS (
      SELECT 1 FROM organizations o
       WHERE ${Prisma.join(nearOrganizationConditions(q), " AND ")}
         AND cube_enlarge(${point}, ${k}, 3) @> o.earth_point AND o.earth_point <-> ${point} <= ${k}
         AND EXISTS (SELECT 1 FROM pets WHERE organization_id = o.id AND foster_point IS NULL AND ${where}
                      AND id >= (CASE WHEN o.earth_point <-> ${point} < ${k} THEN 0 ELSE ${id} END))
    ) OR EXISTS (
      SELECT 1 FROM pets f
       WHERE ${Prisma.join(nearFosteredConditions(q), " AND ")}
         AND cube_enlarge(${point}, ${k}, 3) @> f.foster_point AND f.foster_point <-> ${point} <= ${k}
         AND ${where} AND id >= (CASE WHEN f.foster_point <-> ${point} < ${k} THEN 0 ELSE ${id} END)
    ) AS "any"`;
}

export async function anyNearBefore(q: PetFilter & NearWalk & { at: { k: number; id: number } }): Promise<boolean> {
  const [row] = await sharedReadQuery<{ any: boolean }>(nearAnyBeforeSql(q));
  return row?.any ?? false;
}

export async function findNearPetsBefore(q: NearPageQuery & { before: { k: number; id: number } }): Promise<NearPetRow[]> {
  const rows = await sharedReadQuery<RawPetRow & { chord: number }>(nearBeforeSql(q));
  return rows.map((r) => ({ ...fromRaw(r), chord: r.chord }));
}
