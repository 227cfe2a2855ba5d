import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { appSecrets } from "@/lib/app-secret";
import { setBounded } from "@/lib/bounded-map";

// Webhook signing secrets. Unlike API keys (stored as hashes), a signing
// secret must be read back to sign every delivery, so it is stored encrypted:
// AES-256-GCM under a key derived (HKDF-SHA256) from the install's secret
// (SESSION_SECRET, which every instance already shares, or a local setup's
// own: lib/app-secret.ts, as for every other seal). A copy of the database alone does not
// reveal them. During a SESSION_SECRET rotation, secrets encrypted under
// SESSION_SECRET_PREVIOUS still open, and the runner re-encrypts them under
// the new one at start (docs/decisions/006-webhook-delivery.md).

const PREFIX = "whsec_";
const FORMAT = "v1";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export function generateSecret(): string {
  return `${PREFIX}${randomBytes(32).toString("base64")}`;
}

const derived = new Map<string, Buffer>();

/** The encryption key for an app secret (derived once per process: every delivery opens a secret). */
function keyFrom(appSecret: string): Buffer {
  let key = derived.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret, "petstore", "webhook signing secrets", 32));
    derived.set(appSecret, key);
  }
  return key;
}

export function encryptSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(appSecrets()[0]!), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [FORMAT, iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/**
 * Opened secrets, by their sealed form (which a rotation or re-sealing
 * replaces): every delivery signs with its endpoint's secret, and opening it
 * each time cost more than the signature. Kept only in this process's memory,
 * where each delivery has it in the clear anyway.
 */
const opened = new Map<string, { secret: string; stale: boolean; appSecret: string }>();
const OPENED_MAX = 1_000;

/** The secret, and whether it was sealed under the previous app secret (then it should be sealed again). */
export function decryptSecret(stored: string): { secret: string; stale: boolean } {
  const hit = opened.get(stored);
  const ours = appSecrets();
  // Valid only while the app secret that opened it is still one of ours (a
  // SESSION_SECRET_PREVIOUS dropped after rotation closes what it sealed).
  if (hit && ours.includes(hit.appSecret)) return { secret: hit.secret, stale: hit.appSecret !== ours[0] };
  const result = open(stored);
  setBounded(opened, stored, result, OPENED_MAX);
  return { secret: result.secret, stale: result.stale };
}

function open(stored: string): { secret: string; stale: boolean; appSecret: string } {
  const [format, iv, sealed, tag] = stored.split(".");
  if (format !== FORMAT || !iv || !sealed || !tag) throw new Error("webhook secret: unknown storage format");
  const secrets = appSecrets();
  for (const [index, appSecret] of secrets.entries()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyFrom(appSecret), Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      const secret = Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
      return { secret, stale: index > 0, appSecret };
    } catch {
      // Sealed under another app secret: try the next.
    }
  }
  throw new Error("webhook secret: sealed under neither SESSION_SECRET nor SESSION_SECRET_PREVIOUS");
}

/** The secret, or null when neither app secret opens it (SESSION_SECRET replaced without SESSION_SECRET_PREVIOUS). */
export function tryDecryptSecret(stored: string): string | null {
  try {
    return decryptSecret(stored).secret;
  } catch {
    return null;
  }
}
