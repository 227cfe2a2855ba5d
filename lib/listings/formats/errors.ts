// A listing file that cannot be read at all, with what was seen: the import
// API answers it as 400 invalid_file (413 for the two limits) with this
// message. A problem with one row is never this error: it is that row's
// RowIssue, and the other rows still import.

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_ROWS = 20_000;
/**
 * Values in one row. The widest site file (Petfinder's) has 39; a
 * spreadsheet of a shelter's own rarely passes 100. Far past that, a file
 * is not a listing file, and a header of a million short names (8 MB) must
 * be refused before anything is built per column.
 */
export const MAX_FILE_COLUMNS = 200;
/** One value, in bytes: a description of 5,000 characters with its HTML entities fits many times over. */
export const MAX_CELL_BYTES = 64 * 1024;

export type ListingFileErrorCode =
  "empty_file" | "not_csv" | "too_large" | "too_many_rows" | "too_many_columns" | "cell_too_long" | "unknown_format" | "format_mismatch" | "invalid_mapping";

export class ListingFileError extends Error {
  constructor(
    readonly code: ListingFileErrorCode,
    message: string,
    /** The physical line the problem is on, when there is one. */
    readonly line?: number,
  ) {
    super(message);
    this.name = "ListingFileError";
  }

  /** Over one of the two limits (bytes, rows): 413 rather than 400. */
  get overLimit(): boolean {
    return this.code === "too_large" || this.code === "too_many_rows";
  }
}
