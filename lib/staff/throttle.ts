import { createHmac } from "node:crypto";
import { appSecret } from "@/lib/app-secret";
import { runInBackground } from "@/lib/background";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { addressRateKey } from "@/lib/core/client";
import { ApiError } from "@/lib/core/errors";

// Staff sign-in is throttled per account and client address, and per
// client address, with growing lock-outs: guessing costs the guesser, not
// us. An attempt is counted before the password is checked, so a burst of
// parallel guesses cannot all slip in before the first failure is
// recorded, and a caller who is locked out costs no scrypt run at all.
// Nothing here tells whether an email exists: the account key is derived
// from the email as typed, and the refusal is the same either way.
//
// Nor does the table hold emails: an account is kept as a keyed hash of the
// email typed (HMAC-SHA256 under a key derived from SESSION_SECRET,
// lib/app-secret.ts), so a copy of the table (a backup, a dump) names no
// account, and a list of likely emails does not reverse it as it would a
// plain hash. Staff still see whose lock-outs they are: listing hashes each
// staff account's email the same way and names the ones that match; the
// others are guesses of emails that are no staff account.

export interface ThrottleRule {
  maxFailures: number;
  windowSeconds: number;
  /** The first lock-out's length; each further one within a day doubles it, up to a day. */
  lockSeconds: number;
}

/** 5 failures in 15 minutes lock that account from that address for 15 minutes (then 30, 60...). */
export const ACCOUNT_RULE: ThrottleRule = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 };
/** 100 failures in an hour lock the address for an hour (then 2, 4...). */
export const ADDRESS_RULE: ThrottleRule = { maxFailures: 100, windowSeconds: 3600, lockSeconds: 3600 };
const MAX_LOCK_SECONDS = 24 * 3600;

interface Scope {
  key: string;
  /** The account's keyed hash (accountHash); null for the address as a whole. */
  account: string | null;
  address: string;
  rule: ThrottleRule;
}

const throttleKey = (secret: string) => createHmac("sha256", secret).update("sign-in-throttle").digest();

/** The keyed hash an account is kept as: 32 hex characters, from the email as typed (the schema lower-cases it). */
export const accountHash = (email: string) => createHmac("sha256", throttleKey(appSecret())).update(email).digest("hex").slice(0, 32);

function scopesFor(email: string, address: string): [Scope, Scope] {
  const where = addressRateKey(address);
  const account = accountHash(email);
  return [
    { key: `account:${account}@${where}`, account, address: where, rule: ACCOUNT_RULE },
    { key: `address:${where}`, account: null, address: where, rule: ADDRESS_RULE },
  ];
}

interface Row {
  key: string;
  attempts: number;
  locked_until: Date | null;
}

/** Counts one attempt on each scope (not while it is locked), in one statement; returns the rows. */
async function reserve(scopes: Scope[], now: Date): Promise<Map<string, Row>> {
  const values = Prisma.join(scopes.map((s) => Prisma.sql`(${s.key}, ${s.account}, ${s.address}, 1, ${now}, ${s.rule.windowSeconds})`));
  const rows = await db().$queryRaw<Row[]>`
    INSERT INTO sign_in_throttles AS t (key, account, address, attempts, window_start, window_seconds)
    VALUES ${values}
    ON CONFLICT (key) DO UPDATE SET
      attempts = CASE WHEN t.locked_until > ${now} THEN t.attempts
                      WHEN t.window_start + make_interval(secs => t.window_seconds) <= ${now} THEN 1
                      ELSE t.attempts + 1 END,
      window_start = CASE WHEN t.locked_until > ${now} THEN t.window_start
                          WHEN t.window_start + make_interval(secs => t.window_seconds) <= ${now} THEN ${now}
                          ELSE t.window_start END
    RETURNING key, attempts, locked_until`;
  return new Map(rows.map((r) => [r.key, r]));
}

/** Locks a scope (unless a lock is already in force), doubling with each lock-out of the last day. Returns the lock's end. */
async function lock(scope: Scope, now: Date): Promise<Date> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const rows = await db().$queryRaw<{ locked_until: Date }[]>`
    UPDATE sign_in_throttles SET
      locked_until = ${now}::timestamptz + make_interval(secs => LEAST(
        ${scope.rule.lockSeconds}::float8 * power(2, CASE WHEN last_locked_at > ${dayAgo} THEN LEAST(lockouts, 10) ELSE 0 END),
        ${MAX_LOCK_SECONDS}::float8)),
      lockouts = CASE WHEN last_locked_at > ${dayAgo} THEN lockouts + 1 ELSE 1 END,
      last_locked_at = ${now},
      attempts = 0,
      window_start = ${now}
    WHERE key = ${scope.key} AND (locked_until IS NULL OR locked_until <= ${now})
    RETURNING locked_until`;
  if (rows[0]) return rows[0].locked_until;
  const current = await db().signInThrottle.findUnique({ where: { key: scope.key }, select: { lockedUntil: true } });
  return current?.lockedUntil ?? now;
}

function lockedOut(until: Date, now: Date): ApiError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new ApiError(429, "rate_limited", `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, undefined, {
    "Retry-After": String(seconds),
  });
}

const latest = (dates: Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())));

/**
 * Runs `verify` (the password check) under the throttle: refused with 429
 * while the account-from-this-address or the address is locked, or when
 * this attempt is past the limit; on failure, locks whatever reached its
 * limit; on success, forgets the account's failures.
 */
export async function throttled<T>(email: string, address: string, now: Date, verify: () => Promise<T | null>): Promise<T | null> {
  const scopes = scopesFor(email, address);
  if (Math.random() < 0.02) runInBackground("sweep sign-in throttles", () => sweepThrottles(now));
  const rows = await reserve(scopes, now);
  const locks = scopes.map((s) => rows.get(s.key)?.locked_until).filter((d): d is Date => Boolean(d && d > now));
  if (locks.length) throw lockedOut(latest(locks), now);
  const burst = scopes.filter((s) => (rows.get(s.key)?.attempts ?? 0) > s.rule.maxFailures);
  if (burst.length) throw lockedOut(latest(await Promise.all(burst.map((s) => lock(s, now)))), now);

  const result = await verify();
  const [account, addressScope] = scopes;
  if (result) {
    // The account's failures are forgiven (from every address); the
    // address keeps its other failures but not this attempt.
    await db().$executeRaw`DELETE FROM sign_in_throttles WHERE account = ${account.account}`;
    await db().$executeRaw`UPDATE sign_in_throttles SET attempts = GREATEST(attempts - 1, 0) WHERE key = ${addressScope.key}`;
    return result;
  }
  const reached = [account, addressScope].filter((s) => (rows.get(s.key)?.attempts ?? 0) >= s.rule.maxFailures);
  await Promise.all(reached.map((s) => lock(s, now)));
  return null;
}

/** Forgets counts and lock-outs that no longer matter. */
export async function sweepThrottles(now: Date): Promise<number> {
  return db().$executeRaw`
    DELETE FROM sign_in_throttles
    WHERE (locked_until IS NULL OR locked_until <= ${now})
      AND window_start + make_interval(secs => window_seconds) <= ${now}
      AND (last_locked_at IS NULL OR last_locked_at <= ${new Date(now.getTime() - 86_400_000)})`;
}

export interface Lockout {
  /**
   * Whose failures: a staff account's (its email hashes to the one kept), an
   * email that is no staff account (a guess: only its hash is kept, so it
   * cannot be shown), or the address's as a whole.
   */
  scope: "staff" | "unknown_email" | "address";
  /** The staff account's email; null otherwise. */
  email: string | null;
  address: string;
  attempts: number;
  lockedUntil: Date | null;
  lockouts: number;
}

/**
 * For staff (the CLI): lock-outs in force and failures being counted. Staff
 * accounts are named by hashing each one's email as the throttle does (the
 * CLI must then run with the server's SESSION_SECRET, as for everything it
 * shares with the server); a row that matches none is a guessed email.
 */
export async function listLockouts(now: Date): Promise<Lockout[]> {
  const rows = await db().signInThrottle.findMany({
    where: { OR: [{ lockedUntil: { gt: now } }, { attempts: { gt: 0 } }] },
    orderBy: [{ lockedUntil: { sort: "desc", nulls: "last" } }, { key: "asc" }],
    select: { account: true, address: true, attempts: true, lockedUntil: true, lockouts: true, windowStart: true, windowSeconds: true },
  });
  const staff = new Map((await db().staffUser.findMany({ select: { email: true } })).map(({ email }) => [accountHash(email), email]));
  return rows
    .filter((r) => (r.lockedUntil && r.lockedUntil > now) || r.windowStart.getTime() + r.windowSeconds * 1000 > now.getTime())
    .map(({ account, address, attempts, lockedUntil, lockouts }) => {
      const email = account ? (staff.get(account) ?? null) : null;
      const scope = account === null ? "address" : email ? "staff" : "unknown_email";
      return { scope, email, address, attempts, lockedUntil: lockedUntil && lockedUntil > now ? lockedUntil : null, lockouts };
    });
}

/** Lifts lock-outs and forgets failures: of an account (from every address, or one), or of an address. Returns how many were lifted. */
export async function unlock(target: { email?: string; address?: string }): Promise<number> {
  const where = target.address ? addressRateKey(target.address) : undefined;
  if (target.email) {
    const account = accountHash(target.email);
    return where
      ? db().$executeRaw`DELETE FROM sign_in_throttles WHERE key = ${`account:${account}@${where}`}`
      : db().$executeRaw`DELETE FROM sign_in_throttles WHERE account = ${account}`;
  }
  if (where) return db().$executeRaw`DELETE FROM sign_in_throttles WHERE address = ${where}`;
  return 0;
}
