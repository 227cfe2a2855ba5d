import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";

// Anonymous adopter sessions are stateless: the cookie is a token signed
// with SESSION_SECRET (HMAC-SHA256) naming a random session id and its
// expiry. Minting one writes nothing anywhere, so a bot that drops its
// cookie on every request grows no table; what it can still gain, a fresh
// per-session budget, is capped by the per-address ceiling it shares
// (lib/http/auth.ts). Staff sessions stay in PostgreSQL, revocable.
//
// Format: "a1.<session id>.<expiry, unix seconds base 36>.<signature>".
// Rotation: a token signed with SESSION_SECRET_PREVIOUS still verifies.

export const ANONYMOUS_TTL_MS = 30 * 24 * 3600_000;
const VERSION = "a1";
const TOKEN = /^a1\.([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

function secrets(): string[] {
  const { SESSION_SECRET, SESSION_SECRET_PREVIOUS } = env();
  return [SESSION_SECRET, SESSION_SECRET_PREVIOUS].filter((s): s is string => Boolean(s));
}

function sign(payload: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(payload).digest();
}

export function isAnonymousToken(token: string): boolean {
  return token.startsWith(`${VERSION}.`);
}

export function mintAnonymousToken(now: Date): { token: string; sessionId: string; expiresAt: Date } {
  const [secret] = secrets();
  if (!secret) throw new Error("SESSION_SECRET is not set");
  const sessionId = randomBytes(16).toString("base64url");
  const expiresAt = new Date(Math.floor((now.getTime() + ANONYMOUS_TTL_MS) / 1000) * 1000);
  const payload = `${VERSION}.${sessionId}.${(expiresAt.getTime() / 1000).toString(36)}`;
  return { token: `${payload}.${sign(payload, secret).toString("base64url")}`, sessionId, expiresAt };
}

/** The session id of a valid, unexpired anonymous token; null for anything else. */
export function verifyAnonymousToken(token: string, now: Date): { sessionId: string; expiresAt: Date } | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, sessionId, expiry, signature] = match;
  // Compared as the canonical text, not as decoded bytes: the last base64url
  // character carries two unused bits, so several strings decode to the same
  // signature, and a token must have exactly one spelling.
  const given = Buffer.from(signature!);
  const payload = `${VERSION}.${sessionId}.${expiry}`;
  const valid = secrets().some((secret) => {
    const expected = Buffer.from(sign(payload, secret).toString("base64url"));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid) return null;
  const expiresAt = new Date(parseInt(expiry!, 36) * 1000);
  return expiresAt > now ? { sessionId: sessionId!, expiresAt } : null;
}
