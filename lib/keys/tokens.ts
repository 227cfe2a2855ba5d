import { createHash, randomInt } from "node:crypto";

// Key material. A key is "pk_live_" (or "pk_test_") + 32 base62 characters:
// about 190 bits of randomness, so a fast hash (SHA-256) is enough at rest:
// unlike passwords, nothing here can be guessed from a dictionary.

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PATTERN = /^pk_(live|test)_[0-9A-Za-z]{32}$/;

export function generateKey(mode: "live" | "test"): string {
  let body = "";
  // randomInt is uniform (rejection sampling inside), so no modulo bias.
  for (let i = 0; i < 32; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return `pk_${mode}_${body}`;
}

/**
 * The one hash of a bearer token at rest (API keys, staff sessions, application links): SHA-256.
 * The encoding is the stored column's: keys and sessions were written in hex, application links
 * in base64url, and changing either would orphan every stored row.
 */
export function hashToken(token: string, encoding: "hex" | "base64url" = "hex"): string {
  return createHash("sha256").update(token).digest(encoding);
}
