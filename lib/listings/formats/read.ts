import { readCsv } from "@/lib/listings/formats/csv";
import { decodeListingFile, type ListingEncoding } from "@/lib/listings/formats/decode";
import { detectLayout } from "@/lib/listings/formats/detect";
import { ListingFileError, MAX_FILE_ROWS } from "@/lib/listings/formats/errors";
import type { ListingRecord } from "@/lib/listings/formats/types";
import type { ListingFormatName } from "@/lib/listings/sites";

// A listing file from its bytes: decoded (UTF-8, with or without BOM, else
// Windows-1252), parsed, its format found (or checked against the one
// named), and each record's cells named by column, with the line it starts
// on. At most 10 MB and 20,000 rows: past either, a ListingFileError.

export interface ListingFile {
  format: ListingFormatName;
  encoding: ListingEncoding;
  /** The columns, in file order: the format's spelling of a site's names; a generic file's header as it is. */
  columns: string[];
  hasHeader: boolean;
  records: ListingRecord[];
}

export async function readListingFile(bytes: Uint8Array, options: { format?: ListingFormatName } = {}): Promise<ListingFile> {
  const { text, encoding } = decodeListingFile(bytes);
  // One row more than the limit (a header), and one more to know it was passed.
  const { rows, truncated } = await readCsv(text, MAX_FILE_ROWS + 2);
  const [first] = rows;
  if (!first) throw new ListingFileError("empty_file", "The file has no rows (only empty lines).");
  const layout = detectLayout(first.cells, options.format);
  const data = layout.hasHeader ? rows.slice(1) : rows;
  if (truncated || data.length > MAX_FILE_ROWS) {
    throw new ListingFileError("too_many_rows", `The file has more than ${MAX_FILE_ROWS.toLocaleString("en-US")} animals; import it in parts of at most that many rows.`);
  }
  const records = data.map((row): ListingRecord => {
    const values: Record<string, string> = {};
    layout.columns.forEach((column, i) => {
      if (!Object.hasOwn(values, column)) values[column] = row.cells[i] ?? "";
    });
    return { line: row.line, values, cellCount: row.cells.length, expectedCellCount: layout.columns.length };
  });
  return { format: layout.format, encoding, columns: layout.columns, hasHeader: layout.hasHeader, records };
}
