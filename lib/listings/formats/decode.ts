import iconv from "iconv-lite";
import { ListingFileError, MAX_FILE_BYTES } from "@/lib/listings/formats/errors";

// Bytes to text. Shelter software writes UTF-8 (with or without a byte order
// mark) or, on Windows, Windows-1252: a file that is not valid UTF-8 is read
// as Windows-1252, so "Zoë" arrives as "Zoë" either way. Files that are not
// text at all are named by what they look like.

export type ListingEncoding = "utf-8" | "utf-8-bom" | "windows-1252";

const SIGNATURES: { bytes: number[]; what: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: "a ZIP archive (an Excel .xlsx workbook is one: save it as CSV)" },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: "an old Excel (.xls) workbook: save it as CSV" },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: "a PDF document" },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], what: "a JPEG image" },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: "a GIF image" },
  { bytes: [0x1f, 0x8b], what: "a gzip archive" },
];

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeListingFile(bytes: Uint8Array): { text: string; encoding: ListingEncoding } {
  if (bytes.length > MAX_FILE_BYTES) {
    throw new ListingFileError(
      "too_large",
      `The file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; at most ${MAX_FILE_BYTES / 1024 / 1024} MB can be imported at once.`,
    );
  }
  if (bytes.length === 0) throw new ListingFileError("empty_file", "The file is empty.");
  const signature = SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[i] === b));
  if (signature) throw new ListingFileError("not_csv", `The file is not a CSV file: it is ${signature.what}.`);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) throw new ListingFileError("not_csv", "The file is UTF-16 text: save it as CSV in UTF-8 (or Windows-1252).");
  if (bytes.includes(0)) throw new ListingFileError("not_csv", "The file is not a CSV file: it holds binary data (NUL bytes), not text.");
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(body), encoding: bom ? "utf-8-bom" : "utf-8" };
  } catch {
    return { text: iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), "windows-1252"), encoding: "windows-1252" };
  }
}
