import { weakTag } from "@/lib/core/conditional";
import { notFound } from "@/lib/core/errors";
import { decodeCursor, encodeCursor, invalidCursorFor, nearPosition, type Cursor } from "@/lib/core/pagination";
import { kmOfChord, roundKm } from "@/lib/organizations/geo";
import { resolveNear } from "@/lib/organizations/zip";
import type { HistoryQuery } from "@/lib/audit/schemas";
import { listHistory, type HistoryPage } from "@/lib/pets/history";
import { type PetFilter } from "@/lib/pets/queries/filters";
import { ageGroupsRefreshedOn } from "@/lib/pets/queries/age-groups";
import { findPetById } from "@/lib/pets/queries/lookups";
import { anyNearBefore, findNearPets, findNearPetsBefore } from "@/lib/pets/queries/near";
import { findPetPage } from "@/lib/pets/queries/pages";
import { toPet, type PetView } from "@/lib/pets/present";
import { type Pet } from "@/lib/pets/schemas/pet";
import { type ListPetsQuery } from "@/lib/pets/schemas/list-query";
import { mayReadAnimal, outOfCareRefused, recordsOf, THE_PUBLIC, type Viewer } from "@/lib/visibility/policy";

// The pets' reads: a page of the list (by a cursor, or near a place), one
// animal, its history, each as the viewer may see them (lib/visibility).
// The writes, the one path every change goes through, are lib/pets/service.ts.

export interface PetPage {
  pets: Pet[];
  /** Cursors for the neighbouring pages; absent when there is no such page. */
  cursors: { next?: string; prev?: string };
  /**
   * The page's weak ETag: from what the answer is made of (each animal's id
   * and version, which every change and photo moves; the day, which moves
   * ageGroup; where photos are served; the neighbour cursors), so a page
   * that did not change keeps its tag and a poll of it answers 304.
   */
  etag: string;
}

/**
 * A page of animals as `viewer` may see them (lib/visibility/policy.ts):
 * those in care, and with `inCare=false` those out of care whose records it
 * reads; a look-up by ids also returns those.
 */
export async function listPets(query: ListPetsQuery, view: PetView, viewer: Viewer = THE_PUBLIC): Promise<PetPage> {
  if (query.inCare === false && recordsOf(viewer) === null) throw outOfCareRefused();
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const filters: PetFilter = {
    status: query.status,
    categoryId: query.categoryId,
    organizationIds: query.organizationId,
    ids: query.id,
    search: query.q,
    sex: query.sex,
    sizes: query.size,
    goodWith: query.goodWith,
    externalIds: query.externalId,
    houseTrained: query.houseTrained,
    specialNeeds: query.specialNeeds,
    spayedNeutered: query.spayedNeutered,
    coatLengths: query.coatLength,
    ages: query.age ? { groups: query.age, today: view.today, refreshedOn: await ageGroupsRefreshedOn() } : undefined,
    viewer,
    onlyOutOfCare: query.inCare === false,
  };
  if (query.near) return listPetsNear(query as ListPetsQuery & { near: NonNullable<ListPetsQuery["near"]> }, filters, cursor, view);
  if (cursor?.k !== undefined) throw invalidCursorFor("a search near a place: keep its `near`");
  const backwards = cursor?.d === "before";

  // One row more than asked tells whether another page lies in the walking
  // direction; the statement also says whether any lies behind the cursor.
  const { rows, otherSide } = await findPetPage({
    ...filters,
    after: cursor?.d === "after" ? cursor.id : undefined,
    before: backwards ? cursor.id : undefined,
    take: query.limit + 1,
  });
  const moreAhead = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const pets = page.map((row) => toPet(row, view));

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
  const etag = weakTag(["pets", view.today, view.photoBase, cursors.next ?? "", cursors.prev ?? "", ...pets.map((p) => `${p.id}.${p.version}`)]);
  return { pets, cursors, etag };
}

/**
 * A page near a place: nearest first (newest first at one distance), each
 * animal with its distance; paged by (distance, id) cursors, exactly as the
 * plain list is by id (lib/pets/queries/near.ts findNearPets).
 */
async function listPetsNear(
  query: ListPetsQuery & { near: NonNullable<ListPetsQuery["near"]> },
  filters: PetFilter,
  cursor: Cursor | undefined,
  view: PetView,
): Promise<PetPage> {
  if (cursor && cursor.k === undefined) throw invalidCursorFor("a list without `near`: start again from the first page");
  const search = await resolveNear(query.near, query.within);
  const walk = { ...filters, lat: search.point.lat, lng: search.point.lng, maxChord: search.maxChord };
  const at = cursor && nearPosition(cursor, search.maxChord);
  const backwards = cursor?.d === "before";
  const take = query.limit + 1;
  // The page, and (for a page reached by a cursor) whether anything lies on
  // the cursor's other side, the row at the cursor included: asked at once.
  const [rows, otherSide] = await Promise.all([
    backwards ? findNearPetsBefore({ ...walk, before: at!, take }) : findNearPets({ ...walk, after: at, take }),
    !at
      ? Promise.resolve(false)
      : backwards
        ? findNearPets({ ...walk, after: { k: at.k, id: at.id + 1 }, take: 1 }).then((r) => r.length > 0)
        : anyNearBefore({ ...walk, at }),
  ]);
  const moreAhead = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const pets = page.map((row) => ({ ...toPet(row, view), distanceKm: roundKm(kmOfChord(row.chord)) }));

  const hasNext = backwards ? otherSide : moreAhead;
  const hasPrev = backwards ? moreAhead : otherSide;
  // On an empty page the cursor's own position is the boundary, as in the plain list.
  const first = page[0];
  const last = page.at(-1);
  const cursors: PetPage["cursors"] = {};
  if (hasNext) cursors.next = encodeCursor(last ? { d: "after", k: last.chord, id: Number(last.id) } : { d: "after", k: at!.k, id: at!.id + 1 });
  if (hasPrev)
    cursors.prev = encodeCursor(first ? { d: "before", k: first.chord, id: Number(first.id) } : { d: "before", k: at!.k, id: Math.max(0, at!.id - 1) });
  const etag = weakTag(["pets-near", view.today, view.photoBase, cursors.next ?? "", cursors.prev ?? "", ...pets.map((p) => `${p.id}.${p.version}`)]);
  return { pets, cursors, etag };
}

/** An animal's change history (staff only, enforced by the route's scope). */
export async function listPetHistory(id: number, query: HistoryQuery, view: PetView): Promise<HistoryPage> {
  const pet = await findPetById(id);
  if (!pet) throw notFound("animal", id);
  return listHistory(id, query, view, Number(pet.organizationId));
}

/** One animal, if `viewer` may see it (one out of care is its organisation's record: lib/visibility/policy.ts). */
export async function findPet(id: number, view: PetView, viewer: Viewer = THE_PUBLIC): Promise<Pet | null> {
  const row = await findPetById(id);
  if (!row || !mayReadAnimal(viewer, row)) return null;
  return toPet(row, view);
}
