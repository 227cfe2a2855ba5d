import { matchBreed, siteBreed, unknownBreed } from "@/lib/listings/vocabulary/breeds";
import { listedKindOf, type ListedKind } from "@/lib/listings/vocabulary/kinds";
import { kindOfSpecies, matchCategory } from "@/lib/listings/vocabulary/species";
import { SITE_NAMES, type ListingSite } from "@/lib/core/listing-sites";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { oneLine, quoteCell } from "@/lib/listings/formats/cells";
import type {
  ImportedFields,
  ImportedRow,
  ListingAnimal,
  ListingRecord,
  PhotoFile,
  PhotoReferenceInput,
  ReadContext,
  WriteIssue,
  WriteOptions,
  WrittenRow,
} from "@/lib/listings/formats/types";

// The one field map each site's format is: a list of columns, each knowing
// how to write its cell from an animal and how to read it back into our
// fields. toRow and fromRow are the same list walked in the two directions,
// so what a format writes and what it reads cannot drift apart.

export interface SiteBreeds {
  primary: string;
  secondary: string;
  mixed: boolean | null;
}

export interface WriteState {
  animal: ListingAnimal;
  kind: ListedKind;
  rowId: string;
  options: WriteOptions;
  breeds: SiteBreeds;
  photos: PhotoFile[];
  warn(field: string, message: string): void;
}

export interface ReadState {
  line: number;
  kind: ListedKind | null;
  fields: ImportedFields;
  row: ImportedRow;
  /** The breed text said "mix" (Labrador Retriever mix). */
  mixedHint: boolean;
  error(field: string | null, message: string): void;
  warn(field: string, message: string): void;
}

export interface Column {
  name: string;
  write(s: WriteState): string;
  /** Absent for the columns the driver reads itself (ID, species, name) and those we do not import. */
  read?(cell: string, s: ReadState): void;
}

export interface SiteFormatSpec {
  site: ListingSite;
  /** The columns written, in order (the header row's names). */
  columns(options: WriteOptions): readonly Column[];
  /** Every column a file of the format may have (a file may have fewer): what is read. */
  readable: readonly Column[];
  /** Where the animal's photos go, before the columns are written (photo columns name them). */
  photos?(s: WriteState): PhotoFile[];
  /** Columns holding the ID (the first that is not empty counts), the species and the name: read before the others. */
  idColumns: readonly string[];
  speciesColumn: string;
  nameColumn: string;
}

/** The site's breeds for an animal: a breed the site does not know becomes the kind's mixed/unknown breed, with a warning. */
function breedsFor(animal: ListingAnimal, kind: ListedKind, site: ListingSite, warn: WriteState["warn"]): SiteBreeds {
  const siteName = SITE_NAMES[site];
  let mixed = animal.mixedBreed;
  let primary = unknownBreed(kind, site, animal.coatLength);
  if (animal.breed !== null) {
    const matched = matchBreed(kind, animal.breed);
    const known = matched.known ? siteBreed(kind, site, matched.name) : null;
    if (known) {
      primary = known;
      if (matched.mixed && mixed === null) mixed = true;
    } else {
      warn("breed", `"${animal.breed}" is not a breed ${siteName} knows: sent as "${primary}"`);
    }
  }
  let secondary = "";
  if (animal.secondaryBreed !== null) {
    const matched = matchBreed(kind, animal.secondaryBreed);
    const known = matched.known ? siteBreed(kind, site, matched.name) : null;
    if (known) secondary = known;
    else warn("secondaryBreed", `"${animal.secondaryBreed}" is not a breed ${siteName} knows: left out`);
  }
  return { primary, secondary, mixed };
}

/** The Id/ID/animalID of an animal's row: the shelter's own ID, or ours when it has none. */
export function rowIdOf(animal: Pick<ListingAnimal, "externalId" | "id">): string {
  return animal.externalId ?? String(animal.id);
}

export function writeRow(spec: SiteFormatSpec, animal: ListingAnimal, options: WriteOptions): WrittenRow {
  const warnings: WriteIssue[] = [];
  const warn = (field: string, message: string) => void warnings.push({ field, message });
  const rowId = rowIdOf(animal);
  const kind = listedKindOf(animal.categoryName);
  if (kind === null) {
    warn("categoryId", `${SITE_NAMES[spec.site]} has no type for the category "${animal.categoryName}": the animal is left out of the file`);
    return { rowId, cells: null, warnings, photos: [] };
  }
  const state: WriteState = { animal, kind, rowId, options, breeds: breedsFor(animal, kind, spec.site, warn), photos: [], warn };
  state.photos = spec.photos?.(state) ?? [];
  // A site takes one line per animal: line breaks left in a cell (a name, a colour) become spaces.
  const cells = spec.columns(options).map((column) => oneLine(column.write(state)));
  return { rowId, cells, warnings, photos: state.photos };
}

export type ReadSpec = Pick<SiteFormatSpec, "readable" | "idColumns" | "speciesColumn" | "nameColumn"> & {
  /** A generic mapping's `values`: the file's word in a column, in our words (the cell itself when it is not mapped). */
  translate?: (column: string, cell: string) => string;
  /** A row without a name is the animal named by its ID, with a warning (the generic import; issue 42), not a refused row. */
  namelessById?: boolean;
};

export function readRow(spec: ReadSpec, record: ListingRecord, context: ReadContext): ImportedRow {
  const row: ImportedRow = {
    line: record.line,
    externalId: null,
    species: null,
    fields: {},
    ageGroup: null,
    photoUrls: [],
    photosLeftOut: 0,
    statusAction: null,
    errors: [],
    warnings: [],
  };
  const state: ReadState = {
    line: record.line,
    kind: null,
    fields: row.fields,
    row,
    mixedHint: false,
    error: (field, message) => void row.errors.push({ line: record.line, field, message }),
    warn: (field, message) => void row.warnings.push({ line: record.line, field, message }),
  };
  const raw = (name: string) => {
    const at = record.index.get(name);
    return at === undefined ? "" : (record.cells[at] ?? "").trim();
  };
  const cell = spec.translate ? (name: string) => spec.translate!(name, raw(name)) : raw;

  if (record.cellCount !== record.expectedCellCount) {
    state.error(
      null,
      `has ${record.cellCount} values where the file's rows have ${record.expectedCellCount}: a value is missing, or a comma in it is not quoted`,
    );
    return row;
  }

  // A file with no ID column at all (a generic one mapped without) is allowed: its animals are always new.
  const idColumn = spec.idColumns.find((name) => cell(name) !== "");
  row.externalId = idColumn ? cell(idColumn) : null;
  if (!idColumn && spec.idColumns.length) state.error(spec.idColumns[0]!, "is empty: every animal needs its ID, to be found again by the next import");
  else if (idColumn && [...row.externalId!].length > 64) state.error(idColumn, "is longer than 64 characters");

  const species = cell(spec.speciesColumn);
  row.species = species || null;
  if (!species) state.error(spec.speciesColumn, "is empty: every animal needs a species");
  else {
    const category = matchCategory(species, context.categories);
    if (category) row.fields.categoryId = category.id;
    else {
      state.error(spec.speciesColumn, `${quoteCell(species)} is not a species we have a category for (${context.categories.map((c) => c.name).join(", ")})`);
      (row.unknownWords ??= []).push({ field: "species", word: species });
    }
    state.kind = (category && listedKindOf(category.name)) ?? kindOfSpecies(species);
  }

  const name = cell(spec.nameColumn);
  if (name) row.fields.name = name;
  else if (spec.namelessById && row.externalId) {
    // An animal without a name is still an animal: a shelter's export leaves strays unnamed.
    row.fields.name = row.externalId;
    state.warn(spec.nameColumn, `is empty: the animal is named by its ID ${quoteCell(row.externalId)}`);
  } else state.error(spec.nameColumn, "is empty: every animal needs a name");

  for (const column of spec.readable) {
    if (column.read && record.index.has(column.name)) column.read(cell(column.name), state);
  }
  if (state.mixedHint && !row.fields.mixedBreed) row.fields.mixedBreed = true;
  // An animal holds at most 10 photos: the row's first 10 addresses are taken, here, before anything is fetched.
  const photos = [...new Set(row.photoUrls)];
  if (photos.length > PHOTOS_MAX) {
    row.photosLeftOut = photos.length - PHOTOS_MAX;
    state.warn(
      "photoUrls",
      `${row.photosLeftOut} more photo address${row.photosLeftOut === 1 ? "" : "es"} left out: an animal holds at most ${PHOTOS_MAX} photos`,
    );
  }
  row.photoUrls = photos.slice(0, PHOTOS_MAX);
  return row;
}

/** A site format from its spec: the two directions over the one list of columns. */
export function siteFormat(spec: SiteFormatSpec) {
  return {
    /** The upload and the pull feed's direction. */
    toRow: (animal: ListingAnimal, options: WriteOptions = {}): WrittenRow => writeRow(spec, animal, options),
    /** The import's direction. */
    fromRow: (record: ListingRecord, context: ReadContext): ImportedRow => readRow(spec, record, context),
  };
}

/**
 * Where an animal's photos go: at most `max`, each named by the uploader's
 * photoReference or else the format's own naming, with a warning for those
 * left out.
 */
export function photoFiles(s: WriteState, max: number, siteName: string, reference: (input: PhotoReferenceInput) => string): PhotoFile[] {
  if (s.animal.photos.length > max) s.warn("photos", `${siteName} takes ${max} photos: the first ${max} are sent`);
  return s.animal.photos.slice(0, max).map((photo, i) => {
    const input = { rowId: s.rowId, animalId: s.animal.id, index: i + 1, photo };
    return { index: i + 1, photo, reference: s.options.photoReference?.(input) ?? reference(input) };
  });
}
