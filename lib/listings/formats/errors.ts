// A listing file that cannot be read at all, with what was seen: the import
// API answers it as 400 invalid_file (413 for the two limits) with this
// message. A problem with one row is never this error: it is that row's
// RowIssue, and the other rows still import.

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_ROWS = 20_000;

export type ListingFileErrorCode =
  | "empty_file"
  | "not_csv"
  | "too_large"
  | "too_many_rows"
  | "unknown_format"
  | "format_mismatch"
  | "invalid_mapping";

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
