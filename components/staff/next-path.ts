/**
 * Where to go after signing in: a path on this site only. "//evil.example"
 * and "/\evil.example" are protocol-relative URLs to browsers, so anything
 * but a plain absolute path falls back to the default.
 */
export const DEFAULT_AFTER_SIGN_IN = "/staff";

export function safeNextPath(next: string | string[] | undefined): string {
  if (typeof next !== "string") return DEFAULT_AFTER_SIGN_IN;
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return DEFAULT_AFTER_SIGN_IN;
  // Control characters (tabs, newlines) are stripped by URL parsers, which
  // could turn "/\t/evil" into "//evil".
  if ([...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return DEFAULT_AFTER_SIGN_IN;
  return next;
}
