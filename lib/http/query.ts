import { ApiError, type ErrorDetail } from "@/lib/core/errors";
import { textError, textProblem } from "@/lib/core/text";

// A request's query string as the object its schema parses: each parameter
// once, and its text held to the rule of every request's text
// (lib/core/text.ts).

const FATAL_UTF8 = new TextDecoder("utf-8", { fatal: true });
const PERCENT = /%[0-9a-fA-F]{2}/;

/**
 * Whether a raw (still percent-encoded) name or value spells UTF-8 text. The
 * URL parser turns bytes that are not (%ED%A0%80, a surrogate's encoding;
 * %FF) into U+FFFD without a word: what the handler would get is not what was
 * sent. A `%` not followed by two hex digits is a plain character.
 */
function isUtf8(raw: string): boolean {
  if (!PERCENT.test(raw)) return true;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length;) {
    if (raw[i] === "%" && /^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      // The URL parser leaves only ASCII unescaped in a query.
      bytes.push(raw.charCodeAt(i) & 0x7f);
      i += 1;
    }
  }
  try {
    FATAL_UTF8.decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
}

export function readQuery(url: URL): Record<string, string> {
  // No prototype: "constructor", "__proto__" and "toString" are plain keys
  // here (a `key in {}` check would call ?constructor=1 "given twice").
  const out = Object.create(null) as Record<string, string>;
  const repeated: string[] = [];
  for (const [key, value] of url.searchParams) {
    if (Object.hasOwn(out, key)) repeated.push(key);
    out[key] = value;
  }
  if (repeated.length) {
    throw new ApiError(
      400,
      "invalid_query",
      `Query parameter "${repeated[0]}" is given more than once.`,
      [...new Set(repeated)].map((field) => ({ field, issue: "must be given at most once" })),
    );
  }
  const problems: ErrorDetail[] = [];
  for (const pair of url.search.slice(1).split("&")) {
    if (!pair || problems.length >= 5) continue;
    const at = pair.indexOf("=");
    const [rawKey, rawValue] = at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    const field = new URLSearchParams(`${rawKey}=`).keys().next().value ?? rawKey;
    const issue =
      !isUtf8(rawKey) || !isUtf8(rawValue) ? "must be UTF-8 text: its percent-encoded bytes are not" : (textProblem(field) ?? textProblem(out[field] ?? ""));
    if (issue) problems.push({ field: JSON.stringify(field).slice(1, -1), issue });
  }
  if (problems.length) throw textError("invalid_query", problems);
  return out;
}
