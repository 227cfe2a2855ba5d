import type { AgeGroup } from "@/lib/pets/age";
import type { PetSex, PetSize } from "@/lib/pets/profile";

// The values a cell holds, read loosely (any of the spellings shelter
// software writes) and written exactly as each site asks. `undefined` from a
// reader means "not a value of this kind": the caller reports it.

const TRUE = new Set(["1", "y", "yes", "true", "t"]);
const FALSE = new Set(["0", "n", "no", "false", "f"]);

export function readBoolean(cell: string): boolean | null | undefined {
  const v = cell.trim().toLowerCase();
  if (v === "") return null;
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

/** "1"/"0"/"" (Adopt-a-Pet). */
export const oneZero = (value: boolean | null): string => (value === null ? "" : value ? "1" : "0");
/** "1" for yes, nothing otherwise (Petfinder: no can only be said by saying nothing). */
export const oneOrEmpty = (value: boolean | null): string => (value ? "1" : "");
/** "Yes"/"No"/"" (RescueGroups). */
export const yesNo = (value: boolean | null): string => (value === null ? "" : value ? "Yes" : "No");

export function readSex(cell: string): PetSex | undefined {
  const v = cell.trim().toLowerCase();
  if (v === "" || v === "u" || v === "unknown") return "unknown";
  if (v === "f" || v === "female") return "female";
  if (v === "m" || v === "male") return "male";
  return undefined;
}

const SIZES: Record<string, PetSize> = {
  s: "small",
  small: "small",
  m: "medium",
  med: "medium",
  medium: "medium",
  l: "large",
  large: "large",
  xl: "xlarge",
  xlarge: "xlarge",
  extralarge: "xlarge",
};

export function readSize(cell: string): PetSize | null | undefined {
  const v = cell
    .trim()
    .toLowerCase()
    .replace(/[^a-z]/g, "");
  return v === "" ? null : SIZES[v];
}

export const SIZE_CODES: Record<PetSize, string> = { small: "S", medium: "M", large: "L", xlarge: "XL" };

const AGES: Record<string, AgeGroup> = { baby: "baby", young: "young", adult: "adult", senior: "senior" };

export function readAgeGroup(cell: string): AgeGroup | null | undefined {
  const v = cell.trim().toLowerCase();
  return v === "" ? null : AGES[v];
}

export const AGE_WORDS: Record<AgeGroup, string> = { baby: "Baby", young: "Young", adult: "Adult", senior: "Senior" };

function isoIfReal(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/** YYYY-MM-DD (or with slashes, or with a time after it), or M/D/YYYY as US software writes it. */
export function readDate(cell: string): string | null | undefined {
  const v = cell.trim();
  if (v === "") return null;
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T].*)?$/.exec(v);
  if (m) return isoIfReal(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/.exec(v);
  if (m) return isoIfReal(Number(m[3]), Number(m[1]), Number(m[2]));
  return undefined;
}

/** An amount of money ("$1,250.00", "150", "USD 80"), in cents. */
export function readMoney(cell: string): number | null | undefined {
  const v = cell
    .trim()
    .replace(/^(?:US\$|USD|\$|£|€|CA\$|CAD)\s*/i, "")
    .replace(/\s*(?:USD|CAD|EUR|GBP)$/i, "")
    .replaceAll(",", "");
  if (v === "") return null;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(v);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

export function decimalMoney(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  bull: "•",
  copy: "©",
  reg: "®",
  eacute: "é",
  egrave: "è",
  aacute: "á",
  agrave: "à",
  ntilde: "ñ",
  ouml: "ö",
  uuml: "ü",
  auml: "ä",
  ccedil: "ç",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Text as the sites carry it (line breaks as <br> or &#10;, HTML entities) back to plain text with "\n". */
export function htmlToText(cell: string): string {
  return decodeEntities(cell.replace(/<br\s*\/?>/gi, "\n"))
    .replace(/\r\n?/g, "\n")
    .trim();
}

/** Plain text for a site: &, < and > as entities (the sites show descriptions as HTML), line breaks as `lineBreak`. */
export function textToHtml(text: string, lineBreak: "<br>" | "&#10;"): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/\r\n|\r|\n/g, lineBreak);
}

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/[^\s/]+/i.test(text.trim());
}

/** A YouTube or Vimeo address (what a Pet's videoUrl may be). */
export function isVideoUrl(text: string): boolean {
  return /^https?:\/\/(?:[a-z0-9-]+\.)?(?:youtube\.com|youtube-nocookie\.com|youtu\.be|vimeo\.com)\//i.test(text.trim());
}

/** A YouTube address as Adopt-a-Pet takes it (https://www.youtube.com/watch?v=ID), or null for anything else. */
export function youtubeWatchUrl(url: string): string | null {
  const m =
    /^https?:\/\/(?:www\.|m\.)?youtube(?:-nocookie)?\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/|v\/)([A-Za-z0-9_-]{6,})/i.exec(url.trim()) ??
    /^https?:\/\/youtu\.be\/([A-Za-z0-9_-]{6,})/i.exec(url.trim());
  return m ? `https://www.youtube.com/watch?v=${m[1]}` : null;
}

/** A name a file on an FTP server can have: the row's ID when it is plain, else our own id. */
export function fileStem(rowId: string, animalId: number): string {
  return /^[A-Za-z0-9._-]{1,64}$/.test(rowId) && !rowId.startsWith(".") ? rowId : String(animalId);
}

/** A list in one cell: separated by ";" (how we write lists), else by ",". */
export function splitList(cell: string): string[] {
  const v = cell.trim();
  if (v === "") return [];
  return v
    .split(v.includes(";") ? ";" : ",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Newlines in a cell that must stay on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*(?:\r\n|\r|\n)\s*/g, " ");
}

/** How much of a value a message quotes. */
export const EXCERPT_CHARS = 40;
/** Characters that would move, hide or restyle what follows them where a message is shown: control characters and bidirectional overrides. */
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * A value as every message of the readers quotes it: in double quotes, at
 * most its first 40 characters (then "…"), line breaks and tabs as spaces
 * and other control characters as U+FFFD. A file may hold a 64 KB value of
 * anything; a report quotes a recognisable piece of it, never the whole.
 */
export function quoteCell(cell: string, max = EXCERPT_CHARS): string {
  // A code point is at most two UTF-16 units: this much holds the first `max` and tells whether there are more.
  const chars = [...cell.slice(0, 2 * max + 2)];
  const shown = chars
    .slice(0, max)
    .map((c) => (c === "\n" || c === "\r" || c === "\t" ? " " : UNSHOWABLE.test(c) ? "\uFFFD" : c))
    .join("");
  return `"${shown}${chars.length > max ? "…" : ""}"`;
}

/** Text cut to at most `max` characters (then "…"): a bound on what a report keeps of a value or a message. */
export function clipText(text: string, max: number): string {
  const chars = [...text.slice(0, 2 * max + 2)];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}
