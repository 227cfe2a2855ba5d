import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { appSecret, appSecrets } from "@/lib/app-secret";

// Tokens that must reach an email later although only their hash is stored
// (an application's private link, an alert's Manage and unsubscribe links):
// sealed with AES-256-GCM under a key derived from SESSION_SECRET (or a
// local setup's own random secret: lib/app-secret.ts; never an empty one).
// A sealed token in a job payload or a table row is useless without the
// secret. The key's label stays "application-mail" so that tokens sealed
// before alerts existed still open.

const keyOf = (secret: string) => createHash("sha256").update(`application-mail:${secret}`).digest();

export function sealToken(token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(appSecret()), iv);
  const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The token a job carries; one sealed before a SESSION_SECRET rotation opens with SESSION_SECRET_PREVIOUS. */
export function openToken(sealed: string): string {
  const bytes = Buffer.from(sealed, "base64url");
  let failure: unknown;
  for (const secret of appSecrets()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
