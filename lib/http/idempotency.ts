import type { Prisma } from "@/lib/generated/prisma/client";
import type { ApiResult } from "@/lib/http/handler";
import { ApiError } from "@/lib/core/errors";
import { fingerprint, runOnce, type StoredResponse } from "@/lib/idempotency/service";

// The HTTP side of Idempotency-Key: reading the header, and answering a
// replay with the stored response plus `Idempotent-Replayed: true`.

export const IDEMPOTENCY_KEY_MAX = 255;
/** 1 to 255 printable ASCII characters (space included, not at either end: HTTP trims those). */
const KEY_PATTERN = new RegExp(`^[\\x20-\\x7E]{1,${IDEMPOTENCY_KEY_MAX}}$`);

export function idempotencyKeyOf(request: Request): string | undefined {
  const value = request.headers.get("idempotency-key");
  if (value === null) return undefined;
  if (!KEY_PATTERN.test(value)) {
    throw new ApiError(400, "invalid_header", `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters, e.g. a UUID.`, [
      { field: "Idempotency-Key", issue: `must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters` },
    ]);
  }
  return value;
}

interface IdempotentCall {
  request: Request;
  /** The caller's stable identity (see actorKey). */
  caller: string;
  /** Names the operation, so a key reused on another one counts as another body. */
  operation: string;
  body: unknown;
  now: Date;
}

/**
 * Runs `work` at most once per Idempotency-Key (when the request carries
 * one), inside the transaction that records the key; without a key it just
 * runs (without a transaction of ours: `tx` is then undefined).
 */
export async function idempotently(call: IdempotentCall, work: (tx: Prisma.TransactionClient | undefined) => Promise<StoredResponse>): Promise<ApiResult> {
  const key = idempotencyKeyOf(call.request);
  if (key === undefined) return work(undefined);
  const { response, replayed } = await runOnce({ caller: call.caller, key, fingerprint: fingerprint(call.operation, call.body), now: call.now }, work);
  return replayed ? { ...response, headers: { ...response.headers, "Idempotent-Replayed": "true" } } : response;
}
