import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";

// Data access for Idempotency-Key records. Every call but the sweep runs in
// the transaction of the request the key belongs to.

export interface IdempotencyRecord {
  requestHash: string;
  responseStatus: number | null;
  responseBody: Prisma.JsonValue;
  responseHeaders: Prisma.JsonValue;
}

/** Forgets this caller's key if it has expired, so that it can be reserved anew. */
export async function deleteExpiredKey(tx: Prisma.TransactionClient, caller: string, key: string, now: Date): Promise<void> {
  await tx.$executeRaw`DELETE FROM idempotency_keys WHERE caller = ${caller} AND key = ${key} AND expires_at <= ${now.toISOString()}::timestamptz`;
}

/**
 * Reserves the key: true when this transaction now owns it. While another
 * transaction holds an uncommitted reservation of the same key, PostgreSQL
 * makes this INSERT wait for that one to end (bounded by lock_timeout):
 * committed, it is a conflict (false); rolled back, the insert goes ahead.
 */
export async function reserveKey(
  tx: Prisma.TransactionClient,
  record: { caller: string; key: string; requestHash: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO idempotency_keys (caller, key, request_hash, created_at, expires_at)
    VALUES (${record.caller}, ${record.key}, ${record.requestHash}, ${record.createdAt.toISOString()}::timestamptz, ${record.expiresAt.toISOString()}::timestamptz)
    ON CONFLICT (caller, key) DO NOTHING`;
  return inserted === 1;
}

export async function findKey(tx: Prisma.TransactionClient, caller: string, key: string): Promise<IdempotencyRecord | null> {
  return tx.idempotencyKey.findUnique({
    where: { caller_key: { caller, key } },
    select: { requestHash: true, responseStatus: true, responseBody: true, responseHeaders: true },
  });
}

export async function saveResponse(
  tx: Prisma.TransactionClient,
  caller: string,
  key: string,
  response: { status: number; body: Prisma.InputJsonValue; headers: Prisma.InputJsonObject },
): Promise<void> {
  await tx.idempotencyKey.update({
    where: { caller_key: { caller, key } },
    data: { responseStatus: response.status, responseBody: response.body, responseHeaders: response.headers },
    select: { caller: true },
  });
}

/** Drops every expired record (all callers). */
export async function deleteExpiredKeys(now: Date): Promise<number> {
  return (await db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}
