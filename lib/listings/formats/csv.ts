import { parse, CsvError } from "csv-parse";
import { ListingFileError } from "@/lib/listings/formats/errors";

// CSV in and out. Reading streams through csv-parse (quoted commas and line
// breaks kept, any of CRLF, LF or CR between records) and keeps, for every
// record, the physical line it starts on: a description with line breaks
// makes one record span several lines, and errors must name the line a
// person sees in their editor. Writing is the sites' simple dialect, built
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

/**
 * The records of a CSV text, at most `maxRows` of them (the caller turns one
 * more into its own limit error, so a huge file is not parsed to its end).
 * Lines that are empty, or hold only commas, are skipped.
 */
export async function readCsv(text: string, maxRows: number): Promise<{ rows: CsvRow[]; truncated: boolean }> {
  const bytes = Buffer.from(text, "utf8");
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
