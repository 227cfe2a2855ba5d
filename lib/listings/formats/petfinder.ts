import { siteSpecies } from "@/lib/listings/vocabulary/species";
import { petfinderCoats, matchColor, petfinderColor } from "@/lib/listings/vocabulary/colors";
import { isCoatLength } from "@/lib/listings/vocabulary/coat-lengths";
import {
  AGE_WORDS,
  SIZE_CODES,
  decimalMoney,
  isVideoUrl,
  oneOrEmpty,
  oneZero,
  readAgeGroup,
  readBoolean,
  readDate,
  readMoney,
  readSex,
  readSize,
  splitList,
  textToHtml,
} from "@/lib/listings/formats/cells";
import { quotedLine } from "@/lib/listings/formats/csv";
import { breedColumn, flagColumn, goodWithColumn, readPhotoCell, readRow, textColumn, writeRow, type Column, type SiteFormatSpec } from "@/lib/listings/formats/row";
import type { ImportedRow, ListingAnimal, ListingRecord, PhotoFile, ReadContext, WriteOptions, WrittenRow } from "@/lib/listings/formats/types";

// Petfinder's FTP import file, import/<shelter ID>: a header row and the 39
// columns Petfinder mandated in its import documentation of August 2019, as
// ASM3 writes them (sheltermanager/asm3, src/asm3/publishers/petfinder.py).
// Yes/no columns say yes with "1" and nothing otherwise; NoDogs, NoCats and
// NoKids say it the other way round ("1": not good with them); line breaks in
// the description are the entity &#10;. Photos are addresses Petfinder
// fetches; a YouTube or Vimeo video takes the sixth photo's place (ASM3 does
// the same since 2026).

export const PETFINDER_COLUMNS = [
  "ID", "Internal", "AnimalName", "PrimaryBreed", "SecondaryBreed", "Sex", "Size", "Age", "Desc", "Type", "Status",
  "Shots", "Altered", "NoDogs", "NoCats", "NoKids", "Housetrained", "Declawed", "specialNeeds", "Mix",
  "photo1", "photo2", "photo3", "photo4", "photo5", "photo6", "arrival_date", "birth_date",
  "primaryColor", "secondaryColor", "tertiaryColor", "coat_length",
  "adoption_fee", "display_adoption_fee", "adoption_fee_waived",
  "special_needs_notes", "no_other", "no_other_note", "tags",
] as const;

const PHOTO_COLUMNS = 6;

const STATUS_CODES = { available: "A", pending: "H", sold: "X" } as const;

function capitalized(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

const column = (name: (typeof PETFINDER_COLUMNS)[number], write: Column["write"], read?: Column["read"]): Column => ({ name, write, read });

function photoColumn(n: number): Column {
  return column(
    `photo${n}` as (typeof PETFINDER_COLUMNS)[number],
    (s) => {
      if (n === PHOTO_COLUMNS && s.animal.videoUrl && isVideoUrl(s.animal.videoUrl)) return s.animal.videoUrl;
      return s.photos[n - 1]?.reference ?? "";
    },
    (cell, s) => {
      // The file carries a video (in a photo column) whether or not this row has one.
      if (n === 1) s.fields.videoUrl ??= null;
      readPhotoCell(`photo${n}`, cell, s);
    },
  );
}

function colorColumn(name: "primaryColor" | "secondaryColor" | "tertiaryColor", index: number): Column {
  return column(
    name,
    (s) => {
      const color = s.animal.colors[index];
      if (color === undefined) return "";
      const theirs = petfinderColor(s.kind, color);
      if (!theirs) s.warn("colors", `"${color}" is not one of Petfinder's colours for this kind of animal: left out`);
      return theirs ?? "";
    },
    (cell, s) => {
      s.fields.colors ??= [];
      if (cell) s.fields.colors.push(matchColor(s.kind, cell));
    },
  );
}

const COLUMNS: readonly Column[] = [
  column("ID", (s) => s.rowId),
  column("Internal", (s) => String(s.animal.id)),
  column("AnimalName", (s) => s.animal.name),
  breedColumn("PrimaryBreed", "primary"),
  breedColumn("SecondaryBreed", "secondary"),
  column(
    "Sex",
    (s) => {
      if (s.animal.sex === "unknown") s.warn("sex", "unknown: Petfinder imports only animals whose sex is given");
      return s.animal.sex === "female" ? "F" : s.animal.sex === "male" ? "M" : "";
    },
    (cell, s) => {
      const sex = readSex(cell);
      if (sex === undefined) s.error("Sex", `"${cell}" is not M or F`);
      else s.fields.sex = sex;
    },
  ),
  column(
    "Size",
    (s) => {
      if (s.animal.size !== null) return SIZE_CODES[s.animal.size];
      s.warn("size", "unknown: sent as M, as Petfinder requires a size");
      return "M";
    },
    (cell, s) => {
      const size = readSize(cell);
      if (size === undefined) s.error("Size", `"${cell}" is not S, M, L or XL`);
      else s.fields.size = size;
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
  textColumn("Desc", "description", (text) => textToHtml(text, "&#10;")),
  column("Type", (s) => siteSpecies(s.kind, "petfinder")),
  column(
    "Status",
    (s) => STATUS_CODES[s.animal.status],
    (cell, s) => {
      const code = cell.toUpperCase();
      if (code === "A") s.fields.status = "available";
      else if (code === "H" || code === "P") s.fields.status = "pending";
      else if (code === "F") {
        s.fields.status = "pending";
        s.warn("Status", "F (found, a stray) is not available for adoption: imported as pending");
      } else if (code === "X") {
        s.fields.status = "sold";
        s.row.statusAction = "adopted";
      } else if (code !== "") s.error("Status", `"${cell}" is not A, H, F or X`);
    },
  ),
  flagColumn("Shots", "shotsCurrent", oneOrEmpty),
  flagColumn("Altered", "spayedNeutered", oneOrEmpty),
  goodWithColumn("NoDogs", "dogs", oneZero, true),
  goodWithColumn("NoCats", "cats", oneZero, true),
  goodWithColumn("NoKids", "children", oneZero, true),
  flagColumn("Housetrained", "houseTrained", oneOrEmpty),
  flagColumn("Declawed", "declawed", oneOrEmpty),
  flagColumn("specialNeeds", "specialNeeds", oneOrEmpty),
  { ...flagColumn("Mix", "mixedBreed", oneOrEmpty), write: (s) => oneOrEmpty(s.breeds.mixed) },
  ...Array.from({ length: PHOTO_COLUMNS }, (_, i) => photoColumn(i + 1)),
  dateColumn("arrival_date", "intakeDate"),
  dateColumn("birth_date", "birthDate"),
  colorColumn("primaryColor", 0),
  colorColumn("secondaryColor", 1),
  colorColumn("tertiaryColor", 2),
  column(
    "coat_length",
    (s) => {
      const coat = s.animal.coatLength;
      if (coat === null) return "";
      if (petfinderCoats(s.kind).includes(coat)) return capitalized(coat);
      s.warn("coatLength", `${coat} is not a coat Petfinder has for this kind of animal: left out`);
      return "";
    },
    (cell, s) => {
      const coat = cell.toLowerCase();
      if (coat === "") s.fields.coatLength = null;
      else if (isCoatLength(coat)) s.fields.coatLength = coat;
      else s.warn("coat_length", `"${cell}" is not a coat length: left out`);
    },
  ),
  column(
    "adoption_fee",
    (s) => {
      const fee = s.animal.adoptionFee;
      if (!fee || fee.amountCents === 0) return "";
      if (fee.currency !== "USD") s.warn("adoptionFee", `in ${fee.currency}: Petfinder shows the amount without its currency`);
      return decimalMoney(fee.amountCents);
    },
    (cell, s) => {
      const cents = readMoney(cell);
      if (cents === undefined) s.error("adoption_fee", `"${cell}" is not an amount`);
      else s.fields.adoptionFee = cents === null ? null : { amountCents: cents, currency: "USD", waived: false };
    },
  ),
  column("display_adoption_fee", (s) => oneOrEmpty(!!s.animal.adoptionFee && s.animal.adoptionFee.amountCents > 0)),
  column(
    "adoption_fee_waived",
    (s) => oneOrEmpty(s.animal.adoptionFee?.waived ?? null),
    (cell, s) => {
      const waived = readBoolean(cell);
      if (waived === undefined) s.error("adoption_fee_waived", `"${cell}" is not yes or no`);
      else if (waived && s.fields.adoptionFee !== undefined) s.fields.adoptionFee = { ...(s.fields.adoptionFee ?? { amountCents: 0, currency: "USD" }), waived: true };
    },
  ),
  textColumn("special_needs_notes", "specialNeedsNotes", (text) => textToHtml(text, "&#10;")),
  column("no_other", () => ""),
  column("no_other_note", () => ""),
  column(
    "tags",
    (s) => s.animal.tags.join(", "),
    (cell, s) => {
      s.fields.tags = splitList(cell);
    },
  ),
];

function dateColumn(name: "arrival_date" | "birth_date", field: "intakeDate" | "birthDate"): Column {
  return column(
    name,
    (s) => s.animal[field] ?? "",
    (cell, s) => {
      const date = readDate(cell);
      if (date === undefined) s.error(name, `"${cell}" is not a date (YYYY-MM-DD)`);
      else s.fields[field] = date;
    },
  );
}

const SPEC: SiteFormatSpec = {
  site: "petfinder",
  columns: () => COLUMNS,
  readable: COLUMNS,
  photos: (s): PhotoFile[] => {
    const room = s.animal.videoUrl && isVideoUrl(s.animal.videoUrl) ? PHOTO_COLUMNS - 1 : PHOTO_COLUMNS;
    if (s.animal.photos.length > room) s.warn("photos", `Petfinder takes ${room} photos${room < PHOTO_COLUMNS ? " beside the video" : ""}: the first ${room} are sent`);
    return s.animal.photos.slice(0, room).map((photo, i) => {
      const input = { rowId: s.rowId, animalId: s.animal.id, index: i + 1, photo };
      return { index: i + 1, photo, reference: s.options.photoReference?.(input) ?? photo.url };
    });
  },
  idColumns: ["ID", "Internal"],
  speciesColumn: "Type",
  nameColumn: "AnimalName",
};

export const petfinder = {
  name: "petfinder" as const,
  columns: PETFINDER_COLUMNS,
  /** The upload and the pull feed's direction. */
  toRow: (animal: ListingAnimal, options: WriteOptions = {}): WrittenRow => writeRow(SPEC, animal, options),
  /** The import's direction. */
  fromRow: (record: ListingRecord, context: ReadContext): ImportedRow => readRow(SPEC, record, context),
  /** The whole file: the header row, then a row per animal; LF between lines, none after the last (as ASM3 sends it). */
  writeFile: (rows: readonly (readonly string[])[]): string => [PETFINDER_COLUMNS.join(","), ...rows.map(quotedLine)].join("\n"),
};
