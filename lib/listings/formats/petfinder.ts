import { siteSpecies } from "@/lib/listings/vocabulary/species";
import { petfinderCoats, matchColor, petfinderColor } from "@/lib/listings/vocabulary/colors";
import { SIZE_CODES, decimalMoney, isVideoUrl, oneOrEmpty, oneZero, quoteCell, readMoney, splitList, textToHtml } from "@/lib/listings/formats/cells";
import {
  ageColumn,
  breedColumn,
  coatColumn,
  flagColumn,
  goodWithColumn,
  readDateCell,
  readFlagCell,
  readPhotoCell,
  sexColumn,
  sizeColumn,
  statusColumn,
  textColumn,
} from "@/lib/listings/formats/columns";
import { quotedLine } from "@/lib/listings/formats/csv";
import { photoFiles, siteFormat, type Column, type SiteFormatSpec } from "@/lib/listings/formats/row";

// Petfinder's FTP import file, import/<shelter ID>: a header row and the 39
// columns Petfinder mandated in its import documentation of August 2019, as
// ASM3 writes them (sheltermanager/asm3, src/asm3/publishers/petfinder.py).
// Yes/no columns say yes with "1" and nothing otherwise; NoDogs, NoCats and
// NoKids say it the other way round ("1": not good with them); line breaks in
// the description are the entity &#10;. Photos are addresses Petfinder
// fetches; a YouTube or Vimeo video takes the sixth photo's place (ASM3 does
// the same since 2026).

export const PETFINDER_COLUMNS = [
  "ID",
  "Internal",
  "AnimalName",
  "PrimaryBreed",
  "SecondaryBreed",
  "Sex",
  "Size",
  "Age",
  "Desc",
  "Type",
  "Status",
  "Shots",
  "Altered",
  "NoDogs",
  "NoCats",
  "NoKids",
  "Housetrained",
  "Declawed",
  "specialNeeds",
  "Mix",
  "photo1",
  "photo2",
  "photo3",
  "photo4",
  "photo5",
  "photo6",
  "arrival_date",
  "birth_date",
  "primaryColor",
  "secondaryColor",
  "tertiaryColor",
  "coat_length",
  "adoption_fee",
  "display_adoption_fee",
  "adoption_fee_waived",
  "special_needs_notes",
  "no_other",
  "no_other_note",
  "tags",
] as const;

const PHOTO_COLUMNS = 6;

const STATUS_CODES = { available: "A", pending: "H", sold: "X" } as const;
const STATUS_WORDS = { a: "available", h: "pending", p: "pending", f: "pending", x: "sold" } as const;

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
  sexColumn("Sex", ["F", "M"], "unknown: Petfinder imports only animals whose sex is given"),
  sizeColumn("Size", (s) => {
    if (s.animal.size !== null) return SIZE_CODES[s.animal.size];
    s.warn("size", "unknown: sent as M, as Petfinder requires a size");
    return "M";
  }),
  ageColumn("Age"),
  textColumn("Desc", "description", (text) => textToHtml(text, "&#10;")),
  column("Type", (s) => siteSpecies(s.kind, "petfinder")),
  statusColumn("Status", (s) => STATUS_CODES[s.animal.status], STATUS_WORDS, "A, H, F or X", {
    f: "F (found, a stray) is not available for adoption: imported as pending",
  }),
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
  coatColumn("coat_length", petfinderCoats, "Petfinder"),
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
      if (cents === undefined) s.error("adoption_fee", `${quoteCell(cell)} is not an amount`);
      else s.fields.adoptionFee = cents === null ? null : { amountCents: cents, currency: "USD", waived: false };
    },
  ),
  column("display_adoption_fee", (s) => oneOrEmpty(!!s.animal.adoptionFee && s.animal.adoptionFee.amountCents > 0)),
  column(
    "adoption_fee_waived",
    (s) => oneOrEmpty(s.animal.adoptionFee?.waived ?? null),
    (cell, s) =>
      readFlagCell("adoption_fee_waived", cell, s, (waived) => {
        if (waived && s.fields.adoptionFee !== undefined)
          s.fields.adoptionFee = { ...(s.fields.adoptionFee ?? { amountCents: 0, currency: "USD" }), waived: true };
      }),
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
    (cell, s) => readDateCell(name, cell, s, field, "YYYY-MM-DD"),
  );
}

const SPEC: SiteFormatSpec = {
  site: "petfinder",
  columns: () => COLUMNS,
  readable: COLUMNS,
  // A video takes the sixth photo's place.
  photos: (s) => photoFiles(s, s.animal.videoUrl && isVideoUrl(s.animal.videoUrl) ? PHOTO_COLUMNS - 1 : PHOTO_COLUMNS, "Petfinder", ({ photo }) => photo.url),
  idColumns: ["ID", "Internal"],
  speciesColumn: "Type",
  nameColumn: "AnimalName",
};

export const petfinder = {
  name: "petfinder" as const,
  columns: PETFINDER_COLUMNS,
  ...siteFormat(SPEC),
  /** The whole file: the header row, then a row per animal; LF between lines, none after the last (as ASM3 sends it). */
  writeFile: (rows: readonly (readonly string[])[]): string => [PETFINDER_COLUMNS.join(","), ...rows.map(quotedLine)].join("\n"),
};
