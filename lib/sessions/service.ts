import { randomBytes } from "node:crypto";
import { runInBackground } from "@/lib/background";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/keys/tokens";
import type { StaffIdentity } from "@/lib/staff/schemas";
import { isAnonymousToken, mintAnonymousToken, verifyAnonymousToken } from "@/lib/sessions/anonymous";

// Browser sessions. Adopters' are stateless signed tokens
// (lib/sessions/anonymous.ts): no row per visit. Staff sessions are rows in
// PostgreSQL, so they can be listed and revoked; the cookie holds a random
// token and the table only its SHA-256, so a leaked table cannot be
// replayed as cookies.

export const STAFF_TTL_MS = 12 * 3600_000;

export type SessionRecord =
  { kind: "anonymous"; id: string; staff: null; expiresAt: Date } | { kind: "staff"; id: string; staff: StaffIdentity; expiresAt: Date };

export async function createStaffSession(staffUserId: bigint, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + STAFF_TTL_MS);
  await db().session.create({ data: { id: hashToken(token), staffUserId, expiresAt }, select: { id: true } });
  // Every tenth sign-in clears out expired sessions, so the table stays
  // proportional to the live ones without a scheduler.
  if (Math.random() < 0.1) runInBackground("delete expired sessions", () => deleteExpiredSessions(now));
  return { token, expiresAt };
}

export const STAFF_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function findSession(token: string, now: Date): Promise<SessionRecord | null> {
  if (isAnonymousToken(token)) {
    const anonymous = verifyAnonymousToken(token, now);
    return anonymous && { kind: "anonymous", id: anonymous.sessionId, staff: null, expiresAt: anonymous.expiresAt };
  }
  if (!STAFF_TOKEN_PATTERN.test(token)) return null;
  const row = await db().session.findUnique({
    where: { id: hashToken(token) },
    select: { id: true, expiresAt: true, staffUser: { select: { id: true, email: true, organizationId: true, platformAdmin: true } } },
  });
  if (!row || row.expiresAt <= now) return null;
  return { kind: "staff", id: row.id, staff: row.staffUser, expiresAt: row.expiresAt };
}

/** Ends a staff session (an anonymous one has nothing to delete: its cookie is simply cleared). */
export async function deleteSession(token: string): Promise<void> {
  if (isAnonymousToken(token) || !STAFF_TOKEN_PATTERN.test(token)) return;
  await db().session.deleteMany({ where: { id: hashToken(token) } });
}

/** Expired sessions are deleted in passing so the table does not grow without bound. */
export async function deleteExpiredSessions(now: Date): Promise<number> {
  return (await db().session.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

/**
 * The cookie a browser without a valid session needs: a fresh anonymous
 * token (nothing is written). A staff cookie is checked against its row; an
 * anonymous one only by its signature.
 */
export async function ensureBrowserSession(token: string | undefined, now: Date): Promise<{ token: string; expiresAt: Date } | null> {
  if (token && (await findSession(token, now))) return null;
  const { token: minted, expiresAt } = mintAnonymousToken(now);
  return { token: minted, expiresAt };
}
