import { createHash } from "node:crypto";
import { runInBackground } from "@/lib/background";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/core/errors";
import * as queries from "@/lib/idempotency/queries";

// Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header): a caller
// that retries a create with the same key gets the first answer again instead
// of a second animal.
//
// The key is reserved by an INSERT ... ON CONFLICT DO NOTHING inside the very
// transaction that creates the animal and stores the response. So the record
// and the animal commit together or not at all: a create that fails rolls
// its reservation back (a retry can succeed), a crash leaves no reservation
// stuck, and a duplicate sent meanwhile waits on the key's unique index for
// the first to finish, then replays its answer; if that takes longer than
// IN_PROGRESS_WAIT it gets 409 instead. See docs/decisions/004-changing-animals.md.

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** How long a duplicate waits for the request holding its key before answering 409. */
export const IN_PROGRESS_WAIT = "3s";

export interface StoredResponse {
  status: number;
  body: Prisma.InputJsonValue;
  headers: Record<string, string>;
}

export interface IdempotentRequest {
  /** The caller's stable identity (key:<id>, staff:<id>): keys are per caller. */
  caller: string;
  key: string;
  /** SHA-256 of the operation and its canonical parsed body (see fingerprint). */
  fingerprint: string;
  now: Date;
}

/** JSON with object keys sorted at every level, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * What identifies "the same request": the operation and the body as parsed
 * (trimmed name, defaulted status), so `{"name":" Rex ","categoryId":1}` and
 * `{"categoryId":1,"name":"Rex","status":"available"}` are the same request.
 */
export function fingerprint(operation: string, parsedBody: unknown): string {
  return createHash("sha256")
    .update(`${operation}\n${canonicalJson(parsedBody)}`)
    .digest("hex");
}

function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const record = e as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown };
    if (record.code === "55P03" || record.originalCode === "55P03") return true;
    if (typeof record.message === "string" && /lock timeout/i.test(record.message)) return true;
    e = record.cause;
  }
  return false;
}

function inProgress(): ApiError {
  return new ApiError(
    409,
    "idempotency_in_progress",
    "A request with this Idempotency-Key is still being processed. Retry in a moment: you will then get its response.",
    undefined,
    { "Retry-After": "1" },
  );
}

/**
 * Runs `work` once per (caller, key) within IDEMPOTENCY_TTL_MS: the first
 * request runs it and its response is stored with the key; a later request
 * with the same body gets that response back (replayed: true); one with
 * another body is refused with 422.
 */
export async function runOnce(
  request: IdempotentRequest,
  work: (tx: Prisma.TransactionClient) => Promise<StoredResponse>,
): Promise<{ response: StoredResponse; replayed: boolean }> {
  const { caller, key, now } = request;
  let result: { response: StoredResponse; replayed: boolean };
  try {
    result = await db().$transaction(async (tx) => {
      // Bounds the wait on a concurrent duplicate's reservation below.
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${IN_PROGRESS_WAIT}'`);
      await queries.deleteExpiredKey(tx, caller, key, now);
      const reserved = await queries.reserveKey(tx, {
        caller,
        key,
        requestHash: request.fingerprint,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      if (!reserved) {
        const existing = await queries.findKey(tx, caller, key);
        // Gone again (expired and swept in between) or somehow unanswered: the client's retry settles it.
        if (!existing || existing.responseStatus === null) throw inProgress();
        if (existing.requestHash !== request.fingerprint) {
          throw new ApiError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
            [{ field: "Idempotency-Key", issue: "was already used with a different body" }],
          );
        }
        return {
          response: {
            status: existing.responseStatus,
            body: existing.responseBody as Prisma.InputJsonValue,
            headers: (existing.responseHeaders ?? {}) as Record<string, string>,
          },
          replayed: true,
        };
      }
      const response = await work(tx);
      await queries.saveResponse(tx, caller, key, response);
      return { response, replayed: false };
    });
  } catch (error) {
    if (isLockTimeout(error)) throw inProgress();
    throw error;
  }
  // Expired records are swept in passing (about one new key in a hundred),
  // so the table stays proportional to a day's keys without a scheduler.
  if (!result.replayed && Math.random() < 0.01) runInBackground("delete expired idempotency keys", () => queries.deleteExpiredKeys(now));
  return result;
}
