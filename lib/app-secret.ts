import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

// The secret this install derives keys from for what it seals and hashes at
// rest (the private links in queued emails, the sign-in throttle's keyed
// hashes of emails): SESSION_SECRET, which production requires (lib/env.ts
// refuses to start without it). A local setup without it (npm run serve,
// the CLI, a script run by hand) gets the one the launcher keeps for it in
// .data/session-secret: random, made on first use, this install's own, so
// that it never falls back to a key anyone who reads this code could derive.

/** Where a local setup's secret is kept, from the project's folder (the launcher's working directory). */
export const LOCAL_SECRET_FILE = path.join(".data", "session-secret");

const made = new Map<string, string>();

/**
 * The secret kept in `file`, made (48 random bytes, base64url, readable by
 * its owner only) if there is none. Processes starting together agree: it
 * is written aside and linked into place, so exactly one write wins and no
 * reader sees it half written.
 */
export function localSecret(file: string): string {
  const known = made.get(file);
  if (known) return known;
  const read = () => {
    try {
      return fs.readFileSync(file, "utf8").trim() || null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  };
  let secret = read();
  if (!secret) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const aside = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
    fs.writeFileSync(aside, randomBytes(48).toString("base64url"), { mode: 0o600 });
    try {
      fs.linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.unlinkSync(aside);
    }
    secret = read();
    if (!secret) throw new Error(`could not keep a secret in ${file}`);
  }
  made.set(file, secret);
  return secret;
}

/** The install's secret: SESSION_SECRET, else (never in production) the local setup's own. */
export function appSecret(): string {
  const { SESSION_SECRET, NODE_ENV } = env();
  if (SESSION_SECRET) return SESSION_SECRET;
  // Unreachable through env(), which refuses production without it; said again here so no path derives a key from nothing.
  if (NODE_ENV === "production") throw new Error("SESSION_SECRET is required in production");
  return localSecret(path.resolve(LOCAL_SECRET_FILE));
}

/** The current secret, then SESSION_SECRET_PREVIOUS during a rotation: what the previous one sealed still opens. */
export function appSecrets(): string[] {
  const previous = env().SESSION_SECRET_PREVIOUS;
  return previous ? [appSecret(), previous] : [appSecret()];
}
