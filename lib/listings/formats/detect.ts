import { normalizeName } from "@/lib/listings/vocabulary/normalize";
import { kindOfSpecies } from "@/lib/listings/vocabulary/species";
import { ADOPTAPET_COLOR_COLUMN, ADOPTAPET_COLUMNS, ADOPTAPET_LATER_COLUMNS, adoptapetLayout } from "@/lib/listings/formats/adoptapet";
import { quoteCell } from "@/lib/listings/formats/cells";
import { ListingFileError } from "@/lib/listings/formats/errors";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { RESCUEGROUPS_COLUMNS } from "@/lib/listings/formats/rescuegroups";
import type { ListingFormatName, ListingSite } from "@/lib/core/listing-sites";

// Which format a file is in, from its first row: a site's header row (names
// compared ignoring case, spaces and punctuation), or for Adopt-a-Pet's
// headerless file, a row of 21 or 22 cells (or ASM3's 25/26 and 32/33) whose
// Status is Available, Adopted or Delete.

/** How a file's rows are laid out: the name of each column, and whether the first row is the header. */
export interface Layout {
  format: ListingFormatName;
  columns: string[];
  hasHeader: boolean;
}

const KNOWN: Record<ListingSite, readonly string[]> = {
  petfinder: PETFINDER_COLUMNS,
  adoptapet: [...ADOPTAPET_COLUMNS, ADOPTAPET_COLOR_COLUMN, ...ADOPTAPET_LATER_COLUMNS],
  rescuegroups: RESCUEGROUPS_COLUMNS,
};
/** The first columns of each site's header row. */
const OPENINGS: Record<ListingSite, readonly string[]> = {
  petfinder: ["id", "internal", "animalname"],
  adoptapet: ["id", "animal", "breed"],
  rescuegroups: ["orgid", "animalid", "status"],
};

function opensWith(first: readonly string[], opening: readonly string[]): boolean {
  return opening.every((name, i) => normalizeName(first[i] ?? "") === name);
}

/** A site's header row, its cells renamed to the format's own spelling (unknown ones kept as they are). */
function siteLayout(site: ListingSite, first: readonly string[]): Layout {
  const byKey = new Map(KNOWN[site].map((name) => [normalizeName(name), name]));
  return { format: site, columns: first.map((cell) => byKey.get(normalizeName(cell)) ?? cell.trim()), hasHeader: true };
}

function looksLikeAdoptapetRow(cells: readonly string[], columns: readonly string[]): boolean {
  const at = (name: string) => (cells[columns.indexOf(name)] ?? "").trim();
  return ["available", "adopted", "delete"].includes(at("Status").toLowerCase()) && kindOfSpecies(at("Animal")) !== null && /^[01]?$/.test(at("Purebred"));
}

function describe(first: readonly string[]): string {
  const shown = first
    .slice(0, 4)
    .map((cell) => quoteCell(cell.trim()))
    .join(", ");
  const semicolons = first.length === 1 && first[0]!.includes(";") ? " (its values are separated by semicolons: save it with commas)" : "";
  return `its first line has ${first.length} value${first.length === 1 ? "" : "s"}, starting ${shown}${first.length > 4 ? ", …" : ""}${semicolons}`;
}

const EXPECTED: Record<ListingSite, string> = {
  petfinder: "Petfinder's header row (ID, Internal, AnimalName, …)",
  rescuegroups: "RescueGroups' header row (orgID, animalID, status, …)",
  adoptapet: "Adopt-a-Pet's columns (Id, Animal, Breed, …; with or without the header row, 21 or 22 of them)",
};

/** The layout of a file whose first row is `first`; `format` when the caller named one (then the file must be in it). */
export function detectLayout(first: readonly string[], format?: ListingFormatName): Layout {
  if (format === "generic") {
    const columns = first.map((cell) => cell.trim());
    if (columns.every((c) => c === ""))
      throw new ListingFileError("unknown_format", "A generic CSV file needs a header row naming its columns; the first line is empty.");
    return { format, columns, hasHeader: true };
  }
  for (const site of ["petfinder", "rescuegroups", "adoptapet"] as const) {
    if ((!format || format === site) && opensWith(first, OPENINGS[site])) return siteLayout(site, first);
  }
  if (!format || format === "adoptapet") {
    const columns = adoptapetLayout(first.length);
    if (columns && looksLikeAdoptapetRow(first, columns)) return { format: "adoptapet", columns, hasHeader: false };
  }
  if (format) {
    throw new ListingFileError("format_mismatch", `The file is not in the ${format} format: ${describe(first)}. Expected ${EXPECTED[format]}.`);
  }
  throw new ListingFileError(
    "unknown_format",
    `The file's format could not be told: ${describe(first)}. Expected ${Object.values(EXPECTED).join(", or ")}; for any other CSV with a header row, choose the generic format and map its columns.`,
  );
}
