import { Batcher } from "@/lib/batch";
import { db, query } from "@/lib/db";
import { readQuery, readsFromReplica } from "@/lib/replicas";
import { Prisma } from "@/lib/generated/prisma/client";
import { LIMIT_MAX } from "@/lib/core/schemas";
import { type Db, type PetRow, type RawPetRow, fromRaw, PET_COLUMNS, PHOTOS_JOIN } from "@/lib/pets/queries/rows";
import { animalsCondition, THE_PUBLIC } from "@/lib/visibility/policy";

// Animals and categories by id, by the shelters' own ids; an approved application.

/**
 * One animal by id. Concurrent lookups (getPet, every page of an animal) go
 * to PostgreSQL together, as one statement for all their ids.
 */
export async function findPetById(id: number): Promise<PetRow | null> {
  // Batches never mix a request that may read a replica with one that must read the primary.
  return petsById.run(readsFromReplica() ? "replica" : "primary", id);
}

/** Animals by id, as every read returns them (exported for the bench's floor, scripts/bench-floor.ts). */
export function petsByIdSql(ids: number[]): Prisma.Sql {
  return Prisma.sql`SELECT ${PET_COLUMNS} FROM pets p ${PHOTOS_JOIN} WHERE p.id = ANY(${[...new Set(ids)].map(BigInt)}::bigint[])`;
}

const petsById = new Batcher<number, PetRow | null>(async (ids) => {
  const rows = await readQuery<RawPetRow>(petsByIdSql(ids));
  const byId = new Map(rows.map((r) => [Number(r.id), fromRaw(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}, LIMIT_MAX);

/** The animal of the organisation with this externalId, if any. */
export async function findPetIdByExternalId(organizationId: number, externalId: string): Promise<number | null> {
  const rows = await query<{ id: string }>(Prisma.sql`SELECT id FROM pets WHERE external_id = ${externalId} AND organization_id = ${BigInt(organizationId)}`);
  return rows[0] ? Number(rows[0].id) : null;
}

export async function findCategories(): Promise<{ id: bigint; name: string }[]> {
  const rows = await readQuery<{ id: string; name: string }>(Prisma.sql`SELECT id, name FROM categories ORDER BY id`);
  return rows.map((r) => ({ id: BigInt(r.id), name: r.name }));
}

export async function categoryExists(id: number, client: Db = db()): Promise<boolean> {
  return (await client.category.findUnique({ where: { id: BigInt(id) }, select: { id: true } })) !== null;
}

/** An organisation's animals with these externalIds, from the primary (an import compares the file with them before writing). */
export async function findPetsByExternalIds(organizationId: number, externalIds: string[]): Promise<PetRow[]> {
  if (!externalIds.length) return [];
  const rows = await query<RawPetRow>(
    Prisma.sql`SELECT ${PET_COLUMNS} FROM pets p ${PHOTOS_JOIN} WHERE p.organization_id = ${BigInt(organizationId)} AND p.external_id = ANY(${externalIds}::text[])`,
  );
  return rows.map(fromRaw);
}

/** An organisation's available animals that have an externalId not among `present` (an import's `missing=adopted`). */
export async function findAvailableAbsent(organizationId: number, present: string[]): Promise<{ id: number; externalId: string }[]> {
  const rows = await query<{ id: string; external_id: string }>(
    Prisma.sql`SELECT id, external_id FROM pets
                WHERE organization_id = ${BigInt(organizationId)} AND status = 'available' AND ${animalsCondition(THE_PUBLIC, "listed")} AND external_id IS NOT NULL
                  AND NOT (external_id = ANY(${present}::text[]))
                ORDER BY id`,
  );
  return rows.map((r) => ({ id: Number(r.id), externalId: r.external_id }));
}
