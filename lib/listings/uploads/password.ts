import { hkdfSync } from "node:crypto";
import { appSecrets } from "@/lib/app-secret";
import { db } from "@/lib/db";
import { logger } from "@/lib/log";
import { decryptSecret as openWebhookSeal, openWithAny, sealWith } from "@/lib/core/secrets";

// Listing sites' FTP passwords at rest. An upload must send the password, so
// it is stored sealed (AES-256-GCM), not hashed, under a key of its own:
// HKDF-SHA256 of the install's secret (SESSION_SECRET, or a local setup's
// own: lib/app-secret.ts) with a label no other seal uses, so a key that
// opens webhook secrets or mail tokens opens no FTP password, and the other
// way round. During a SESSION_SECRET rotation what the previous secret
// sealed still opens (stale); resealListingPasswords, run with the webhook
// secrets' re-sealing when background work starts (resealStaleSecrets,
// lib/webhooks/service.ts), moves them to the current one, so that
// uploads keep working once SESSION_SECRET_PREVIOUS is removed and a leaked
// old secret opens nothing.
//
// Passwords stored before they had a key of their own were sealed as
// webhook secrets are ("v1." + ...): they still open, as stale, and the same
// re-sealing moves them here.

const FORMAT = "ftp1";
const LEGACY_FORMAT = "v1";

const derived = new Map<string, Buffer>();

function keyFrom(appSecret: string): Buffer {
  let key = derived.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret, "petstore", "listing site ftp passwords", 32));
    derived.set(appSecret, key);
  }
  return key;
}

/** The password sealed under the current secret: `ftp1.<iv>.<ciphertext>.<tag>` (base64url). */
export function sealPassword(password: string): string {
  const { iv, ciphertext, tag } = sealWith(keyFrom(appSecrets()[0]!), password);
  return [FORMAT, ...[iv, ciphertext, tag].map((part) => part.toString("base64url"))].join(".");
}

/** The password, and whether it should be sealed again (under the previous secret, or in the old shared format). Throws when nothing opens it. */
export function openPassword(stored: string): { password: string; stale: boolean } {
  const [format, iv, sealed, tag] = stored.split(".");
  if (format === LEGACY_FORMAT) return { password: openWebhookSeal(stored).secret, stale: true };
  if (format !== FORMAT || !iv || !sealed || !tag) throw new Error("listing site password: unknown storage format");
  const opened = openWithAny(appSecrets().map(keyFrom), {
    iv: Buffer.from(iv, "base64url"),
    ciphertext: Buffer.from(sealed, "base64url"),
    tag: Buffer.from(tag, "base64url"),
  });
  if (opened) return { password: opened.plain, stale: opened.index > 0 };
  throw new Error("listing site password: sealed under neither SESSION_SECRET nor SESSION_SECRET_PREVIOUS");
}

/** The password, or null when it cannot be opened any more (SESSION_SECRET replaced without SESSION_SECRET_PREVIOUS). */
export function tryOpenPassword(stored: string): string | null {
  try {
    return openPassword(stored).password;
  } catch {
    return null;
  }
}

/**
 * Seals again, under the current secret and in this file's format, every
 * password that is not (run at start by every instance; cheap when there is
 * nothing to do). Each row is replaced only if it still holds what was read,
 * so a password changed meanwhile is never overwritten with the old one.
 */
export async function resealListingPasswords(): Promise<number> {
  const rows = await db().listingSite.findMany({ select: { id: true, password: true } });
  let resealed = 0;
  for (const row of rows) {
    let opened: ReturnType<typeof openPassword>;
    try {
      opened = openPassword(row.password);
    } catch (error) {
      // Its uploads fail saying so ("enter it again") until staff do; the others go on.
      logger().error({ err: error, siteId: Number(row.id) }, "a listing site password cannot be opened with SESSION_SECRET or SESSION_SECRET_PREVIOUS");
      continue;
    }
    if (!opened.stale) continue;
    const { count } = await db().listingSite.updateMany({ where: { id: row.id, password: row.password }, data: { password: sealPassword(opened.password) } });
    resealed += count;
  }
  return resealed;
}
