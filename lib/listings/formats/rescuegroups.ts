import { matchBreed, unknownBreedNames } from "@/lib/listings/vocabulary/breeds";
import type { CoatLength } from "@/lib/pets/profile";
import { matchColor } from "@/lib/listings/vocabulary/colors";
import { siteSpecies } from "@/lib/listings/vocabulary/species";
import { SIZE_CODES, fileStem, textToHtml, yesNo } from "@/lib/listings/formats/cells";
import {
  ageColumn,
  breedColumn,
  coatColumn,
  flagColumn,
  goodWithColumn,
  readPhotoCell,
  sexColumn,
  sizeColumn,
  statusColumn,
  textColumn,
} from "@/lib/listings/formats/columns";
import { quotedLine } from "@/lib/listings/formats/csv";
import { photoFiles, siteFormat, type Column, type SiteFormatSpec } from "@/lib/listings/formats/row";
import type { ImportedRow, ListingRecord, ReadContext } from "@/lib/listings/formats/types";

// RescueGroups' import/pets.csv, as ASM3 writes it (sheltermanager/asm3,
// src/asm3/publishers/rescuegroups.py): a header row (its names separated
// by ", "), every cell quoted, yes/no as "Yes"/"No" (nothing for unknown),
// line breaks in the description as <br> (RescueGroups takes no line break
// in a cell). Photos are files uploaded to import/pictures/, named in
// pic1-pic4 (for an animal without photos, ASM3 today writes the four empty
// cells as one value: read as no pictures). animalID and rescueID both carry the animal's ID (ASM3 puts its
// database id in the first and the shelter's code in the second; reading
// prefers rescueID, the one a shelter knows).

export const RESCUEGROUPS_COLUMNS = [
  "orgID",
  "animalID",
  "status",
  "lastUpdated",
  "rescueID",
  "name",
  "summary",
  "species",
  "breed",
  "primaryBreed",
  "secondaryBreed",
  "sex",
  "mixed",
  "dogs",
  "cats",
  "kids",
  "declawed",
  "housetrained",
  "age",
  "specialNeeds",
  "altered",
  "size",
  "uptodate",
  "color",
  "coatLength",
  "pattern",
  "courtesy",
  "description",
  "pic1",
  "pic2",
  "pic3",
  "pic4",
] as const;

const PICTURES = 4;
const STATUSES = { available: "Available", pending: "Pending", sold: "Adopted" } as const;
/** RescueGroups' coat lengths (its import guide: Short, Medium or Long). */
const COATS = ["short", "medium", "long"] as const satisfies readonly CoatLength[];

const column = (name: (typeof RESCUEGROUPS_COLUMNS)[number], write: Column["write"], read?: Column["read"]): Column => ({ name, write, read });

function picture(n: number): Column {
  return column(
    `pic${n}` as (typeof RESCUEGROUPS_COLUMNS)[number],
    (s) => s.photos[n - 1]?.reference ?? "",
    (cell, s) => readPhotoCell(`pic${n}`, cell, s),
  );
}

const PRIMARY_BREED = breedColumn("primaryBreed", "primary");

const COLUMNS: readonly Column[] = [
  column("orgID", (s) => s.options.accountId ?? ""),
  column("animalID", (s) => s.rowId),
  statusColumn(
    "status",
    (s) => STATUSES[s.animal.status],
    { available: "available", pending: "pending", hold: "pending", adopted: "sold", deleted: "delete" },
    "Available, Pending, Hold, Adopted or Deleted",
  ),
  column("lastUpdated", (s) => (s.animal.updatedAt ? String(Math.floor(Date.parse(s.animal.updatedAt) / 1000)) : "")),
  column("rescueID", (s) => s.rowId),
  column("name", (s) => s.animal.name),
  column("summary", () => ""),
  column("species", (s) => siteSpecies(s.kind, "rescuegroups")),
  // The breed as people read it: ours as typed. Read only when primaryBreed is empty.
  column(
    "breed",
    (s) => s.animal.breed ?? "",
    (cell, s) => {
      if (cell) s.fields.breed = matchBreed(s.kind, cell).name;
    },
  ),
  {
    ...PRIMARY_BREED,
    // The site's breed wins, except where it is only the stand-in for a
    // breed the site does not know and the breed column has the real one.
    read: (cell, s) => {
      const standIn = s.kind !== null && unknownBreedNames(s.kind, "rescuegroups").includes(cell);
      if (s.fields.breed && (!cell || standIn)) return;
      PRIMARY_BREED.read!(cell, s);
    },
  },
  breedColumn("secondaryBreed", "secondary"),
  sexColumn("sex", ["Female", "Male"]),
  { ...flagColumn("mixed", "mixedBreed", yesNo), write: (s) => yesNo(s.breeds.mixed) },
  goodWithColumn("dogs", "dogs", yesNo),
  goodWithColumn("cats", "cats", yesNo),
  goodWithColumn("kids", "children", yesNo),
  flagColumn("declawed", "declawed", yesNo),
  flagColumn("housetrained", "houseTrained", yesNo),
  ageColumn("age"),
  flagColumn("specialNeeds", "specialNeeds", yesNo),
  flagColumn("altered", "spayedNeutered", yesNo),
  sizeColumn("size", (s) => (s.animal.size ? SIZE_CODES[s.animal.size] : "")),
  flagColumn("uptodate", "shotsCurrent", yesNo),
  column(
    "color",
    (s) => {
      const [color, ...more] = s.animal.colors;
      if (more.length) s.warn("colors", "RescueGroups' file takes one colour: the first is sent");
      return color ?? "";
    },
    (cell, s) => {
      s.fields.colors = cell ? [matchColor(s.kind, cell)] : [];
    },
  ),
  coatColumn("coatLength", () => COATS, "RescueGroups"),
  column("pattern", () => ""),
  column("courtesy", () => ""),
  textColumn("description", "description", (text) => textToHtml(text, "<br>")),
  ...Array.from({ length: PICTURES }, (_, i) => picture(i + 1)),
];

const SPEC: SiteFormatSpec = {
  site: "rescuegroups",
  columns: () => COLUMNS,
  readable: COLUMNS,
  photos: (s) => photoFiles(s, PICTURES, "RescueGroups' file", ({ rowId, animalId, index }) => `${fileStem(rowId, animalId)}-${index}.jpg`),
  idColumns: ["rescueID", "animalID"],
  speciesColumn: "species",
  nameColumn: "name",
};

/**
 * What ASM3 writes for an animal without photos: its publisher gives the
 * four empty picture cells as one item (`"","","",""`), and its csvLine then
 * quotes each item whole (outer quotes stripped, the inner ones doubled), so
 * the row ends in this one value and has 29 values where the header has 32.
 */
const ASM3_NO_PICTURES = '","","","';

/** Such a row, read as the four empty picture cells it means; any other row as it is (a short row stays an error). */
function asm3PictureCells(record: ListingRecord): ListingRecord {
  const { cells, index, expectedCellCount } = record;
  const picturesLast = index.get("pic1") === expectedCellCount - PICTURES && index.get(`pic${PICTURES}`) === expectedCellCount - 1;
  if (!picturesLast || cells.length !== expectedCellCount - (PICTURES - 1) || cells.at(-1)?.trim() !== ASM3_NO_PICTURES) return record;
  return { ...record, cells: [...cells.slice(0, -1), ...Array<string>(PICTURES).fill("")], cellCount: expectedCellCount };
}

const FORMAT = siteFormat(SPEC);

export const rescuegroups = {
  name: "rescuegroups" as const,
  columns: RESCUEGROUPS_COLUMNS,
  ...FORMAT,
  fromRow: (record: ListingRecord, context: ReadContext): ImportedRow => FORMAT.fromRow(asm3PictureCells(record), context),
  /** The whole file: the header row (names separated by ", ", as ASM3 sends it), then a row per animal; LF between lines. */
  writeFile: (rows: readonly (readonly string[])[]): string => `${RESCUEGROUPS_COLUMNS.join(", ")}\n${rows.map(quotedLine).join("\n")}`,
};
