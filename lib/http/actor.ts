import type { Actor, WriteContext } from "@/lib/audit/schemas";
import type { Caller } from "@/lib/sessions/caller";
import { ApiError } from "@/lib/core/errors";
import type { Tenancy } from "@/lib/organizations/tenancy";

// Who a request that changes something acts as, for the audit trail and for
// scoping Idempotency-Keys. Only API keys and signed-in staff hold pets:write.

export function actorOf(caller: Caller): Actor {
  if (caller.kind === "key") return { kind: "api_key", id: Number(caller.keyId) };
  if (caller.kind === "session" && caller.staff) return { kind: "staff", id: Number(caller.staff.id), email: caller.staff.email };
  // Unreachable behind the pets:write scope; refused rather than recorded as nobody.
  throw new ApiError(403, "forbidden", "Only API keys and signed-in staff can change animals.");
}

/** The actor and request id for the audit trail, and whose rows the write may touch (checked in the statement that locks them). */
export function writeContext(caller: Caller, requestId: string): WriteContext & { tenancy: Tenancy } {
  return { actor: actorOf(caller), requestId, tenancy: caller.tenancy };
}

/** A stable identity of the actor: the same key, or the same staff member in any of their sessions. */
export function actorKey(actor: Actor): string {
  return actor.kind === "api_key" ? `key:${actor.id}` : `staff:${actor.id}`;
}

/** The API key a webhooks request acts for: endpoints belong to keys (only keys hold webhooks:manage). */
export function ownerKeyId(caller: Caller): bigint {
  if (caller.kind === "key") return caller.keyId;
  throw new ApiError(403, "forbidden", "Webhook endpoints belong to API keys: call with `Authorization: Bearer <API_KEY>`.");
}

/** The signed-in staff member behind a staff-only request. */
export function staffOf(caller: Caller): { id: bigint; email: string } {
  if (caller.kind === "session" && caller.staff) return caller.staff;
  throw new ApiError(403, "forbidden", "Only signed-in staff can do this.");
}

/** Who decided, in words, for a record staff read: "staff <email>" or "API key #<id>". */
export function deciderOf(caller: Caller): string {
  if (caller.kind === "key") return `API key #${caller.keyId}`;
  if (caller.kind === "session" && caller.staff) return `staff ${caller.staff.email}`;
  throw new ApiError(403, "forbidden", "Only API keys and signed-in staff can decide applications.");
}
