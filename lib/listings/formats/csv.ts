import { parse, CsvError } from "csv-parse";
import { ListingFileError, MAX_CELL_BYTES, MAX_FILE_COLUMNS } from "@/lib/listings/formats/errors";

// CSV in and out. Reading streams through csv-parse (quoted commas and line
// breaks kept, any of CRLF, LF or CR between records) and keeps, for every
// record, the physical line it starts on: a description with line breaks
// makes one record span several lines, and errors must name the line a
// person sees in their editor. Before csv-parse sees a file, one pass over
// its bytes (scanCsv) checks its shape: csv-parse builds each record whole
// before anyone can look at it, so a row of a million commas would be a
// million-cell array first. Writing is the sites' simple dialect, built
// here so every byte is ours to decide.

export interface CsvRow {
  line: number;
  cells: string[];
}

/** How many line breaks (CRLF counting once) bytes[from, to) holds. */
function breaks(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if (b === 0x0a) n++;
    else if (b === 0x0d) {
      n++;
      if (bytes[i + 1] === 0x0a && i + 1 < to) i++;
    }
  }
  return n;
}

/** Where the first byte after the line breaks at `from` is: a record starts there. */
function leadingBreaks(bytes: Uint8Array, from: number, to: number): number {
  let i = from;
  while (i < to && (bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
/** Bytes that leave a value blank (String.prototype.trim's ASCII ones): a record of only these is skipped. */
const blank = (b: number) => b === 0x20 || b === 0x09 || b === 0x0b || b === 0x0c || b === LF || b === CR;

/** What scanCsv finds: how many records readCsv will give, and where the first one is. */
export interface CsvShape {
  /** Records that are not blank: readCsv's rows, one for one. */
  records: number;
  /** The first such record's bytes [start, end), its line break excluded; null when there is none. */
  first: { start: number; end: number } | null;
}

export interface CsvLimits {
  maxCells: number;
  maxCellBytes: number;
}

/**
 * One pass over a CSV's bytes with csv-parse's own reading of quotes (as
 * readCsv sets it up: a quote opens a value only at its start, `""` inside
 * one is a quote, a closing quote followed by anything else ends the quoting
 * and keeps the quote): counts the records readCsv will give and refuses,
 * with the line the record starts on, a record of more than `maxCells`
 * values, a value longer than `maxCellBytes`, or a quoted value never
 * closed. Nothing is built: memory stays flat whatever the file holds.
 */
export function scanCsv(bytes: Uint8Array, limits: CsvLimits = { maxCells: MAX_FILE_COLUMNS, maxCellBytes: MAX_CELL_BYTES }): CsvShape {
  const n = bytes.length;
  let line = 1;
  let recordLine = 1;
  let recordStart = 0;
  let cells = 1;
  let cellBytes = 0;
  let atValueStart = true;
  let quoted = false;
  let content = false;
  let records = 0;
  let first: CsvShape["first"] = null;
  const tooLong = () =>
    new ListingFileError(
      "cell_too_long",
      `Value ${cells} of the record starting on line ${recordLine} is longer than ${limits.maxCellBytes / 1024} KB, the most one value may hold (a quote left open makes the rest of the file one value).`,
      recordLine,
    );
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (quoted) {
      if (b === QUOTE) {
        if (bytes[i + 1] === QUOTE) {
          i++;
          content = true;
          cellBytes++;
        } else {
          quoted = false;
          const next = bytes[i + 1];
          // csv-parse keeps the quote when something other than a separator follows it.
          if (next !== undefined && next !== COMMA && next !== LF && next !== CR) content = true;
        }
      } else {
        if (b === LF || b === CR) {
          line++;
          if (b === CR && bytes[i + 1] === LF) {
            i++;
            cellBytes++;
          }
        }
        if (!blank(b)) content = true;
        cellBytes++;
      }
      if (cellBytes > limits.maxCellBytes) throw tooLong();
      continue;
    }
    if (b === QUOTE && atValueStart) {
      quoted = true;
      atValueStart = false;
    } else if (b === COMMA) {
      if (++cells > limits.maxCells) {
        throw new ListingFileError(
          "too_many_columns",
          `The record starting on line ${recordLine} has more than ${limits.maxCells} values; a listing file has at most ${limits.maxCells} columns (Petfinder's, the widest of the sites', has 39).`,
          recordLine,
        );
      }
      cellBytes = 0;
      atValueStart = true;
    } else if (b === LF || b === CR) {
      if (content) {
        records++;
        first ??= { start: recordStart, end: i };
      }
      if (b === CR && bytes[i + 1] === LF) i++;
      line++;
      recordLine = line;
      recordStart = i + 1;
      cells = 1;
      cellBytes = 0;
      atValueStart = true;
      content = false;
    } else {
      atValueStart = false;
      if (!blank(b)) content = true;
      if (++cellBytes > limits.maxCellBytes) throw tooLong();
    }
  }
  if (quoted)
    throw new ListingFileError("not_csv", `The file is not valid CSV: the record starting on line ${recordLine}: a quoted value is never closed.`, recordLine);
  if (content) {
    records++;
    first ??= { start: recordStart, end: n };
  }
  return { records, first };
}

/**
 * The records of a CSV's bytes (UTF-8), at most `maxRows` of them (the
 * caller turns one more into its own limit error, so a huge file is not
 * parsed to its end). Lines that are empty, or hold only commas, are
 * skipped. Run scanCsv first: this builds every record whole.
 */
export async function readCsv(bytes: Buffer, maxRows: number): Promise<{ rows: CsvRow[]; truncated: boolean }> {
  const rows: CsvRow[] = [];
  let truncated = false;
  let offset = 0;
  let line = 1;
  // Records are taken as the parser makes them (on_record), not from the
  // stream's buffer, so a parse error still knows where the last good record
  // ended.
  const parser = parse({
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    on_record: (record: string[], context) => {
      // context.bytes: where the record ends, its delimiter included.
      const start = leadingBreaks(bytes, offset, context.bytes);
      const startLine = line + breaks(bytes, offset, start);
      line = startLine + breaks(bytes, start, context.bytes);
      offset = context.bytes;
      if (record.every((cell) => cell.trim() === "")) return null;
      if (rows.length === maxRows) truncated = true;
      else rows.push({ line: startLine, cells: record });
      return null;
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      parser.on("error", reject);
      parser.on("end", resolve);
      parser.resume();
      parser.end(bytes);
    });
  } catch (err) {
    if (err instanceof CsvError) {
      // The record that failed starts after the last good one.
      const at = line + breaks(bytes, offset, leadingBreaks(bytes, offset, bytes.length));
      const what = err.code === "CSV_QUOTE_NOT_CLOSED" ? "a quoted value is never closed" : err.message.replace(/\s+at line \d+.*$/s, "").toLowerCase();
      throw new ListingFileError("not_csv", `The file is not valid CSV: the record starting on line ${at}: ${what}.`, at);
    }
    throw err;
  }
  return { rows, truncated };
}

/** Every cell in double quotes, quotes doubled: how ASM3 writes the sites' files (and what they take). */
export function quotedLine(cells: readonly string[]): string {
  return cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(",");
}

/** RFC 4180: quoted only when a cell needs it. */
export function rfc4180Line(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(",");
}
