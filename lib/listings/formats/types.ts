import type { AgeGroup } from "@/lib/pets/age";
import type { PetSex, PetSize, CoatLength } from "@/lib/pets/profile";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import type { NamedCategory } from "@/lib/listings/vocabulary/species";

// The formats' own view of an animal, named exactly as the Pet's fields, so
// the uploads (issue "Listed everywhere within minutes") and the import
// (issue "A shelter moves in") connect them to the real Pet with a plain
// mapping. Nothing here reads the database or the network.

export interface GoodWith {
  children: boolean | null;
  dogs: boolean | null;
  cats: boolean | null;
}

export interface AdoptionFee {
  amountCents: number;
  /** ISO 4217. */
  currency: string;
  waived: boolean;
}

/** The Pet fields a listing file can carry, in our words (null: not known). */
export interface ListingFields {
  name: string;
  categoryId: number;
  status: PetStatus;
  sex: PetSex;
  size: PetSize | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  breed: string | null;
  secondaryBreed: string | null;
  mixedBreed: boolean | null;
  /** Plain text with its line breaks ("\n"). */
  description: string | null;
  goodWith: GoodWith;
  colors: string[];
  coatLength: CoatLength | null;
  spayedNeutered: boolean | null;
  houseTrained: boolean | null;
  declawed: boolean | null;
  shotsCurrent: boolean | null;
  specialNeeds: boolean | null;
  specialNeedsNotes: string | null;
  adoptionFee: AdoptionFee | null;
  /** YYYY-MM-DD. */
  intakeDate: string | null;
  videoUrl: string | null;
  tags: string[];
}

/** A photo as the uploads hand it over: the public address of its large variant. */
export interface ListingPhoto {
  url: string;
}

/** An animal as a file is written from it (the upload and the pull feed). */
export interface ListingAnimal extends ListingFields {
  id: number;
  externalId: string | null;
  /** The category's name: the sites' words are looked up by it. */
  categoryName: string;
  ageGroup: AgeGroup | null;
  /** In order, the cover first. */
  photos: ListingPhoto[];
  listOnOtherSites: boolean;
  /** ISO 8601; RescueGroups' lastUpdated. */
  updatedAt: string | null;
}

/** Where a photo is put: its reference in the file (an address, or a file name the uploader puts on the site's server). */
export interface PhotoFile {
  /** 1-based position among the animal's photos in the file. */
  index: number;
  photo: ListingPhoto;
  /** What the file says (photo1 / pic1), or for Adopt-a-Pet the name the site looks for. */
  reference: string;
}

export interface PhotoReferenceInput {
  /** The row's Id/ID/animalID. */
  rowId: string;
  animalId: number;
  index: number;
  photo: ListingPhoto;
}

export interface WriteOptions {
  /** Petfinder's shelter ID, RescueGroups' orgID. */
  accountId?: string;
  /** Adopt-a-Pet: the 22-column file with Color after Sex. */
  adoptapetColors?: boolean;
  /** How photos are named in the file; each format has a default (docs/listing-formats.md). */
  photoReference?: (input: PhotoReferenceInput) => string;
}

export interface WriteIssue {
  field: string;
  message: string;
}

/** One animal's row. `cells` is null when the site cannot take the animal at all (its category has no kind the site knows). */
export interface WrittenRow {
  rowId: string;
  cells: string[] | null;
  warnings: WriteIssue[];
  photos: PhotoFile[];
}

/** A problem with a row of a file being read; `field` is the file's column (null for the row as a whole). */
export interface RowIssue {
  line: number;
  field: string | null;
  message: string;
}

/** What a row says, field by field: a field that is absent is one the file does not carry (leave it as it is). */
export type ImportedFields = Partial<Omit<ListingFields, "goodWith">> & { goodWith?: Partial<GoodWith> };

export type StatusAction = "adopted" | "delete";

/**
 * A generic file's stay columns as read (issue 42): each cell trimmed, the
 * types already in our words (a word neither ours nor mapped is an error of
 * the row). The times stay the file's text: the import reads them in the
 * organisation's time zone (lib/imports/stay-times.ts).
 */
export interface RowStay {
  intakeDate: string | null;
  intakeType: string | null;
  intakeSubtype: string | null;
  outcomeDate: string | null;
  outcomeType: string | null;
  outcomeSubtype: string | null;
}

/** A closed-vocabulary word a row used that is neither ours nor in the mapping's values (the dry run lists them). */
export interface UnknownWord {
  /** Our field (`species`, `sex`, `intakeType`…). */
  field: string;
  /** The file's word, trimmed. */
  word: string;
}

export interface ImportedRow {
  line: number;
  /** The file's ID column; null when the file has none (a generic file mapped without one). */
  externalId: string | null;
  /** The species (type) as the file says it. */
  species: string | null;
  fields: ImportedFields;
  /** The file's age group, when it gives one: only a birth date is stored, so the import may estimate one from it. */
  ageGroup: AgeGroup | null;
  /** At most the 10 photos an animal holds, each address once, in the file's order. */
  photoUrls: string[];
  /** Addresses past those 10, left out when the row was read (with a warning). */
  photosLeftOut: number;
  /** What the row asks beyond its fields: "adopted" (also status sold) or "delete" (Adopt-a-Pet's Delete, RescueGroups' Deleted). */
  statusAction: StatusAction | null;
  /** The row cannot be imported as it is. */
  errors: RowIssue[];
  /** Imported, but something was left out or read loosely. */
  warnings: RowIssue[];
  /** The stay the row describes, when the mapping has stay columns (a generic file). */
  stay?: RowStay;
  /** Words of closed-vocabulary fields we could not read (each also an error of the row). */
  unknownWords?: UnknownWord[];
}

/** A column's position by its name: one per file, shared by its records. */
export type ColumnIndex = ReadonlyMap<string, number>;

/**
 * A record of a file as read: its physical line (where it starts), its
 * cells in file order, and the file's column index to find a cell by name
 * (lib/listings/formats/read.ts recordValue). Nothing per column is built
 * per record: a reader looks up the columns it reads.
 */
export interface ListingRecord {
  line: number;
  cells: readonly string[];
  index: ColumnIndex;
  /** How many cells the record had, and how many the file's rows have (a short or long row is an error of its own). */
  cellCount: number;
  expectedCellCount: number;
}

export interface ReadContext {
  /** The categories animals may be put in (ids of this database). */
  categories: readonly NamedCategory[];
}
