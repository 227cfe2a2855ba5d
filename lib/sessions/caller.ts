import type { Limits, Plan } from "@/lib/keys/plans";
import type { Scope } from "@/lib/keys/schemas";
import type { Tenancy } from "@/lib/organizations/tenancy";
import type { StaffIdentity } from "@/lib/staff/schemas";

// Who is calling, as lib/http/auth.ts resolves every request. Here, below the
// HTTP wrapper, so that a domain handed a Caller (listing uploads, sign-in)
// does not import the wrapper that imports the domains.

interface CallerBase {
  /** The identity counters are kept for: a key, a session, or a client address. */
  rateKey: string;
  scopes: Scope[];
  plan: Plan;
  limits: Limits;
  /**
   * Budgets counted as well, shared with other callers: an anonymous
   * session's client address, so that dropping the cookie buys at most the
   * address's ceiling. `policy` prefixes their names in the RateLimit headers.
   */
  sharedBudgets?: { rateKey: string; limits: Limits; policy: string }[];
  /** Whose private data it may see and change (lib/organizations/tenancy.ts). */
  tenancy: Tenancy;
}

export type Caller =
  | (CallerBase & { kind: "key"; keyId: bigint; bannedUntil: Date | null })
  | (CallerBase & { kind: "session"; sessionId: string; staff: StaffIdentity | null })
  | (CallerBase & {
      kind: "anonymous";
      /** Why there is no principal: nothing was presented, or it did not check out. */
      credential: "missing" | "invalid";
      address: string;
    });

/** organizations:manage: their own organisation's profile (a platform admin: every organisation, and new ones). */
export const STAFF_SCOPES: Scope[] = [
  "pets:read",
  "pets:write",
  "keys:manage",
  "audit:read",
  "applications:manage",
  "organizations:manage",
  "listings:manage",
  "records:read",
  "records:write",
  "people:read",
  "people:write",
];
