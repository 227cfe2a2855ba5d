import { db, query } from "@/lib/db";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import type { PetStatus } from "@/lib/pets/schemas";

// Data access only: no HTTP, no rules. Ids are bigint here and numbers above.

/** A transaction's client, or the pool's: reads and writes of one change share the first. */
export type Db = Prisma.TransactionClient | PrismaClient;

const petColumns = { id: true, name: true, categoryId: true, status: true, version: true } as const;

export type PetRow = { id: bigint; name: string; categoryId: bigint; status: PetStatus; version: number };

export interface PetFilter {
  status?: PetStatus;
  categoryId?: number;
  /** Only these ids (getPet's successor: `?id=12,15`). */
  ids?: number[];
  /** A piece of the name, as the client typed it (trimmed); matched case- and accent-insensitively. */
  search?: string;
}

export interface PetPageQuery extends PetFilter {
  /** Walk older than this id (next page) or newer than it (previous page). */
  after?: number;
  before?: number;
  take: number;
}

/** The statuses as SQL literals, from a fixed list (never from the request's text). */
const STATUS_LITERAL: Record<PetStatus, Prisma.Sql> = {
  available: Prisma.sql`status = 'available'`,
  pending: Prisma.sql`status = 'pending'`,
  sold: Prisma.sql`status = 'sold'`,
};

/**
 * A page filter as SQL (every list statement is SQL: lib/pets/queries.ts
 * findPetPage). The name test runs on the
 * generated `search_name` column (lower-cased, unaccented) under its trigram
 * index. The query text goes through the same pet_search_key function first,
 * and only then are LIKE's wildcards escaped: unaccent turns some characters
 * into them (a full-width ％ becomes %).
 */
function sqlWhere(f: PetFilter & { idGreaterThan?: number; idLessThan?: number }): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (f.search !== undefined) {
    conditions.push(Prisma.sql`search_name LIKE '%' || replace(replace(replace(pet_search_key(${f.search}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' ESCAPE '\\'`);
  }
  // A literal, not a parameter: each status's statement then has its own
  // (prepared) plan, which can use that status's partial index; a generic
  // plan for "status = $1" could not.
  if (f.status) conditions.push(STATUS_LITERAL[f.status]);
  if (f.categoryId) conditions.push(Prisma.sql`category_id = ${BigInt(f.categoryId)}`);
  if (f.ids) conditions.push(Prisma.sql`id = ANY(${f.ids.map(BigInt)}::bigint[])`);
  if (f.idLessThan !== undefined) conditions.push(Prisma.sql`id < ${BigInt(f.idLessThan)}`);
  if (f.idGreaterThan !== undefined) conditions.push(Prisma.sql`id > ${BigInt(f.idGreaterThan)}`);
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/**
 * Up to `take` rows walking away from the cursor (newest first for a next
 * page, oldest first for a previous one), and, for a page after a cursor,
 * whether any row lies on the cursor's other side: one statement, one round
 * trip. Served by the (status|category, id) indexes, so a page costs the
 * same at any depth; a name search by the trigram index on search_name.
 */
export async function findPetPage(q: PetPageQuery): Promise<{ rows: PetRow[]; otherSide?: boolean }> {
  // The hottest statement of the API: run prepared on the pool directly (lib/db.ts query()).
  const rows = await query<RawPetRow & { other: boolean | null }>(pageSql(q));
  const otherSide = q.after !== undefined || q.before !== undefined ? Boolean(rows[0]?.other) : undefined;
  return { rows: rows.filter((r) => r.id !== null).map(fromRaw), otherSide };
}

/** A pets row as pg returns it: int8 columns as strings. */
type RawPetRow = { id: string; name: string; categoryId: string; status: PetStatus; version: number };

const fromRaw = (r: RawPetRow): PetRow => ({ id: BigInt(r.id), name: r.name, categoryId: BigInt(r.categoryId), status: r.status, version: r.version });

/** The page statement (exported so tests can read its plan through EXPLAIN). */
export function pageSql(q: PetPageQuery): Prisma.Sql {
  const ascending = q.before !== undefined;
  const page = Prisma.sql`
    SELECT id, name, category_id AS "categoryId", status, version FROM pets
    ${sqlWhere({ ...q, idLessThan: q.after, idGreaterThan: q.before })}
    ORDER BY id ${ascending ? Prisma.sql`ASC` : Prisma.sql`DESC`}
    LIMIT ${q.take}`;
  if (q.after === undefined && q.before === undefined) return Prisma.sql`SELECT *, NULL::boolean AS other FROM (${page}) p`;
  // The other side of the cursor: ids at or above it for a next page, at or
  // below it for a previous one. Asked as "the nearest row that way", in id
  // order, as a scalar subquery: an EXISTS drops the ORDER BY and LIMIT and
  // lets the planner pick a sequential scan, which walks half the table
  // when the match is at the far end.
  const otherSide = q.after !== undefined ? { idGreaterThan: q.after - 1 } : { idLessThan: q.before! + 1 };
  return Prisma.sql`
    SELECT p.*, o.other
    FROM (SELECT (
      SELECT id FROM pets ${sqlWhere({ ...q, ...otherSide })}
      ORDER BY id ${q.after !== undefined ? Prisma.sql`ASC` : Prisma.sql`DESC`} LIMIT 1) IS NOT NULL AS other) o
    LEFT JOIN LATERAL (${page}) p ON true`;
}

/** Who an audit record names: the staff member's email, or null to read the API key's current name in the statement. */
export interface AuditActor {
  kind: "api_key" | "staff";
  id: number;
  name: string | null;
}

/**
 * Adds an animal, its "created" audit record and its `pet.created` event in
 * one statement, so a create is a single round trip and, outside a larger
 * transaction, its own atomic one (the event's position is still assigned
 * at commit, by the deferred trigger). Writes nothing and returns no row
 * when the category does not exist. The records are exactly those
 * recordChange and appendPetEvent write for an update: `after` and the
 * event's `pet` are the animal as the API shows it (toPet), `before` is
 * null, and an API key is named as it is called at this moment.
 */
export function insertPetWithRecords(pet: { name: string; categoryId: number; status: PetStatus }, actor: AuditActor, requestId: string): Prisma.Sql {
  return Prisma.sql`
    WITH pet AS (
      INSERT INTO pets (name, category_id, status)
      SELECT ${pet.name}, id, ${pet.status}::"PetStatus" FROM categories WHERE id = ${BigInt(pet.categoryId)}
      RETURNING id, name, category_id, status, version
    ), shown AS (
      SELECT id, version, jsonb_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status, 'version', version) AS json FROM pet
    ), audit AS (
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after)
      SELECT id, 'created', version, ${actor.kind}::"ActorKind", ${BigInt(actor.id)},
             COALESCE(${actor.name}::text, (SELECT name FROM api_keys WHERE id = ${BigInt(actor.id)})), ${requestId}, json
      FROM shown
    ), event AS (
      INSERT INTO events (type, pet_id, data) SELECT 'pet.created', id, jsonb_build_object('pet', json) FROM shown
    )
    SELECT id, name, category_id AS "categoryId", status, version FROM pet`;
}

/** Runs insertPetWithRecords: prepared on the pool (autocommit), or inside the caller's transaction. */
export async function createPetWithRecords(tx: Prisma.TransactionClient | undefined, ...args: Parameters<typeof insertPetWithRecords>): Promise<PetRow | null> {
  const sql = insertPetWithRecords(...args);
  const rows = tx ? await tx.$queryRaw<RawPetRow[]>(sql) : await query<RawPetRow>(sql);
  return rows[0] ? fromRaw(rows[0]) : null;
}

export async function findPetById(id: number): Promise<PetRow | null> {
  // Hot (getPet, and every page of an animal): prepared on the pool directly.
  const rows = await query<RawPetRow>(Prisma.sql`SELECT id, name, category_id AS "categoryId", status, version FROM pets WHERE id = ${BigInt(id)}`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

/**
 * The row as it is now, locked until the transaction ends, so that the
 * "before" of its audit record is exactly what the update replaced.
 */
export async function lockPetForUpdate(tx: Prisma.TransactionClient, id: number): Promise<PetRow | null> {
  const rows = await tx.$queryRaw<PetRow[]>`
    SELECT id, name, category_id AS "categoryId", status, version FROM pets WHERE id = ${BigInt(id)} FOR UPDATE`;
  return rows[0] ?? null;
}

/**
 * Applies the changes and bumps the version, only if the version is still one
 * of `versions` (If-Match): the condition is part of the UPDATE itself, so no
 * other writer can slip in between a check and the write. null when it no
 * longer matches (or the row is gone).
 */
export async function updatePetIfVersion(
  tx: Prisma.TransactionClient,
  id: number,
  versions: number[],
  changes: { name?: string; categoryId?: number; status?: PetStatus },
): Promise<PetRow | null> {
  const rows = await tx.pet.updateManyAndReturn({
    where: { id: BigInt(id), version: { in: versions } },
    data: {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.categoryId !== undefined ? { categoryId: BigInt(changes.categoryId) } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      version: { increment: 1 },
    },
    select: petColumns,
  });
  return rows[0] ?? null;
}

export async function findCategories(): Promise<{ id: bigint; name: string }[]> {
  return db().category.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } });
}

export async function categoryExists(id: number, client: Db = db()): Promise<boolean> {
  return (await client.category.findUnique({ where: { id: BigInt(id) }, select: { id: true } })) !== null;
}
