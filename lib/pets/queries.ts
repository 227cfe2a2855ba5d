import { Batcher } from "@/lib/batch";
import { db, query, sharedQuery } from "@/lib/db";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { isDatabaseUnavailable } from "@/lib/http/errors";
import { LIMIT_MAX, type PetStatus } from "@/lib/pets/schemas";

// Data access only: no HTTP, no rules. Ids are bigint here and numbers above.

/** The most creates sent as one statement. */
const CREATE_BATCH_MAX = 100;

/** A failure of one item of a batch whose other items went through. */
class Failed {
  constructor(readonly error: unknown) {}
}

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
  // The hottest statement of the API: run prepared on the pool directly, and
  // shared by identical requests made at the same moment (everyone's first page).
  const rows = await sharedQuery<RawPetRow & { other: boolean | null }>(pageSql(q));
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

/** One animal to add, with who adds it and in which request (its audit record's and event's facts). */
export interface PetToCreate {
  pet: { name: string; categoryId: number; status: PetStatus };
  actor: AuditActor;
  requestId: string;
}

/**
 * Adds animals, each with its "created" audit record, in one statement: a
 * single round trip and, outside a larger transaction, one atomic commit for
 * all of them. Each record's `pet.created` event is written at that commit
 * from the record (a deferred trigger on pet_audit, which also gives it its
 * position in the feed). An animal whose category does not exist is not
 * written, and has no row in the answer; `ord` (1-based) says which input
 * each row belongs to. The records are exactly those recordChange writes for
 * an update: `after` is the animal as the API shows it (toPet), `before` is
 * null, and an API key is named as it is called at this moment.
 *
 * The inputs travel as arrays, so there is one prepared statement whatever
 * the number of animals. Ids are drawn from the sequence before the insert,
 * so each returned row can be matched to its input.
 */
export function insertPetsWithRecords(items: PetToCreate[]): Prisma.Sql {
  return Prisma.sql`
    WITH input AS (
      SELECT i.ord, nextval('pets_id_seq') AS id, i.name, c.id AS category_id, i.status::"PetStatus" AS status,
             i.actor_kind::"ActorKind" AS actor_kind, i.actor_id,
             COALESCE(NULLIF(i.actor_name, ''), (SELECT name FROM api_keys WHERE id = i.actor_id)) AS actor_name, i.request_id
        FROM unnest(${items.map((i) => i.pet.name)}::text[], ${items.map((i) => BigInt(i.pet.categoryId))}::bigint[],
                    ${items.map((i) => i.pet.status)}::text[], ${items.map((i) => i.actor.kind)}::text[],
                    ${items.map((i) => BigInt(i.actor.id))}::bigint[], ${items.map((i) => i.actor.name ?? "")}::text[],
                    ${items.map((i) => i.requestId)}::text[])
             WITH ORDINALITY AS i(name, category_id, status, actor_kind, actor_id, actor_name, request_id, ord)
        JOIN categories c ON c.id = i.category_id
    ), pet AS (
      INSERT INTO pets (id, name, category_id, status)
      SELECT id, name, category_id, status FROM input ORDER BY ord
      RETURNING id, name, category_id, status, version
    ), shown AS (
      SELECT p.id, p.version, i.ord, i.actor_kind, i.actor_id, i.actor_name, i.request_id,
             jsonb_build_object('id', p.id, 'name', p.name, 'categoryId', p.category_id, 'status', p.status, 'version', p.version) AS json
        FROM pet p JOIN input i ON i.id = p.id
    ), audit AS (
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after)
      SELECT id, 'created', version, actor_kind, actor_id, actor_name, request_id, json FROM shown ORDER BY ord
    )
    SELECT i.ord::int AS ord, p.id, p.name, p.category_id AS "categoryId", p.status, p.version FROM pet p JOIN input i ON i.id = p.id`;
}

type CreatedRow = RawPetRow & { ord: number };

/** Runs insertPetsWithRecords; each input's row, or null when its category does not exist. */
async function insertPets(items: PetToCreate[], tx?: Prisma.TransactionClient): Promise<(PetRow | null)[]> {
  const sql = insertPetsWithRecords(items);
  const rows = tx ? await tx.$queryRaw<CreatedRow[]>(sql) : await query<CreatedRow>(sql);
  const byOrd = new Map(rows.map((r) => [Number(r.ord), fromRaw(r)]));
  return items.map((_, i) => byOrd.get(i + 1) ?? null);
}

/**
 * Creates made at the same moment (without a transaction of their caller's)
 * go to PostgreSQL together: one statement and one commit (one WAL flush, one
 * turn of the feed's commit lock) for the lot, instead of one each
 * (lib/batch.ts). Each request still gets its own answer only after the
 * commit. If the statement fails for a reason other than the database being
 * away, the creates are retried one by one, so that one bad input cannot
 * fail the others.
 */
const creates = new Batcher<PetToCreate, PetRow | null | Failed>(async (items) => {
  try {
    return await insertPets(items);
  } catch (error) {
    if (items.length === 1 || isDatabaseUnavailable(error)) throw error;
    return Promise.all(items.map((item) => insertPets([item]).then(([row]) => row!, (failure: unknown) => new Failed(failure))));
  }
}, CREATE_BATCH_MAX);

/** Adds one animal with its records: batched with concurrent creates, or inside the caller's transaction. */
export async function createPetWithRecords(tx: Prisma.TransactionClient | undefined, pet: PetToCreate["pet"], actor: AuditActor, requestId: string): Promise<PetRow | null> {
  const item = { pet, actor, requestId };
  if (tx) return (await insertPets([item], tx))[0]!;
  const result = await creates.run("create", item);
  if (result instanceof Failed) throw result.error;
  return result;
}

/**
 * One animal by id. Concurrent lookups (getPet, every page of an animal) go
 * to PostgreSQL together, as one statement for all their ids.
 */
export async function findPetById(id: number): Promise<PetRow | null> {
  return petsById.run("pets", id);
}

const petsById = new Batcher<number, PetRow | null>(async (ids) => {
  const rows = await query<RawPetRow>(
    Prisma.sql`SELECT id, name, category_id AS "categoryId", status, version FROM pets WHERE id = ANY(${[...new Set(ids)].map(BigInt)}::bigint[])`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), fromRaw(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}, LIMIT_MAX);

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
