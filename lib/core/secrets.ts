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

/** What AES-256-GCM leaves: the 12-byte nonce, the ciphertext and the 16-byte tag. Each seal's format lays these out its own way. */
export interface Sealed {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/**
 * The one sealing of secrets at rest (webhook signing secrets here, listing sites' FTP passwords,
 * the tokens mails carry): AES-256-GCM under a 32-byte key, a fresh random nonce each time.
 * Callers derive their own key (each seal has a label no other uses) and write their own format.
 */
export function sealWith(key: Buffer, plain: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

/**
 * The plain text and the index of the first key that opens it (keys in the app secrets' order, so
 * index 0 is the current SESSION_SECRET and more means sealed before a rotation); null when none does.
 */
export function openWithAny(keys: readonly Buffer[], { iv, ciphertext, tag }: Sealed): { plain: string; index: number } | null {
  for (const [index, key] of keys.entries()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return { plain: Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"), index };
    } catch {
      // Sealed under another key (or tampered with): try the next.
    }
  }
  return null;
}

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
  const { iv, ciphertext, tag } = sealWith(keyFrom(appSecrets()[0]!), secret);
  return [FORMAT, ...[iv, ciphertext, tag].map((part) => part.toString("base64url"))].join(".");
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
  const opened = openWithAny(secrets.map(keyFrom), {
    iv: Buffer.from(iv, "base64url"),
    ciphertext: Buffer.from(sealed, "base64url"),
    tag: Buffer.from(tag, "base64url"),
  });
  if (opened) return { secret: opened.plain, stale: opened.index > 0, appSecret: secrets[opened.index]! };
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
