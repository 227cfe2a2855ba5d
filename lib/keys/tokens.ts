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

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
