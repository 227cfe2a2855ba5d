import { readCsv, scanCsv } from "@/lib/listings/formats/csv";
import { decodeListingFile, type ListingEncoding } from "@/lib/listings/formats/decode";
import { detectLayout, type Layout } from "@/lib/listings/formats/detect";
import { ListingFileError, MAX_FILE_ROWS } from "@/lib/listings/formats/errors";
import type { ColumnIndex, ListingRecord } from "@/lib/listings/formats/types";
import type { ListingFormatName } from "@/lib/core/listing-sites";

// A listing file from its bytes: decoded (UTF-8, with or without BOM, else
// Windows-1252), its shape checked in one pass (at most 200 values a row and
// 64 KB a value: lib/listings/formats/csv.ts), its format found (or checked
// against the one named) from its first record, and its records parsed,
// each with the line it starts on. At most 10 MB and 20,000 rows: past
// either, a ListingFileError.
//
// Two depths: the request only needs the head (inspectListingFile: the
// format, the columns, how many rows), the job reads every record
// (readListingFile). A record is its cells and the file's one column index
// (a name to its position): nothing is built per column per row, whatever
// the header holds, and a reader looks up only the columns it reads.

/** What a file is, without its records: all a request needs to answer. */
export interface ListingFileHead {
  format: ListingFormatName;
  encoding: ListingEncoding;
  /** The columns, in file order: the format's spelling of a site's names; a generic file's header as it is. */
  columns: string[];
  hasHeader: boolean;
  /** Data rows (the header not counted). */
  rows: number;
}

export interface ListingFile extends Omit<ListingFileHead, "rows"> {
  records: ListingRecord[];
}

/** The position of each column by name (the first, when a header names one twice). */
function columnIndex(columns: readonly string[]): ColumnIndex {
  const index = new Map<string, number>();
  columns.forEach((column, i) => {
    if (!index.has(column)) index.set(column, i);
  });
  return index;
}

/** A record's cell in the column `name`; undefined when the file has no such column. */
export function recordValue(record: ListingRecord, name: string): string | undefined {
  const at = record.index.get(name);
  return at === undefined ? undefined : (record.cells[at] ?? "");
}

const tooManyRows = () =>
  new ListingFileError(
    "too_many_rows",
    `The file has more than ${MAX_FILE_ROWS.toLocaleString("en-US")} animals; import it in parts of at most that many rows.`,
  );

interface Prepared {
  encoding: ListingEncoding;
  bytes: Buffer;
  layout: Layout;
  rows: number;
}

/** Decoded, its shape checked, its layout found from the first record: everything but the records. */
async function prepare(input: Uint8Array, format: ListingFormatName | undefined): Promise<Prepared> {
  const { text, encoding } = decodeListingFile(input);
  const bytes = Buffer.from(text, "utf8");
  const shape = scanCsv(bytes);
  if (!shape.first) throw new ListingFileError("empty_file", "The file has no rows (only empty lines).");
  // The first record alone, parsed as the whole file would parse it.
  const { rows: firstRows } = await readCsv(bytes.subarray(shape.first.start, shape.first.end), 1);
  const layout = detectLayout(firstRows[0]!.cells, format);
  const rows = shape.records - (layout.hasHeader ? 1 : 0);
  if (rows > MAX_FILE_ROWS) throw tooManyRows();
  return { encoding, bytes, layout, rows };
}

/** The file's format, columns and number of rows, without parsing its rows: what POST /v1/imports answers with. */
export async function inspectListingFile(input: Uint8Array, options: { format?: ListingFormatName } = {}): Promise<ListingFileHead> {
  const { encoding, layout, rows } = await prepare(input, options.format);
  return { format: layout.format, encoding, columns: layout.columns, hasHeader: layout.hasHeader, rows };
}

export async function readListingFile(input: Uint8Array, options: { format?: ListingFormatName } = {}): Promise<ListingFile> {
  const { encoding, bytes, layout } = await prepare(input, options.format);
  // One row more than the limit (a header), and one more to know it was passed.
  const { rows, truncated } = await readCsv(bytes, MAX_FILE_ROWS + 2);
  const data = layout.hasHeader ? rows.slice(1) : rows;
  if (truncated || data.length > MAX_FILE_ROWS) throw tooManyRows();
  const index = columnIndex(layout.columns);
  const expectedCellCount = layout.columns.length;
  const records = data.map((row): ListingRecord => ({ line: row.line, cells: row.cells, index, cellCount: row.cells.length, expectedCellCount }));
  return { format: layout.format, encoding, columns: layout.columns, hasHeader: layout.hasHeader, records };
}
