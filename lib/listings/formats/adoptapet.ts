import { adoptapetColor, adoptapetHairLengths, matchColor } from "@/lib/listings/vocabulary/colors";
import { siteSpecies } from "@/lib/listings/vocabulary/species";
import { SIZE_CODES, fileStem, isVideoUrl, oneZero, quoteCell, readMoney, textToHtml, youtubeWatchUrl } from "@/lib/listings/formats/cells";
import {
  ageColumn,
  breedColumn,
  coatColumn,
  flagColumn,
  goodWithColumn,
  readDateCell,
  readFlagCell,
  sexColumn,
  sizeColumn,
  statusColumn,
  textColumn,
} from "@/lib/listings/formats/columns";
import { quotedLine } from "@/lib/listings/formats/csv";
import { photoFiles, siteFormat, type Column, type SiteFormatSpec } from "@/lib/listings/formats/row";
import type { WriteOptions } from "@/lib/listings/formats/types";

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
  "Id",
  "Animal",
  "Breed",
  "Breed2",
  "Purebred",
  "Age",
  "Name",
  "Size",
  "Sex",
  "Description",
  "Status",
  "GoodWKids",
  "GoodWCats",
  "GoodWDogs",
  "SpayedNeutered",
  "ShotsCurrent",
  "Housetrained",
  "Declawed",
  "SpecialNeeds",
  "HairLength",
  "YouTubeVideoURL",
] as const;
export const ADOPTAPET_COLOR_COLUMN = "Color";
/** ASM3's later columns, in order: 4 from 2021, 7 more from 2026. */
export const ADOPTAPET_LATER_COLUMNS = [
  "Birthdate",
  "Sizecurrent",
  "SizeUOM",
  "AdoptionFee",
  "Cratetrained",
  "HeartwormNegative",
  "HeartwormPositive",
  "Leashtrained",
  "IndoorOnly",
  "FIVPositive",
  "SpecialDietaryNeeds",
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
const DOG_OR_CAT = (kind: string | null) => kind === "dog" || kind === "cat";

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
    (cell, s) => readFlagCell("Purebred", cell, s, (purebred) => (s.fields.mixedBreed = purebred === null ? null : !purebred)),
  ),
  ageColumn("Age"),
  column("Name", (s) => s.animal.name),
  sizeColumn(
    "Size",
    // Adopt-a-Pet refuses a size for anything but dogs and cats (ASM3).
    (s) => (s.animal.size !== null && DOG_OR_CAT(s.kind) ? SIZE_CODES[s.animal.size] : ""),
    DOG_OR_CAT,
  ),
  sexColumn("Sex", ["F", "M"]),
  textColumn("Description", "description", (text) => textToHtml(text, "<br>")),
  statusColumn(
    "Status",
    (s) => {
      if (s.animal.status === "pending") s.warn("status", "Adopt-a-Pet has no pending status: listed as Available");
      return STATUSES[s.animal.status];
    },
    { available: "available", adopted: "sold", delete: "delete" },
    "Available, Adopted or Delete",
  ),
  goodWithColumn("GoodWKids", "children", oneZero),
  goodWithColumn("GoodWCats", "cats", oneZero),
  goodWithColumn("GoodWDogs", "dogs", oneZero),
  flagColumn("SpayedNeutered", "spayedNeutered", oneZero),
  flagColumn("ShotsCurrent", "shotsCurrent", oneZero),
  flagColumn("Housetrained", "houseTrained", oneZero),
  flagColumn("Declawed", "declawed", oneZero),
  flagColumn("SpecialNeeds", "specialNeeds", oneZero),
  coatColumn("HairLength", adoptapetHairLengths, "Adopt-a-Pet"),
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
      else s.warn("YouTubeVideoURL", `${quoteCell(cell)} is not a YouTube address: left out`);
    },
  ),
];

const LATER_COLUMNS: readonly Column[] = [
  column(
    "Birthdate",
    () => "",
    (cell, s) => readDateCell("Birthdate", cell, s, "birthDate", "MM/DD/YYYY"),
  ),
  column(
    "AdoptionFee",
    () => "",
    (cell, s) => {
      const cents = readMoney(cell);
      if (cents === undefined) s.error("AdoptionFee", `${quoteCell(cell)} is not an amount`);
      else s.fields.adoptionFee = cents === null ? null : { amountCents: cents, currency: "USD", waived: false };
    },
  ),
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
  photos: (s) => photoFiles(s, s.animal.photos.length, "Adopt-a-Pet", ({ rowId, animalId, index }) => `photos/${fileStem(rowId, animalId)}-${index}.jpg`),
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
  ...siteFormat(SPEC),
  /** The whole file: a row per animal, no header; LF between lines, none after the last (as ASM3 sends it). */
  writeFile: (rows: readonly (readonly string[])[]): string => rows.map(quotedLine).join("\n"),
  importConfig: adoptapetImportConfig,
};
