import { ApiError, type ErrorDetail } from "@/lib/core/errors";

// One rule for the text of every request, whatever field carries it: no NUL
// character (PostgreSQL's text cannot hold one: the write failed as a 500)
// and no lone surrogate (half of a UTF-16 pair, which JSON's \uD800 escapes
// can spell: written as UTF-8 it silently became U+FFFD, so what was stored
// was not what was sent). Checked where requests are read, before any
// schema (lib/http/body.ts, the query in lib/http/query.ts, form fields in
// lib/http/form-upload.ts), so no field can be forgotten, now or later.

/** Plain text that can be stored as given: no NUL (PostgreSQL cannot hold it), no unpaired surrogate (not storable as UTF-8). Schemas refine with it too (their words: STORABLE_ISSUE), for the site's forms. */
export const storable = (s: string) => !s.includes("\u0000") && s.isWellFormed();

export const STORABLE_ISSUE = "must not contain NUL or unpaired surrogate characters";

/** What is wrong with a text, or null when it may be kept as it is. */
export function textProblem(text: string): string | null {
  return storable(text) ? null : STORABLE_ISSUE;
}

/** How many refused texts an answer names. */
const NAMED = 5;

/**
 * Every string in a parsed JSON value (object keys included) that breaks the
 * rule, by its path as validation errors name fields ("intake.subtype",
 * "photos.0.alt"); at most a few. The walk is linear in the value's size.
 */
export function textProblems(value: unknown): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const walk = (v: unknown, path: string[]) => {
    if (found.length >= NAMED) return;
    if (typeof v === "string") {
      const issue = textProblem(v);
      if (issue) found.push({ field: path.join("."), issue });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, String(i)]));
    } else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        const issue = textProblem(key);
        // A refused key is named as JSON escapes it (\u0000, \ud800): the field as the client wrote it.
        const name = issue ? JSON.stringify(key).slice(1, -1) : key;
        if (issue && found.length < NAMED) found.push({ field: [...path, name].join("."), issue: `is a field name that ${issue}` });
        walk(item, [...path, name]);
      }
    }
  };
  walk(value, []);
  return found;
}

/** The 400 for refused texts: invalid_body or invalid_query, worded as validation errors are. */
export function textError(code: "invalid_body" | "invalid_query", details: ErrorDetail[]): ApiError {
  const what = code === "invalid_body" ? "The request body is invalid." : "The query parameters are invalid.";
  const first = details[0]!;
  return new ApiError(400, code, `${what} ${first.field ? `${first.field}: ` : ""}${first.issue}`, details);
}
