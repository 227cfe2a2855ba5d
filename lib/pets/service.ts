import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/errors";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import type { HistoryQuery, WriteContext } from "@/lib/audit/schemas";
import { listHistory, recordChange, type ChangeRecord, type HistoryPage } from "@/lib/audit/service";
import * as queries from "@/lib/pets/queries";
import { PET_FIELDS, type Category, type ListPetsQuery, type NewPet, type Pet, type PetField, type PetPatch } from "@/lib/pets/schemas";

// The rules of the pets API. Inputs arrive already validated (parse at the
// edge, trust inside); outputs are the API's shapes, ids as JSON numbers.
// Every change to an animal goes through createPet or updatePet, whoever
// asks (the API, the site's pages, the CLI): each writes the row and its
// audit record in one transaction, and the commit writes the change-feed
// event from the record (docs/decisions/005).

export function toPet(row: queries.PetRow): Pet {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.categoryId), status: row.status, version: row.version };
}

export interface PetPage {
  pets: Pet[];
  /** Cursors for the neighbouring pages; absent when there is no such page. */
  cursors: { next?: string; prev?: string };
}

export async function listPets(query: ListPetsQuery): Promise<PetPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const filters: queries.PetFilter = { status: query.status, categoryId: query.categoryId, ids: query.id, search: query.q };
  const backwards = cursor?.d === "before";

  // One row more than asked tells whether another page lies in the walking
  // direction; the statement also says whether any lies behind the cursor.
  const { rows, otherSide } = await queries.findPetPage({
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
    hasNext = otherSide!;
  } else {
    hasNext = moreAhead;
    hasPrev = otherSide!;
  }

  // On an empty page the cursor's own id is the boundary, so the neighbour
  // pages start right next to where the client was.
  const cursors: PetPage["cursors"] = {};
  if (hasNext) cursors.next = encodeCursor({ d: "after", id: oldest ?? Math.min(cursor!.id + 1, Number.MAX_SAFE_INTEGER) });
  if (hasPrev) cursors.prev = encodeCursor({ d: "before", id: newest ?? Math.max(0, cursor!.id - 1) });
  return { pets, cursors };
}

function unknownCategory(id: number): ApiError {
  return new ApiError(400, "unknown_category", `There is no category with id ${id}. GET /v1/categories lists them.`, [
    { field: "categoryId", issue: "does not name an existing category" },
  ]);
}

/**
 * Adds an animal with its "created" audit record (and so its event),
 * atomically, in one statement shared with concurrent creates (the hottest
 * write: see queries.insertPetsWithRecords). `tx`
 * lets a caller make the creation part of a larger transaction (the
 * Idempotency-Key record that must commit with the animal or not at all).
 */
export async function createPet(input: NewPet, context: WriteContext, tx?: Prisma.TransactionClient): Promise<Pet> {
  const { actor } = context;
  const row = await queries.createPetWithRecords(
    tx,
    input,
    { kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null },
    context.requestId,
  );
  // No row: the category does not exist (checked in the statement, so the
  // client gets a precise error naming the field rather than a foreign-key failure).
  if (!row) throw unknownCategory(input.categoryId);
  return toPet(row);
}

export function notFound(id: number): ApiError {
  return new ApiError(404, "not_found", `There is no animal with id ${id}.`);
}

/** The strong ETag of an animal's version: `"3"`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

function preconditionFailed(current: number): ApiError {
  return new ApiError(
    412,
    "precondition_failed",
    `The animal has changed since you read it: it is now at version ${current} (ETag ${etagOf(current)}). Read it again, then send your change with If-Match: ${etagOf(current)}.`,
    undefined,
    { ETag: etagOf(current) },
  );
}

export interface UpdateOptions extends WriteContext {
  /**
   * If-Match: the versions the client will accept changing. Undefined for no
   * condition (no header, or `*`); empty when nothing the client sent can
   * match (a weak or foreign entity tag), which always fails.
   */
  expectedVersions?: number[];
}

/**
 * Applies a merge patch, bumps the version and records the change, in one
 * transaction. Only fields whose value really changes count: a patch that
 * changes nothing returns the animal as it is, with no new version and no
 * audit record (but still 412 when If-Match does not match).
 */
export async function updatePet(id: number, patch: PetPatch, options: UpdateOptions): Promise<Pet> {
  return db().$transaction(async (tx) => {
    // Locked so that the audit record's "before" is exactly the row this
    // update replaces; the version check itself is in the UPDATE's WHERE.
    const current = await queries.lockPetForUpdate(tx, id);
    if (!current) throw notFound(id);
    const was = toPet(current);
    const before: Partial<Pick<Pet, PetField>> = {};
    const changes: Partial<Pick<Pet, PetField>> = {};
    for (const field of PET_FIELDS) {
      const value = patch[field];
      if (value !== undefined && value !== was[field]) {
        Object.assign(before, { [field]: was[field] });
        Object.assign(changes, { [field]: value });
      }
    }
    const expected = options.expectedVersions ?? [was.version];
    if (Object.keys(changes).length === 0) {
      if (!expected.includes(was.version)) throw preconditionFailed(was.version);
      return was;
    }
    if (changes.categoryId !== undefined && !(await queries.categoryExists(changes.categoryId, tx))) throw unknownCategory(changes.categoryId);

    const updated = await queries.updatePetIfVersion(tx, id, expected, changes);
    if (!updated) throw preconditionFailed(was.version);
    const pet = toPet(updated);
    const change: ChangeRecord = { action: "updated", pet, before };
    // Its pet.updated event is written from this record when the transaction commits.
    await recordChange(tx, change, options);
    return pet;
  });
}

/** An animal's change history (staff only, enforced by the route's scope). */
export async function listPetHistory(id: number, query: HistoryQuery): Promise<HistoryPage> {
  if (!(await queries.findPetById(id))) throw notFound(id);
  return listHistory(id, query);
}

export async function getPetOrThrow(id: number): Promise<Pet> {
  const row = await queries.findPetById(id);
  if (!row) throw notFound(id);
  return toPet(row);
}

export async function listCategories(): Promise<Category[]> {
  return (await queries.findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
}

