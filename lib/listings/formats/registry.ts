import { adoptapet } from "@/lib/listings/formats/adoptapet";
import { genericFormat, type GenericMapping } from "@/lib/listings/formats/generic";
import { petfinder } from "@/lib/listings/formats/petfinder";
import { readListingFile, type ListingFile } from "@/lib/listings/formats/read";
import { rescuegroups } from "@/lib/listings/formats/rescuegroups";
import { ListingFileError } from "@/lib/listings/formats/errors";
import type { ImportedRow, ListingAnimal, ListingRecord, ReadContext, WriteOptions, WrittenRow } from "@/lib/listings/formats/types";
import type { ListingFormatName, ListingSite } from "@/lib/core/listing-sites";

// The formats by name, and the two whole-file operations the uploads and the
// import are built on.

export const SITE_FORMATS = { petfinder, adoptapet, rescuegroups } as const;

export interface WrittenFile {
  /** The file as the site takes it (UTF-8, no byte order mark). */
  text: string;
  bytes: Buffer;
  /** Every animal given, in order, with its warnings and photos; `cells` null for one left out. */
  rows: WrittenRow[];
}

/** A site's whole file for these animals (the upload and the pull feed). Animals the site cannot take are left out, with a warning in their row. */
export function writeListingFile(site: ListingSite, animals: readonly ListingAnimal[], options: WriteOptions = {}): WrittenFile {
  const format = SITE_FORMATS[site];
  const rows = animals.map((animal) => format.toRow(animal, options));
  const text = format.writeFile(rows.flatMap((row) => (row.cells ? [row.cells] : [])));
  return { text, bytes: Buffer.from(text, "utf8"), rows };
}

export interface ParsedListingFile {
  file: ListingFile;
  rows: ImportedRow[];
}

/**
 * How a file's records become rows in our words: its format's reader (a
 * generic file's built from its mapping, which is checked against the
 * file's header here). Lets a caller read the rows a part at a time.
 */
export function listingRowReader(
  file: Pick<ListingFile, "format" | "columns">,
  options: { mapping?: GenericMapping } & ReadContext,
): (record: ListingRecord) => ImportedRow {
  const context: ReadContext = { categories: options.categories };
  if (file.format === "generic") {
    if (!options.mapping)
      throw new ListingFileError(
        "invalid_mapping",
        "A generic CSV file needs a mapping: which of its columns holds the name, the species and the other fields.",
      );
    const generic = genericFormat(options.mapping, file.columns, options.categories);
    return (record) => generic.fromRow(record, context);
  }
  const format = SITE_FORMATS[file.format];
  return (record) => format.fromRow(record, context);
}

/**
 * Every row of a file, in our words: the import's first step. `format` is
 * found from the file when not given; a generic file needs its `mapping`.
 * A file that cannot be read at all throws ListingFileError; a bad row is
 * that row's errors.
 */
export async function parseListingFile(
  bytes: Uint8Array,
  options: { format?: ListingFormatName; mapping?: GenericMapping } & ReadContext,
): Promise<ParsedListingFile> {
  const file = await readListingFile(bytes, { format: options.format ?? (options.mapping ? "generic" : undefined) });
  const read = listingRowReader(file, options);
  return { file, rows: file.records.map(read) };
}
