import { ApiError } from "@/lib/http/errors";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import * as queries from "@/lib/pets/queries";
import type { Category, ListPetsQuery, NewPet, Pet } from "@/lib/pets/schemas";

// The rules of the pets API. Inputs arrive already validated (parse at the
// edge, trust inside); outputs are the API's shapes, ids as JSON numbers.

export function toPet(row: queries.PetRow): Pet {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.categoryId), status: row.status };
}

export interface PetPage {
  pets: Pet[];
  /** Cursors for the neighbouring pages; absent when there is no such page. */
  cursors: { next?: string; prev?: string };
}

export async function listPets(query: ListPetsQuery): Promise<PetPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const filters = { status: query.status, categoryId: query.categoryId };
  const backwards = cursor?.d === "before";

  // One row more than asked tells whether another page lies in the walking direction.
  const rows = await queries.findPetPage({
    ...filters,
    after: cursor?.d === "after" ? cursor.id : undefined,
    before: backwards ? cursor.id : undefined,
    take: query.limit + 1,
  });
  const moreAhead = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const pets = page.map(toPet);

  const newest = pets[0]?.id;
  const oldest = pets.at(-1)?.id;
  let hasNext: boolean;
  let hasPrev: boolean;
  if (!cursor) {
    hasNext = moreAhead;
    hasPrev = false;
  } else if (backwards) {
    hasPrev = moreAhead;
    hasNext = await queries.existsPet({ ...filters, idLessThan: oldest ?? cursor.id + 1 });
  } else {
    hasNext = moreAhead;
    hasPrev = await queries.existsPet({ ...filters, idGreaterThan: newest ?? cursor.id - 1 });
  }

  // On an empty page the cursor's own id is the boundary, so the neighbour
  // pages start right next to where the client was.
  const cursors: PetPage["cursors"] = {};
  if (hasNext) cursors.next = encodeCursor({ d: "after", id: oldest ?? Math.min(cursor!.id + 1, Number.MAX_SAFE_INTEGER) });
  if (hasPrev) cursors.prev = encodeCursor({ d: "before", id: newest ?? Math.max(0, cursor!.id - 1) });
  return { pets, cursors };
}

export async function createPet(input: NewPet): Promise<Pet> {
  // Checked up front rather than mapped from the foreign-key failure, so the
  // client gets a precise error naming the field.
  if (!(await queries.categoryExists(input.categoryId))) {
    throw new ApiError(400, "unknown_category", `There is no category with id ${input.categoryId}. GET /v1/categories lists them.`, [
      { field: "categoryId", issue: "does not name an existing category" },
    ]);
  }
  return toPet(await queries.insertPet(input));
}

export async function getPetOrThrow(id: number): Promise<Pet> {
  const row = await queries.findPetById(id);
  if (!row) throw new ApiError(404, "not_found", `There is no animal with id ${id}.`);
  return toPet(row);
}

export async function listCategories(): Promise<Category[]> {
  return (await queries.findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
}

