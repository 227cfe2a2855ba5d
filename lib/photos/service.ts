import { db } from "@/lib/db";
import { ApiError, notFound } from "@/lib/core/errors";
import { logger } from "@/lib/log";
import { processPhoto } from "@/lib/photos/process";
import * as queries from "@/lib/photos/queries";
import { photoStore } from "@/lib/photos/store";
import { findPetById } from "@/lib/pets/queries/lookups";
import { presentPet, presentPhoto, type PetView } from "@/lib/pets/present";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { type Pet, type Photo } from "@/lib/pets/schemas/pet";
import { changePet, type UpdateOptions } from "@/lib/pets/service";
import { mayManage } from "@/lib/organizations/tenancy";

// The rules of photos. Adding or removing one changes the animal: like any
// change it goes through changePet (one transaction: If-Match, the new
// version, the audit record, the pet.updated event). The heavy part
// (decoding, resizing) happens before that transaction, so no row is locked
// while it runs.

function tooManyPhotos(): ApiError {
  return new ApiError(409, "too_many_photos", `An animal can have at most ${PHOTOS_MAX} photos. Delete one before adding another.`);
}

export interface PhotoChange {
  photo: Photo;
  /** The animal after the change (its new version for the ETag). */
  pet: Pet;
}

/** Adds a photo as the animal's last (the first one added becomes the cover). */
export async function addPhoto(
  petId: number,
  upload: { bytes: Buffer; alt: string | null; sourceUrl?: string; contentType?: string | null },
  options: UpdateOptions & { view: PetView },
): Promise<PhotoChange> {
  // Refused before any CPU is spent on the image (and again by changePet's lock).
  const existing = await findPetById(petId);
  if (!existing || !mayManage(options.tenancy, Number(existing.organizationId))) throw notFound("animal", petId);
  if (existing.photos.length >= PHOTOS_MAX) throw tooManyPhotos();

  const processed = await processPhoto(upload.bytes, upload.contentType);
  const store = await photoStore();
  const keys = processed.variants.map((v) => v.key);
  let photoId = 0;
  try {
    const pet = await changePet(petId, options, async (tx, was) => {
      if (was.photos.length >= PHOTOS_MAX) throw tooManyPhotos();
      // Stored while the keys are held, so a concurrent deletion of a photo
      // with the same files cannot remove them between this put and the row below.
      await queries.lockFileKeys(tx, keys);
      for (const v of processed.variants) await store.put(v.key, { bytes: v.bytes, contentType: v.contentType }, tx);
      photoId = await queries.insertPhoto(tx, {
        petId,
        position: was.photos.length,
        alt: upload.alt,
        width: processed.width,
        height: processed.height,
        placeholder: processed.placeholder,
        files: Object.fromEntries(processed.variants.map((v) => [String(v.width), v.key])),
        sourceUrl: upload.sourceUrl ?? null,
      });
      return { before: { photos: was.photos } };
    });
    const stored = pet.photos.find((p) => p.id === photoId)!;
    return { photo: presentPhoto(stored, options.view), pet: presentPet(pet, options.view) };
  } catch (error) {
    // An object store cannot roll back with the transaction: files written
    // for a photo that was not added are removed again (when unused).
    if (store.kind !== "postgres")
      await removeUnusedFiles(keys).catch((e: unknown) => logger().warn({ err: e }, "could not remove the files of a photo that was not added"));
    throw error;
  }
}

/** Deletes a photo; its files go too, unless another photo uses the same ones. */
export async function deletePhoto(petId: number, photoId: number, options: UpdateOptions & { view: PetView }): Promise<Pet> {
  let keys: string[] = [];
  const pet = await changePet(petId, options, async (tx, was) => {
    const deleted = await queries.deletePhoto(tx, petId, photoId);
    if (!deleted) throw notFound(`Animal ${petId} has no photo ${photoId}.`);
    keys = deleted;
    return { before: { photos: was.photos } };
  });
  // After the commit: an object store's deletion cannot be undone if the
  // transaction failed. A crash in between leaves unused files, never a
  // photo without its files.
  await removeUnusedFiles(keys).catch((e: unknown) => logger().warn({ err: e, petId, photoId }, "could not remove a deleted photo's files"));
  return presentPet(pet, options.view);
}

/** Changes a photo's alt text (a change of the animal, like any other). */
export async function updatePhotoAlt(petId: number, photoId: number, alt: string | null, options: UpdateOptions & { view: PetView }): Promise<PhotoChange> {
  const pet = await changePet(petId, options, async (tx, was) => {
    const current = was.photos.find((p) => p.id === photoId);
    if (!current) throw notFound(`Animal ${petId} has no photo ${photoId}.`);
    if (current.alt === alt) return null;
    await queries.updatePhotoAlt(tx, petId, photoId, alt);
    return { before: { photos: was.photos } };
  });
  const stored = pet.photos.find((p) => p.id === photoId)!;
  return { photo: presentPhoto(stored, options.view), pet: presentPet(pet, options.view) };
}

/** Removes those of `keys` that no photo uses any more. */
export async function removeUnusedFiles(keys: string[]): Promise<void> {
  if (!keys.length) return;
  const store = await photoStore();
  await db().$transaction(async (tx) => {
    await queries.lockFileKeys(tx, keys);
    const used = await queries.keysInUse(tx, keys);
    await store.delete(
      keys.filter((k) => !used.has(k)),
      tx,
    );
  });
}

/** A file as the public /photos path serves it. */
export async function readPhotoFile(key: string) {
  return (await photoStore()).get(key);
}
