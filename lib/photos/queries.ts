import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Data access for photos: rows of pet_photos, and which files are still in use.

export interface NewPhotoRow {
  petId: number;
  position: number;
  alt: string | null;
  width: number;
  height: number;
  placeholder: string;
  /** width -> file key */
  files: Record<string, string>;
  /** Where an import fetched it from (null for an upload). */
  sourceUrl?: string | null;
}

export async function insertPhoto(tx: Prisma.TransactionClient, photo: NewPhotoRow): Promise<number> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO pet_photos (pet_id, position, alt, width, height, placeholder, files, file_keys, source_url)
    VALUES (${BigInt(photo.petId)}, ${photo.position}, ${photo.alt}, ${photo.width}, ${photo.height}, ${photo.placeholder},
            ${JSON.stringify(photo.files)}::jsonb, ${Object.values(photo.files)}::text[], ${photo.sourceUrl ?? null})
    RETURNING id`;
  return Number(rows[0]!.id);
}

/** Deletes one photo of an animal and closes the gap in the order; its file keys, or null when the animal has no such photo. */
export async function deletePhoto(tx: Prisma.TransactionClient, petId: number, photoId: number): Promise<string[] | null> {
  const rows = await tx.$queryRaw<{ position: number; file_keys: string[] }[]>`
    DELETE FROM pet_photos WHERE id = ${BigInt(photoId)} AND pet_id = ${BigInt(petId)} RETURNING position, file_keys`;
  const deleted = rows[0];
  if (!deleted) return null;
  await tx.$executeRaw`UPDATE pet_photos SET position = position - 1 WHERE pet_id = ${BigInt(petId)} AND position > ${deleted.position}`;
  return deleted.file_keys;
}

export async function updatePhotoAlt(tx: Prisma.TransactionClient, petId: number, photoId: number, alt: string | null): Promise<boolean> {
  return (await tx.$executeRaw`UPDATE pet_photos SET alt = ${alt} WHERE id = ${BigInt(photoId)} AND pet_id = ${BigInt(petId)}`) > 0;
}

/**
 * Holds each file key until the transaction ends: a file's "is it still
 * used, then delete it" and a photo's "store it, then use it" never
 * interleave, so a file shared by two photos is never deleted under one.
 * Keys in a fixed order, so two holders never wait on each other.
 */
export async function lockFileKeys(tx: Prisma.TransactionClient, keys: string[]): Promise<void> {
  // (7412, hash): apart from the feed's (7411, 1) lock.
  for (const key of [...new Set(keys)].sort()) await tx.$executeRaw`SELECT pg_advisory_xact_lock(7412, hashtext(${key}))`;
}

/** Which of these keys some photo still uses. */
export async function keysInUse(tx: Prisma.TransactionClient, keys: string[]): Promise<Set<string>> {
  const rows = await tx.$queryRaw<{ key: string }[]>`
    SELECT DISTINCT k AS key FROM pet_photos, unnest(file_keys) k WHERE file_keys && ${keys}::text[] AND k = ANY(${keys}::text[])`;
  return new Set(rows.map((r) => r.key));
}

/** How many photos each of these animals has, and the addresses they were fetched from (an import does not fetch one again, nor more than an animal holds). */
export async function photoSources(petIds: number[]): Promise<Map<number, { count: number; sources: Set<string> }>> {
  const rows = petIds.length
    ? await db().$queryRaw<{ pet_id: bigint; source_url: string | null }[]>`
        SELECT pet_id, source_url FROM pet_photos WHERE pet_id = ANY(${petIds.map(BigInt)}::bigint[])`
    : [];
  const photos = new Map<number, { count: number; sources: Set<string> }>();
  for (const row of rows) {
    const id = Number(row.pet_id);
    const pet = photos.get(id) ?? { count: 0, sources: new Set<string>() };
    photos.set(id, pet);
    pet.count++;
    if (row.source_url !== null) pet.sources.add(row.source_url);
  }
  return photos;
}
