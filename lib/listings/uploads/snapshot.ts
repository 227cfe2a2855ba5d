import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import { adoptapetImportConfig } from "@/lib/listings/formats/adoptapet";
import { writeListingFile, type WrittenFile } from "@/lib/listings/formats/registry";
import type { ListingAnimal } from "@/lib/listings/formats/types";
import type { ListingSite } from "@/lib/core/listing-sites";
import { ageGroupOf, isoDay } from "@/lib/pets/age";
import { photoUrl, petView } from "@/lib/pets/present";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import { adoptionFeeOf } from "@/lib/pets/adoption-fee";
import { listedWhere } from "@/lib/visibility/policy";

// What a site is sent: a full snapshot of the organisation's listed animals
// in the site's own format (lib/listings/formats), with the files around it
// each site expects. The upload and the pull feed both build it here, so the
// feed is byte for byte what an upload sends. An animal absent from the file
// is removed by the site: that is how an adopted one disappears.

/** Which animals a site lists: available ones everywhere, and pending ones on Petfinder (as H, hold). */
export const LISTED_STATUSES: Record<ListingSite, PetStatus[]> = {
  petfinder: ["available", "pending"],
  adoptapet: ["available"],
  rescuegroups: ["available"],
};

/** A photo file to put on the server (Adopt-a-Pet, RescueGroups): where, and the stored variant it is made from. */
export interface PhotoUpload {
  remotePath: string;
  /** The photo store's key of the large variant (content-addressed: the same key is the same picture). */
  key: string;
}

export interface Snapshot {
  site: ListingSite;
  /** The site's data file: its path on the server, and its bytes. */
  file: { remotePath: string; bytes: Buffer };
  /** Further small files sent as they are (Adopt-a-Pet's import.cfg). */
  extras: { remotePath: string; bytes: Buffer }[];
  photos: PhotoUpload[];
  written: WrittenFile;
  /** Animals in the file. */
  animals: number;
  /** Our id of each animal given, in the order of `written.rows`. */
  animalIds: number[];
}

/** The largest stored variant: what the sites get (they resize themselves). */
function largestKey(files: Record<string, string>): string | undefined {
  const widths = Object.keys(files)
    .map(Number)
    .sort((a, b) => b - a);
  return widths.length ? files[String(widths[0])] : undefined;
}

const day = (value: Date | null) => (value ? isoDay(value) : null);

/** The organisation's animals a site lists, oldest first (a stable order: the same animals give the same bytes). */
export async function listedAnimals(organizationId: number, site: ListingSite, now: Date): Promise<{ animals: ListingAnimal[]; keys: Map<string, string> }> {
  const rows = await db().pet.findMany({
    // The public's animals (lib/visibility): out of care, off the sites from the next file on.
    where: { organizationId: BigInt(organizationId), listOnOtherSites: true, ...listedWhere(), status: { in: LISTED_STATUSES[site] } },
    include: { category: { select: { name: true } }, photos: { orderBy: [{ position: "asc" }, { id: "asc" }] } },
    orderBy: { id: "asc" },
  });
  const view = petView(now);
  const today = isoDay(now);
  // Photo URL -> store key, for the uploader to fetch the bytes of the files it puts on the server.
  const keys = new Map<string, string>();
  const animals = rows.map((row): ListingAnimal => {
    const birthDate = day(row.birthDate);
    const photos = row.photos.flatMap((photo) => {
      const key = largestKey(photo.files as Record<string, string>);
      if (!key) return [];
      const url = photoUrl(key, view.photoBase);
      keys.set(url, key);
      return [{ url }];
    });
    return {
      id: Number(row.id),
      externalId: row.externalId,
      name: row.name,
      categoryId: Number(row.categoryId),
      categoryName: row.category.name,
      status: row.status,
      sex: row.sex,
      size: row.size,
      birthDate,
      ageGroup: ageGroupOf(birthDate, today),
      breed: row.breed,
      secondaryBreed: row.secondaryBreed,
      mixedBreed: row.mixedBreed,
      description: row.description,
      goodWith: { children: row.goodWithChildren, dogs: row.goodWithDogs, cats: row.goodWithCats },
      colors: row.colors,
      coatLength: row.coatLength,
      spayedNeutered: row.spayedNeutered,
      houseTrained: row.houseTrained,
      declawed: row.declawed,
      shotsCurrent: row.shotsCurrent,
      specialNeeds: row.specialNeeds,
      specialNeedsNotes: row.specialNeedsNotes,
      adoptionFee: adoptionFeeOf(row),
      intakeDate: day(row.intakeDate),
      videoUrl: row.videoUrl,
      tags: row.tags,
      photos,
      listOnOtherSites: row.listOnOtherSites,
      // Pets keep no change time of their own; RescueGroups' lastUpdated stays empty (it is optional there).
      updatedAt: null,
    };
  });
  return { animals, keys };
}

/** The files for one site account. `accountId`: Petfinder's shelter ID (the file's name), RescueGroups' orgID. */
export function snapshotFiles(site: ListingSite, animals: ListingAnimal[], keys: Map<string, string>, accountId: string | null): Snapshot {
  const adoptapetColors = site === "adoptapet" && animals.some((a) => a.colors.length > 0);
  const written = writeListingFile(site, animals, { accountId: accountId ?? undefined, adoptapetColors });
  const photos: PhotoUpload[] = [];
  if (site !== "petfinder") {
    // Petfinder fetches photos by address (photo1-photo6); the others read files we put beside the data file.
    const folder = site === "adoptapet" ? "" : "import/pictures/";
    for (const row of written.rows) {
      if (!row.cells) continue;
      for (const photo of row.photos) {
        const key = keys.get(photo.photo.url);
        if (key) photos.push({ remotePath: `${folder}${photo.reference}`, key });
      }
    }
  }
  const remotePath = site === "petfinder" ? `import/${accountId ?? "petfinder"}` : site === "adoptapet" ? "pets.csv" : "import/pets.csv";
  const extras = site === "adoptapet" ? [{ remotePath: "import.cfg", bytes: Buffer.from(adoptapetImportConfig({ adoptapetColors }), "utf8") }] : [];
  return {
    site,
    file: { remotePath, bytes: written.bytes },
    extras,
    photos,
    written,
    animals: written.rows.filter((r) => r.cells).length,
    animalIds: animals.map((a) => a.id),
  };
}

export async function buildSnapshot(organizationId: number, site: ListingSite, accountId: string | null, now: Date): Promise<Snapshot> {
  const { animals, keys } = await listedAnimals(organizationId, site, now);
  return snapshotFiles(site, animals, keys, accountId);
}

/** The pull feed's strong ETag: the bytes' hash. */
export function etagOfBytes(bytes: Buffer): string {
  return `"${createHash("sha256").update(bytes).digest("base64url")}"`;
}
