import { sharedReadQuery } from "@/lib/replicas";
import { Prisma } from "@/lib/generated/prisma/client";
import { type PetPageQuery, sqlWhere, SMALL_SET, filterBranches } from "@/lib/pets/queries/filters";
import { type PetRow, type RawPetRow, fromRaw, PET_COLUMNS, PHOTOS_JOIN } from "@/lib/pets/queries/rows";

// A page of the list, newest first from a cursor: the API's hottest statement.

/**
 * Up to `take` rows walking away from the cursor (newest first for a next
 * page, oldest first for a previous one), and, for a page after a cursor,
 * whether any row lies on the cursor's other side: one statement, one round
 * trip. Served by the (status|category, id) indexes, so a page costs the
 * same at any depth; a name search by the trigram index on search_name.
 */
export async function findPetPage(q: PetPageQuery): Promise<{ rows: PetRow[]; otherSide?: boolean }> {
  // The hottest statement of the API: run prepared on the pool directly, and
  // shared by identical requests made at the same moment (everyone's first page).
  const rows = await sharedReadQuery<RawPetRow & { other: boolean | null }>(pageSql(q));
  const otherSide = q.after !== undefined || q.before !== undefined ? Boolean(rows[0]?.other) : undefined;
  return { rows: rows.filter((r) => r.id !== null).map(fromRaw), otherSide };
}

/** The ids of a page: each branch walked in id order from the cursor, then merged. */
function pageIds(q: PetPageQuery, bounds: { idLessThan?: number; idGreaterThan?: number }, order: Prisma.Sql, take: number): Prisma.Sql {
  const branches = filterBranches(q).map((branch) =>
    // "id + 0" is the same order that no index provides: the small set is read and sorted (see SMALL_SET).
    branch.includes(SMALL_SET)
      ? Prisma.sql`SELECT id FROM pets ${sqlWhere({ ...q, ...bounds }, branch)} ORDER BY id + 0 ${order} LIMIT ${take}`
      : Prisma.sql`SELECT id FROM pets ${sqlWhere({ ...q, ...bounds }, branch)} ORDER BY id ${order} LIMIT ${take}`,
  );
  if (branches.length === 1) return branches[0]!;
  return Prisma.sql`SELECT id FROM (${Prisma.join(
    branches.map((b) => Prisma.sql`(${b})`),
    " UNION ALL ",
  )}) u ORDER BY id ${order} LIMIT ${take}`;
}

/**
 * The page statement (exported so tests can read its plan through EXPLAIN).
 * The page's ids come from the indexes alone (index-only scans), and only
 * those rows are read from the table, with their photos: the filters' walk
 * never touches the wide rows (a description can be 5,000 characters).
 */
export function pageSql(q: PetPageQuery): Prisma.Sql {
  const ascending = q.before !== undefined;
  const order = ascending ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  // The ids are planned on their own (a MATERIALIZED CTE): as a subquery,
  // a generic plan, which takes LIMIT $n to keep a tenth of its input,
  // could prefer a parallel scan of the whole table merely because its
  // estimate of rows (per worker) made the lookups below look cheaper
  // (house_trained: 30,000 rows scanned for a first page of 21).
  // Each row is then looked up by its id (a LATERAL with LIMIT, which the planner
  // cannot turn into a hash join over the whole table when a prepared
  // statement's generic plan does not know how many ids there will be).
  const page = Prisma.sql`
    WITH ids AS MATERIALIZED (${pageIds(q, { idLessThan: q.after, idGreaterThan: q.before }, order, q.take)})
    SELECT ${PET_COLUMNS}
      FROM ids
      CROSS JOIN LATERAL (SELECT * FROM pets WHERE pets.id = ids.id LIMIT 1) p
      ${PHOTOS_JOIN}
     ORDER BY p.id ${order}`;
  if (q.after === undefined && q.before === undefined) return Prisma.sql`SELECT *, NULL::boolean AS other FROM (${page}) p`;
  // The other side of the cursor: ids at or above it for a next page, at or
  // below it for a previous one. Asked as "the nearest row that way", in id
  // order, as a scalar subquery: an EXISTS drops the ORDER BY and LIMIT and
  // lets the planner pick a sequential scan, which walks half the table
  // when the match is at the far end.
  const otherSide = q.after !== undefined ? { idGreaterThan: q.after - 1 } : { idLessThan: q.before! + 1 };
  return Prisma.sql`
    SELECT p.*, o.other
    FROM (SELECT (${pageIds(q, otherSide, q.after !== undefined ? Prisma.sql`ASC` : Prisma.sql`DESC`, 1)}) IS NOT NULL AS other) o
    LEFT JOIN LATERAL (${page}) p ON true`;
}
