import type { ApiKeySummary } from "@/lib/keys/schemas";

export type KeyState = { kind: "active" } | { kind: "revoked"; since: Date } | { kind: "banned"; until: Date };

/** A key's state at `now`: a ban that has run out is no ban. */
export function keyState(key: ApiKeySummary, now: number): KeyState {
  if (key.revokedAt) return { kind: "revoked", since: new Date(key.revokedAt) };
  if (key.bannedUntil && Date.parse(key.bannedUntil) > now) return { kind: "banned", until: new Date(key.bannedUntil) };
  return { kind: "active" };
}
