import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { type CoatLength, type PetSex, type PetSize, type PetStatus } from "@/lib/pets/schemas/fields";

// The row of an animal as every read and write returns it, and the SQL that selects it.

/** A transaction's client, or the pool's: reads and writes of one change share the first. */
export type Db = Prisma.TransactionClient | PrismaClient;

/** A photo as stored: its files by width, without URLs (those depend on where the answer goes: lib/pets/present.ts). */
export interface StoredPhoto {
  id: number;
  alt: string | null;
  width: number;
  height: number;
  placeholder: string;
  files: Record<string, string>;
}

export type PetRow = {
  id: bigint;
  name: string;
  categoryId: bigint;
  organizationId: bigint;
  status: PetStatus;
  version: number;
  sex: PetSex;
  size: PetSize | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  breed: string | null;
  description: string | null;
  goodWithChildren: boolean | null;
  goodWithDogs: boolean | null;
  goodWithCats: boolean | null;
  /** False once the last stay ended other than by adoption (lib/stays): shown to its organisation's staff only. */
  inCare: boolean;
} & ListingColumns & {
    photos: StoredPhoto[];
  } & FosterColumns;

/** Where the animal lives, as adopters may know it (docs/decisions/028): never which person. */
export interface FosterColumns {
  /** An open placement: the animal is in a foster home. */
  inFosterHome: boolean;
  /** The foster's city and region; null when not in a foster home or when its organisation shows its own place. */
  fosterHome: { city: string | null; region: string | null } | null;
}

/** The listing-site profile as the row holds it (the fee as its three columns). */
export interface ListingColumns {
  externalId: string | null;
  secondaryBreed: string | null;
  mixedBreed: boolean | null;
  colors: string[];
  coatLength: CoatLength | null;
  spayedNeutered: boolean | null;
  houseTrained: boolean | null;
  declawed: boolean | null;
  shotsCurrent: boolean | null;
  specialNeeds: boolean | null;
  specialNeedsNotes: string | null;
  adoptionFeeCents: number | null;
  adoptionFeeCurrency: string | null;
  adoptionFeeWaived: boolean | null;
  /** YYYY-MM-DD. */
  intakeDate: string | null;
  videoUrl: string | null;
  tags: string[];
  listOnOtherSites: boolean;
}

/** A pets row as pg returns it: int8 columns as strings, the foster home as one jsonb column (FOSTER_PLACEMENT). */
export type RawPetRow = Omit<PetRow, "id" | "categoryId" | "organizationId" | keyof FosterColumns> & {
  id: string;
  categoryId: string;
  organizationId: string;
  fosterPlacement: { fosterHome: FosterColumns["fosterHome"] } | null;
};

export const fromRaw = ({ fosterPlacement, ...r }: RawPetRow): PetRow => ({
  ...r,
  id: BigInt(r.id),
  categoryId: BigInt(r.categoryId),
  organizationId: BigInt(r.organizationId),
  inFosterHome: fosterPlacement !== null,
  fosterHome: fosterPlacement?.fosterHome ?? null,
});

/**
 * The animal `p`'s open placement as adopters may know it, one jsonb value:
 * null when it is not in a foster home, else `{ fosterHome }` with the
 * foster's city and region when its organisation shows foster homes (null
 * when it shows its own place). Read with the animal, so it is what the
 * placements are now: one index probe by the animal per animal read (the
 * partial index of open placements, pet_placements_one_open, or the GiST
 * index of pet_placements_no_overlap, which leads with pet_id: the bench's
 * plans at a million animals use the latter), and the foster and
 * organisation by their keys only for an animal in a foster home.
 */
export function fosterPlacementOf(p: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT jsonb_build_object('fosterHome', CASE WHEN fo.foster_location = 'fosterHome'
                                 THEN jsonb_build_object('city', fpe.city, 'region', fpe.region) END)
     FROM pet_placements fpl JOIN organizations fo ON fo.id = fpl.organization_id LEFT JOIN people fpe ON fpe.id = fpl.person_id
    WHERE fpl.pet_id = ${p}.id AND fpl.end_at IS NULL)`;
}

/**
 * An animal's columns as every read returns them (`p` is the pets row), its
 * photos in order from the LATERAL join PHOTOS_JOIN adds, its foster home's
 * city from its open placement (fosterPlacementOf).
 */
export const PET_COLUMNS = Prisma.sql`p.id, p.name, p.category_id AS "categoryId", p.organization_id AS "organizationId", p.status, p.version, p.sex, p.size,
  p.birth_date::text AS "birthDate", p.breed, p.description, p.good_with_children AS "goodWithChildren",
  p.good_with_dogs AS "goodWithDogs", p.good_with_cats AS "goodWithCats",
  p.external_id AS "externalId", p.secondary_breed AS "secondaryBreed", p.mixed_breed AS "mixedBreed", p.colors, p.coat_length AS "coatLength",
  p.spayed_neutered AS "spayedNeutered", p.house_trained AS "houseTrained", p.declawed, p.shots_current AS "shotsCurrent",
  p.special_needs AS "specialNeeds", p.special_needs_notes AS "specialNeedsNotes", p.adoption_fee_cents AS "adoptionFeeCents",
  p.adoption_fee_currency AS "adoptionFeeCurrency", p.adoption_fee_waived AS "adoptionFeeWaived", p.intake_date::text AS "intakeDate",
  p.video_url AS "videoUrl", p.tags, p.list_on_other_sites AS "listOnOtherSites", p.in_care AS "inCare", COALESCE(ph.photos, '[]'::jsonb) AS photos,
  ${fosterPlacementOf(Prisma.sql`p`)} AS "fosterPlacement"`;
export const PHOTOS_JOIN = Prisma.sql`LEFT JOIN LATERAL (
  SELECT jsonb_agg(jsonb_build_object('id', f.id, 'alt', f.alt, 'width', f.width, 'height', f.height,
                                      'placeholder', f.placeholder, 'files', f.files) ORDER BY f.position) AS photos
    FROM pet_photos f WHERE f.pet_id = p.id) ph ON true`;
