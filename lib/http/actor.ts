import type { Actor, WriteContext } from "@/lib/audit/schemas";
import type { Caller } from "@/lib/http/auth";
import { ApiError } from "@/lib/http/errors";

// Who a request that changes something acts as, for the audit trail and for
// scoping Idempotency-Keys. Only API keys and signed-in staff hold pets:write.

export function actorOf(caller: Caller): Actor {
  if (caller.kind === "key") return { kind: "api_key", id: Number(caller.keyId) };
  if (caller.kind === "session" && caller.staff) return { kind: "staff", id: Number(caller.staff.id), email: caller.staff.email };
  // Unreachable behind the pets:write scope; refused rather than recorded as nobody.
  throw new ApiError(403, "forbidden", "Only API keys and signed-in staff can change animals.");
}

export function writeContext(caller: Caller, requestId: string): WriteContext {
  return { actor: actorOf(caller), requestId };
}

/** A stable identity of the actor: the same key, or the same staff member in any of their sessions. */
export function actorKey(actor: Actor): string {
  return actor.kind === "api_key" ? `key:${actor.id}` : `staff:${actor.id}`;
}
