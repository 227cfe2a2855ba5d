import { adoptapetColor, adoptapetHairLengths, matchColor } from "@/lib/listings/vocabulary/colors";
import { isCoatLength } from "@/lib/listings/vocabulary/coat-lengths";
import { siteSpecies } from "@/lib/listings/vocabulary/species";
import {
  AGE_WORDS,
  SIZE_CODES,
  fileStem,
  isVideoUrl,
  oneZero,
  readAgeGroup,
  readBoolean,
  readDate,
  readMoney,
  readSex,
  readSize,
  textToHtml,
  youtubeWatchUrl,
} from "@/lib/listings/formats/cells";
import { quotedLine } from "@/lib/listings/formats/csv";
import { breedColumn, flagColumn, goodWithColumn, readRow, textColumn, writeRow, type Column, type SiteFormatSpec } from "@/lib/listings/formats/row";
import type { ImportedRow, ListingAnimal, ListingRecord, PhotoFile, ReadContext, WriteOptions, WrittenRow } from "@/lib/listings/formats/types";

// Adopt-a-Pet's AutoUpload pets.csv, as ASM3 writes it
// (sheltermanager/asm3, src/asm3/publishers/adoptapet.py): no header row, 21
// columns, or 22 with Color after Sex; every cell quoted; yes/no as "1"/"0"
// and nothing for unknown; line breaks in the description as <br>. The
// columns are named in the import.cfg beside it, which also maps other
// names to Adopt-a-Pet's: ours are Adopt-a-Pet's own already, so it maps
// only the columns. Photos are JPEG files in photos/ named <Id>-<n>.jpg,
// which the site finds by name (the file has no photo column).
//
// Reading also takes a header row, and the columns ASM3 added after
// YouTubeVideoURL (Birthdate, Sizecurrent, SizeUOM, AdoptionFee in 2021,
// seven more in 2026): their birth date and fee are read, the rest ignored.

export const ADOPTAPET_COLUMNS = [
  "Id", "Animal", "Breed", "Breed2", "Purebred", "Age", "Name", "Size", "Sex",
  "Description", "Status", "GoodWKids", "GoodWCats", "GoodWDogs", "SpayedNeutered", "ShotsCurrent",
  "Housetrained", "Declawed", "SpecialNeeds", "HairLength", "YouTubeVideoURL",
] as const;
export const ADOPTAPET_COLOR_COLUMN = "Color";
/** ASM3's later columns, in order: 4 from 2021, 7 more from 2026. */
export const ADOPTAPET_LATER_COLUMNS = [
  "Birthdate", "Sizecurrent", "SizeUOM", "AdoptionFee",
  "Cratetrained", "HeartwormNegative", "HeartwormPositive", "Leashtrained", "IndoorOnly", "FIVPositive", "SpecialDietaryNeeds",
] as const;

/** The columns of a file of this many cells a row, in order, when it has no header row; undefined for any other count. */
export function adoptapetLayout(cellCount: number): string[] | undefined {
  for (const colors of [false, true]) {
    const base = colors ? withColor([...ADOPTAPET_COLUMNS]) : [...ADOPTAPET_COLUMNS];
    for (const later of [0, 4, ADOPTAPET_LATER_COLUMNS.length]) {
      if (base.length + later === cellCount) return [...base, ...ADOPTAPET_LATER_COLUMNS.slice(0, later)];
    }
  }
  return undefined;
}

function withColor(columns: string[]): string[] {
  return [...columns.slice(0, columns.indexOf("Sex") + 1), ADOPTAPET_COLOR_COLUMN, ...columns.slice(columns.indexOf("Sex") + 1)];
}

const STATUSES = { available: "Available", pending: "Available", sold: "Adopted" } as const;

const column = (name: string, write: Column["write"], read?: Column["read"]): Column => ({ name, write, read });

const COLOR: Column = column(
  ADOPTAPET_COLOR_COLUMN,
  (s) => {
    const [color, ...more] = s.animal.colors;
    if (more.length) s.warn("colors", "Adopt-a-Pet takes one colour: the first is sent");
    if (color === undefined) return "";
    const theirs = adoptapetColor(s.kind, color);
    if (!theirs) s.warn("colors", `"${color}" is not one of Adopt-a-Pet's colours for this kind of animal: left out`);
    return theirs ?? "";
  },
  (cell, s) => {
    s.fields.colors = cell ? [matchColor(s.kind, cell)] : [];
  },
);

const BASE_COLUMNS: readonly Column[] = [
  column("Id", (s) => s.rowId),
  column("Animal", (s) => siteSpecies(s.kind, "adoptapet")),
  breedColumn("Breed", "primary"),
  breedColumn("Breed2", "secondary"),
  column(
    "Purebred",
    (s) => oneZero(s.breeds.mixed === null ? null : !s.breeds.mixed),
    (cell, s) => {
      const purebred = readBoolean(cell);
      if (purebred === undefined) s.error("Purebred", `"${cell}" is not 1 or 0`);
      else s.fields.mixedBreed = purebred === null ? null : !purebred;
    },
  ),
  column(
    "Age",
    (s) => (s.animal.ageGroup ? AGE_WORDS[s.animal.ageGroup] : ""),
    (cell, s) => {
      const age = readAgeGroup(cell);
      if (age === undefined) s.warn("Age", `"${cell}" is not Baby, Young, Adult or Senior: left out`);
      else s.row.ageGroup = age;
    },
  ),
  column("Name", (s) => s.animal.name),
  column(
    "Size",
    // Adopt-a-Pet refuses a size for anything but dogs and cats (ASM3).
    (s) => (s.animal.size !== null && (s.kind === "dog" || s.kind === "cat") ? SIZE_CODES[s.animal.size] : ""),
    (cell, s) => {
      const size = readSize(cell);
      if (size === undefined) s.error("Size", `"${cell}" is not S, M, L or XL`);
      else if (size !== null || s.kind === "dog" || s.kind === "cat") s.fields.size = size;
    },
  ),
  column(
    "Sex",
    (s) => (s.animal.sex === "female" ? "F" : s.animal.sex === "male" ? "M" : ""),
    (cell, s) => {
      const sex = readSex(cell);
      if (sex === undefined) s.error("Sex", `"${cell}" is not M or F`);
      else s.fields.sex = sex;
    },
  ),
  textColumn("Description", "description", (text) => textToHtml(text, "<br>")),
  column(
    "Status",
    (s) => {
      if (s.animal.status === "pending") s.warn("status", "Adopt-a-Pet has no pending status: listed as Available");
      return STATUSES[s.animal.status];
    },
    (cell, s) => {
      const status = cell.toLowerCase();
      if (status === "available") s.fields.status = "available";
      else if (status === "adopted") {
        s.fields.status = "sold";
        s.row.statusAction = "adopted";
      } else if (status === "delete") s.row.statusAction = "delete";
      else if (status !== "") s.error("Status", `"${cell}" is not Available, Adopted or Delete`);
    },
  ),
  goodWithColumn("GoodWKids", "children", oneZero),
  goodWithColumn("GoodWCats", "cats", oneZero),
  goodWithColumn("GoodWDogs", "dogs", oneZero),
  flagColumn("SpayedNeutered", "spayedNeutered", oneZero),
  flagColumn("ShotsCurrent", "shotsCurrent", oneZero),
  flagColumn("Housetrained", "houseTrained", oneZero),
  flagColumn("Declawed", "declawed", oneZero),
  flagColumn("SpecialNeeds", "specialNeeds", oneZero),
  column(
    "HairLength",
    (s) => {
      const coat = s.animal.coatLength;
      const lengths = adoptapetHairLengths(s.kind);
      if (coat === null || lengths.length === 0) return "";
      if (lengths.includes(coat)) return coat[0]!.toUpperCase() + coat.slice(1);
      s.warn("coatLength", `${coat} is not a hair length Adopt-a-Pet has for this kind of animal: left out`);
      return "";
    },
    (cell, s) => {
      const coat = cell.toLowerCase();
      // Dogs, birds and reptiles have no hair length here: an empty cell says nothing about them.
      if (coat === "") {
        if (s.kind === null || adoptapetHairLengths(s.kind).length) s.fields.coatLength = null;
      } else if (isCoatLength(coat)) s.fields.coatLength = coat;
      else s.warn("HairLength", `"${cell}" is not a hair length: left out`);
    },
  ),
  column(
    "YouTubeVideoURL",
    (s) => {
      if (!s.animal.videoUrl) return "";
      const watch = youtubeWatchUrl(s.animal.videoUrl);
      if (!watch) s.warn("videoUrl", "Adopt-a-Pet takes YouTube videos only: left out");
      return watch ?? "";
    },
    (cell, s) => {
      if (cell === "") s.fields.videoUrl = null;
      else if (isVideoUrl(cell)) s.fields.videoUrl = cell;
      else s.warn("YouTubeVideoURL", `"${cell}" is not a YouTube address: left out`);
    },
  ),
];

const LATER_COLUMNS: readonly Column[] = [
  column("Birthdate", () => "", (cell, s) => {
    const date = readDate(cell);
    if (date === undefined) s.error("Birthdate", `"${cell}" is not a date (MM/DD/YYYY)`);
    else s.fields.birthDate = date;
  }),
  column("AdoptionFee", () => "", (cell, s) => {
    const cents = readMoney(cell);
    if (cents === undefined) s.error("AdoptionFee", `"${cell}" is not an amount`);
    else s.fields.adoptionFee = cents === null ? null : { amountCents: cents, currency: "USD", waived: false };
  }),
];

function columnsOf(options: WriteOptions): readonly Column[] {
  if (!options.adoptapetColors) return BASE_COLUMNS;
  const sex = BASE_COLUMNS.findIndex((c) => c.name === "Sex");
  return [...BASE_COLUMNS.slice(0, sex + 1), COLOR, ...BASE_COLUMNS.slice(sex + 1)];
}

const SPEC: SiteFormatSpec = {
  site: "adoptapet",
  columns: columnsOf,
  readable: [...columnsOf({ adoptapetColors: true }), ...LATER_COLUMNS],
  photos: (s): PhotoFile[] =>
    s.animal.photos.map((photo, i) => {
      const input = { rowId: s.rowId, animalId: s.animal.id, index: i + 1, photo };
      return { index: i + 1, photo, reference: s.options.photoReference?.(input) ?? `photos/${fileStem(s.rowId, s.animal.id)}-${i + 1}.jpg` };
    }),
  idColumns: ["Id"],
  speciesColumn: "Animal",
  nameColumn: "Name",
};

/**
 * import.cfg: which column of pets.csv is which Adopt-a-Pet field
 * (#<position>:<our column>=<their field>, as ASM3 writes it). Our values are
 * Adopt-a-Pet's own names, so no value lines follow the columns.
 */
export function adoptapetImportConfig(options: Pick<WriteOptions, "adoptapetColors"> = {}): string {
  const names = columnsOf(options).map((c) => c.name);
  return [
    "; Adopt-a-Pet AutoUpload import map, written by Petstore.",
    "; pets.csv has no header row: these are its columns in order, and its values are Adopt-a-Pet's own names.",
    "",
    ...names.map((name, i) => `#${i + 1}:${name}=${name}`),
  ].join("\n");
}

export const adoptapet = {
  name: "adoptapet" as const,
  columns: (options: Pick<WriteOptions, "adoptapetColors"> = {}): string[] => columnsOf(options).map((c) => c.name),
  toRow: (animal: ListingAnimal, options: WriteOptions = {}): WrittenRow => writeRow(SPEC, animal, options),
  fromRow: (record: ListingRecord, context: ReadContext): ImportedRow => readRow(SPEC, record, context),
  /** The whole file: a row per animal, no header; LF between lines, none after the last (as ASM3 sends it). */
  writeFile: (rows: readonly (readonly string[])[]): string => rows.map(quotedLine).join("\n"),
  importConfig: adoptapetImportConfig,
};
