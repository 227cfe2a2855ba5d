import { createHash } from "node:crypto";
import { appSecret, appSecrets } from "@/lib/app-secret";
import { openWithAny, sealWith } from "@/lib/core/secrets";

// Tokens that must reach an email later although only their hash is stored
// (an application's private link, an alert's Manage and unsubscribe links):
// sealed with AES-256-GCM under a key derived from SESSION_SECRET (or a
// local setup's own random secret: lib/app-secret.ts; never an empty one).
// A sealed token in a job payload or a table row is useless without the
// secret. The key's label stays "application-mail" so that tokens sealed
// before alerts existed still open.

const keyOf = (secret: string) => createHash("sha256").update(`application-mail:${secret}`).digest();

export function sealToken(token: string): string {
  const { iv, ciphertext, tag } = sealWith(keyOf(appSecret()), token);
  return Buffer.concat([iv, tag, ciphertext]).toString("base64url");
}

/** The token a job carries; one sealed before a SESSION_SECRET rotation opens with SESSION_SECRET_PREVIOUS. */
export function openToken(sealed: string): string {
  const bytes = Buffer.from(sealed, "base64url");
  const opened = openWithAny(appSecrets().map(keyOf), { iv: bytes.subarray(0, 12), tag: bytes.subarray(12, 28), ciphertext: bytes.subarray(28) });
  if (!opened) throw new Error("sealed token: sealed under neither SESSION_SECRET nor SESSION_SECRET_PREVIOUS");
  return opened.plain;
}
