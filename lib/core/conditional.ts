import { createHash } from "node:crypto";
import { ApiError } from "@/lib/core/errors";

// If-Match (RFC 9110, section 13.1.1) for animals, whose ETag is the strong
// tag "<version>". The comparison is strong: a weak tag (W/"3") or any other
// opaque tag never matches, so it always ends in 412.

const ENTITY_TAG = /^\s*(W\/)?"([\x21\x23-\x7E\x80-\xFF]*)"\s*(?:,|$)/;
const VERSION = /^[1-9][0-9]{0,9}$/;

/**
 * The versions an If-Match header accepts: undefined when there is no
 * condition (no header, or `*`, which only asks that the animal exists).
 * A header that is not a list of entity tags is refused with 400.
 */
export function ifMatchVersions(request: Request): number[] | undefined {
  const header = request.headers.get("if-match");
  if (header === null || header.trim() === "*") return undefined;
  const versions: number[] = [];
  let rest = header;
  let tags = 0;
  while (rest.trim() !== "") {
    const match = ENTITY_TAG.exec(rest);
    if (!match) {
      throw new ApiError(400, "invalid_header", 'If-Match must be `*` or a list of entity tags such as `"3"`, as sent in the ETag header.', [
        { field: "If-Match", issue: 'must be * or entity tags such as "3"' },
      ]);
    }
    tags++;
    const [whole, weak, opaque] = match;
    if (!weak && VERSION.test(opaque!)) versions.push(Number(opaque));
    rest = rest.slice(whole.length);
  }
  if (tags === 0) throw new ApiError(400, "invalid_header", "If-Match is empty.", [{ field: "If-Match", issue: "must not be empty" }]);
  return versions;
}

/**
 * A weak entity tag for an answer made of these parts (a page of the list:
 * its animals' ids and versions, the day, the links): equal parts, equal
 * tag. Weak because it names the content, not the bytes.
 */
export function weakTag(parts: readonly (string | number)[]): string {
  return `W/"${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 27)}"`;
}

/**
 * Whether If-None-Match (RFC 9110, section 13.1.2) matches `etag`, compared
 * weakly (W/ ignored on both sides): then a GET answers 304 without a body.
 * `*` matches anything that exists; a malformed header matches nothing, so
 * the full answer is sent, as a cache would do.
 */
export function ifNoneMatchMatches(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (header === null) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.replace(/^W\//, "");
  const ours = opaque(etag);
  let rest = header;
  while (rest.trim() !== "") {
    const match = ENTITY_TAG.exec(rest);
    if (!match) return false;
    if (`"${match[2]}"` === ours) return true;
    rest = rest.slice(match[0].length);
  }
  return false;
}

/** The strong ETag of a stored version: `"3"` (animals and people). */
export function versionEtag(version: number): string {
  return `"${version}"`;
}

/**
 * 412 for a change whose If-Match named another version: says the current
 * one and carries its ETag, so a client can read again and resend. `words`
 * are the subject's ("The animal has changed since you read it: it is",
 * "Read it again").
 */
export function staleVersion(current: number, words: { changed: string; readAgain: string }): ApiError {
  const tag = versionEtag(current);
  return new ApiError(
    412,
    "precondition_failed",
    `${words.changed} now at version ${current} (ETag ${tag}). ${words.readAgain}, then send your change with If-Match: ${tag}.`,
    undefined,
    { ETag: tag },
  );
}
