import { randomBytes } from "node:crypto";
import { runInBackground } from "@/lib/background";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/keys/tokens";

// Browser sessions. The cookie holds a random token; the database holds only
// its SHA-256, so a leaked table cannot be replayed as cookies.

export const ANONYMOUS_TTL_MS = 30 * 24 * 3600_000;
export const STAFF_TTL_MS = 12 * 3600_000;

export interface SessionRecord {
  id: string;
  staff: { id: bigint; email: string } | null;
  expiresAt: Date;
}

export async function createSession(staffUserId: bigint | null, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + (staffUserId ? STAFF_TTL_MS : ANONYMOUS_TTL_MS));
  await db().session.create({ data: { id: hashToken(token), staffUserId, expiresAt }, select: { id: true } });
  // Every hundredth new session clears out expired ones, so the table stays
  // proportional to the live sessions without a scheduler.
  if (Math.random() < 0.01) runInBackground("delete expired sessions", () => deleteExpiredSessions(now));
  return { token, expiresAt };
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function findSession(token: string, now: Date): Promise<SessionRecord | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db().session.findUnique({
    where: { id: hashToken(token) },
    select: { id: true, expiresAt: true, staffUser: { select: { id: true, email: true } } },
  });
  if (!row || row.expiresAt <= now) return null;
  return { id: row.id, staff: row.staffUser, expiresAt: row.expiresAt };
}

export async function deleteSession(token: string): Promise<void> {
  await db().session.deleteMany({ where: { id: hashToken(token) } });
}

/** Expired sessions are deleted in passing so the table does not grow without bound. */
export async function deleteExpiredSessions(now: Date): Promise<number> {
  return (await db().session.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

/** Anonymous adopters' session for a browser without a valid one: the cookie to set. */
export async function ensureBrowserSession(token: string | undefined, now: Date): Promise<{ token: string; expiresAt: Date } | null> {
  if (token && (await findSession(token, now))) return null;
  return createSession(null, now);
}
