import { db } from "@/lib/db";
import type { PetStatus } from "@/lib/pets/schemas";

// Data access only: no HTTP, no rules. Ids are bigint here and numbers above.

const petColumns = { id: true, name: true, categoryId: true, status: true } as const;

export type PetRow = { id: bigint; name: string; categoryId: bigint; status: PetStatus };

export interface PetPageQuery {
  status?: PetStatus;
  categoryId?: number;
  /** Walk older than this id (next page) or newer than it (previous page). */
  after?: number;
  before?: number;
  take: number;
}

/**
 * Up to `take` rows walking away from the cursor: newest first for a next
 * page, oldest first for a previous one. Served by the (status|category, id)
 * indexes, so a page costs the same at any depth.
 */
export async function findPetPage(q: PetPageQuery): Promise<PetRow[]> {
  const where = {
    ...(q.status ? { status: q.status } : {}),
    ...(q.categoryId ? { categoryId: BigInt(q.categoryId) } : {}),
    ...(q.after !== undefined ? { id: { lt: BigInt(q.after) } } : {}),
    ...(q.before !== undefined ? { id: { gt: BigInt(q.before) } } : {}),
  };
  return db().pet.findMany({ where, orderBy: { id: q.before !== undefined ? "asc" : "desc" }, take: q.take, select: petColumns });
}

export async function existsPet(where: { status?: PetStatus; categoryId?: number; idGreaterThan?: number; idLessThan?: number }): Promise<boolean> {
  const row = await db().pet.findFirst({
    where: {
      ...(where.status ? { status: where.status } : {}),
      ...(where.categoryId ? { categoryId: BigInt(where.categoryId) } : {}),
      ...(where.idGreaterThan !== undefined ? { id: { gt: BigInt(where.idGreaterThan) } } : {}),
      ...(where.idLessThan !== undefined ? { id: { lt: BigInt(where.idLessThan) } } : {}),
    },
    select: { id: true },
  });
  return row !== null;
}

export async function insertPet(data: { name: string; categoryId: number; status: PetStatus }): Promise<PetRow> {
  return db().pet.create({ data: { ...data, categoryId: BigInt(data.categoryId) }, select: petColumns });
}

export async function findPetById(id: number): Promise<PetRow | null> {
  return db().pet.findUnique({ where: { id: BigInt(id) }, select: petColumns });
}

export async function findCategories(): Promise<{ id: bigint; name: string }[]> {
  return db().category.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } });
}

export async function categoryExists(id: number): Promise<boolean> {
  return (await db().category.findUnique({ where: { id: BigInt(id) }, select: { id: true } })) !== null;
}
