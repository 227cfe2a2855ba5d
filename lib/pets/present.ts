import { env } from "@/lib/env";
import { ageGroupOf, isoDay, type IsoDate } from "@/lib/pets/age";
import type { PetRow, StoredPhoto } from "@/lib/pets/queries/rows";
import type { Pet, PetField, Photo } from "@/lib/pets/schemas/pet";
import { adoptionFeeOf } from "@/lib/pets/adoption-fee";

// How an animal is shown. Two things in a Pet depend on the answer rather
// than on the row: `ageGroup` (worked out from the birth date on the day of
// the answer, so it ages with the animal) and the photos' URLs (built on the
// origin the answer goes to). Records of changes (audit trail, change feed)
// keep the animal without either (a StoredPet), and are shown through here too.

/** What an answer is shown for: the day, and the origin photo URLs start with ("" for root-relative paths). */
export interface PetView {
  today: IsoDate;
  photoBase: string;
}

/** An animal as its change records keep it: the Pet without ageGroup (nor a search's distance), its photos' files instead of URLs. */
export type StoredPet = Omit<Pet, "ageGroup" | "photos" | "distanceKm"> & { photos: StoredPhoto[] };

export function storedPet(row: PetRow): StoredPet {
  return {
    id: Number(row.id),
    name: row.name,
    categoryId: Number(row.categoryId),
    organizationId: Number(row.organizationId),
    status: row.status,
    version: row.version,
    sex: row.sex,
    size: row.size,
    birthDate: row.birthDate,
    breed: row.breed,
    description: row.description,
    goodWith: { children: row.goodWithChildren, dogs: row.goodWithDogs, cats: row.goodWithCats },
    externalId: row.externalId,
    secondaryBreed: row.secondaryBreed,
    mixedBreed: row.mixedBreed,
    colors: row.colors,
    coatLength: row.coatLength,
    spayedNeutered: row.spayedNeutered,
    houseTrained: row.houseTrained,
    declawed: row.declawed,
    shotsCurrent: row.shotsCurrent,
    specialNeeds: row.specialNeeds,
    specialNeedsNotes: row.specialNeedsNotes,
    adoptionFee: adoptionFeeOf(row),
    intakeDate: row.intakeDate,
    videoUrl: row.videoUrl,
    tags: row.tags,
    listOnOtherSites: row.listOnOtherSites,
    photos: row.photos.map((p) => ({ ...p, id: Number(p.id) })),
    inFosterHome: row.inFosterHome,
    fosterHome: row.fosterHome,
  };
}

export function photoUrl(key: string, photoBase: string): string {
  return `${photoBase}/photos/${key}`;
}

export function presentPhoto(photo: StoredPhoto, view: Pick<PetView, "photoBase">): Photo {
  return {
    id: photo.id,
    alt: photo.alt,
    width: photo.width,
    height: photo.height,
    placeholder: photo.placeholder,
    urls: Object.fromEntries(Object.entries(photo.files).map(([width, key]) => [width, photoUrl(key, view.photoBase)])),
  };
}

/**
 * A stored animal as the API shows it. Records written before profiles
 * (or the listing-site fields) existed lack their fields: they are shown
 * with the values such an animal has (sex unknown, no colours nor tags,
 * listed on other sites, the rest null, no photos, not in a foster home),
 * so every Pet has the same shape.
 * Those written before organisations existed lack organizationId: their
 * readers know it from the event or the animal, and pass it.
 */
export function presentPet(
  stored: Partial<StoredPet> & Pick<StoredPet, "id" | "name" | "categoryId" | "status" | "version" | "organizationId">,
  view: PetView,
): Pet {
  const birthDate = stored.birthDate ?? null;
  return {
    id: stored.id,
    name: stored.name,
    categoryId: stored.categoryId,
    organizationId: stored.organizationId,
    status: stored.status,
    version: stored.version,
    sex: stored.sex ?? "unknown",
    size: stored.size ?? null,
    birthDate,
    ageGroup: ageGroupOf(birthDate, view.today),
    breed: stored.breed ?? null,
    description: stored.description ?? null,
    goodWith: {
      children: stored.goodWith?.children ?? null,
      dogs: stored.goodWith?.dogs ?? null,
      cats: stored.goodWith?.cats ?? null,
    },
    externalId: stored.externalId ?? null,
    secondaryBreed: stored.secondaryBreed ?? null,
    mixedBreed: stored.mixedBreed ?? null,
    colors: stored.colors ?? [],
    coatLength: stored.coatLength ?? null,
    spayedNeutered: stored.spayedNeutered ?? null,
    houseTrained: stored.houseTrained ?? null,
    declawed: stored.declawed ?? null,
    shotsCurrent: stored.shotsCurrent ?? null,
    specialNeeds: stored.specialNeeds ?? null,
    specialNeedsNotes: stored.specialNeedsNotes ?? null,
    adoptionFee: stored.adoptionFee ?? null,
    intakeDate: stored.intakeDate ?? null,
    videoUrl: stored.videoUrl ?? null,
    tags: stored.tags ?? [],
    listOnOtherSites: stored.listOnOtherSites ?? true,
    photos: (stored.photos ?? []).map((p) => presentPhoto(p, view)),
    // Records from before foster homes (issue 50): the animal was at its shelter.
    inFosterHome: stored.inFosterHome ?? false,
    fosterHome: stored.fosterHome ?? null,
  };
}

/** A record's animal with its organisation: records from before organisations existed lack it, and their reader knows it. */
export function withOrganization<T extends { organizationId?: number }>(stored: T, organizationId: number): T & { organizationId: number } {
  return { ...stored, organizationId: stored.organizationId ?? organizationId };
}

/** The changed fields' old values of a record (`previous`, `before`), photos shown with URLs. */
export function presentFields(before: Partial<Record<PetField, unknown>>, view: PetView): Partial<Pick<Pet, PetField>> {
  const out = { ...before } as Partial<Pick<Pet, PetField>> & { photos?: unknown };
  if (Array.isArray(before.photos)) out.photos = (before.photos as StoredPhoto[]).map((p) => presentPhoto(p, view));
  return out as Partial<Pick<Pet, PetField>>;
}

export function toPet(row: PetRow, view: PetView): Pet {
  return presentPet(storedPet(row), view);
}

/**
 * The view of an answer made at `now`: photo URLs on PHOTO_BASE_URL (a CDN),
 * else on PUBLIC_BASE_URL's origin, else on the origin the client used; with
 * none of these (a webhook delivery of an unconfigured server), root-relative.
 */
export function petView(now: Date, requestOrigin?: string): PetView {
  const { PHOTO_BASE_URL, PUBLIC_BASE_URL } = env();
  const photoBase = PHOTO_BASE_URL ? PHOTO_BASE_URL.replace(/\/+$/, "") : PUBLIC_BASE_URL ? new URL(PUBLIC_BASE_URL).origin : (requestOrigin ?? "");
  return { today: isoDay(now), photoBase };
}
