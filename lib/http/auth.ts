import { addressRateKey, clientAddress, ownOrigins } from "@/lib/core/client";
import { readSessionCookie } from "@/lib/core/cookies";
import { ApiError } from "@/lib/core/errors";
import { PLAN_LIMITS } from "@/lib/keys/plans";
import type { Scope } from "@/lib/keys/schemas";
import { authenticateKey } from "@/lib/keys/service";
import { organizationTenancy, PLATFORM, PUBLIC } from "@/lib/organizations/tenancy";
import { STAFF_SCOPES, type Caller } from "@/lib/sessions/caller";
import { findSession } from "@/lib/sessions/service";

// Who is calling. One function resolves every request to a Caller; the
// wrapper then rate-limits by `rateKey` and checks scopes, whatever kind of
// caller it is: an API key (third parties), a browser session (the site's
// own pages, adopters and staff), or nobody (counted by client address).
// The Caller type and the staff's scopes live in lib/sessions/caller.ts, below
// the domains that take a Caller.

/** Adopters browse with the Free figures; staff sessions get Pro's, enough for a busy shelter desk. */
/** Adopters read, and apply to adopt (no account: the application's private link is theirs). */
const ADOPTER_SCOPES: Scope[] = ["pets:read", "applications:write"];
/** What all anonymous browser sessions of one client address may send together: ten times the Free figures. */
export const ADDRESS_CEILING = { perMinute: PLAN_LIMITS.free.perMinute * 10, perDay: PLAN_LIMITS.free.perDay * 10 };

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;

export async function resolveCaller(request: Request, now: Date): Promise<Caller> {
  const anonymous = (credential: "missing" | "invalid"): Caller => {
    const address = clientAddress(request);
    return { kind: "anonymous", credential, address, rateKey: addressRateKey(address), scopes: [], plan: "free", limits: PLAN_LIMITS.free, tenancy: PUBLIC };
  };

  // A bearer header wins over a cookie: a partner's script on a page of ours
  // is a key caller, and a bad header is never rescued by a cookie.
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const token = BEARER.exec(authorization)?.[1];
    const key = token ? await authenticateKey(token, now) : null;
    if (!key) return anonymous("invalid");
    return {
      kind: "key",
      keyId: key.keyId,
      rateKey: `key:${key.keyId}`,
      scopes: key.scopes,
      plan: key.plan,
      limits: key.limits,
      bannedUntil: key.bannedUntil,
      tenancy: organizationTenancy(key.organizationId),
    };
  }

  const cookie = readSessionCookie(request);
  if (cookie === undefined) return anonymous("missing");
  const session = await findSession(cookie, now);
  if (!session) return anonymous("invalid");
  if (session.kind === "staff") {
    return {
      kind: "session",
      sessionId: session.id,
      staff: session.staff,
      rateKey: `session:${session.id.slice(0, 32)}`,
      scopes: STAFF_SCOPES,
      plan: "pro",
      limits: PLAN_LIMITS.pro,
      tenancy: session.staff.platformAdmin ? PLATFORM : organizationTenancy(session.staff.organizationId),
    };
  }
  // An adopter's session costs nothing to mint, so its budget alone would
  // be a fresh one per dropped cookie: the client address's ceiling (a
  // multiple of the Free figures, for households and offices behind one
  // address) is counted too.
  const address = clientAddress(request);
  return {
    kind: "session",
    sessionId: session.id,
    staff: null,
    rateKey: `anon:${session.id}`,
    scopes: ADOPTER_SCOPES,
    plan: "free",
    limits: PLAN_LIMITS.free,
    sharedBudgets: [{ rateKey: `browsers:${addressRateKey(address)}`, limits: ADDRESS_CEILING, policy: "address-" }],
    tenancy: PUBLIC,
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF: a cookie rides along on requests that other sites' pages make, so a
 * cookie-authenticated unsafe request must prove it comes from our own pages:
 * its Origin (which browsers always send on such requests and pages cannot
 * forge) must be one of ours: the origin the client addressed, not the
 * framework's idea of our host (lib/core/client.ts). Bearer callers need no
 * such check: no browser attaches a bearer header by itself. `always` extends
 * it to callers without a session (sign-in and sign-out: login CSRF).
 */
export function assertSameOrigin(request: Request, caller: Caller, always = false): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (caller.kind !== "session" && !(always && caller.kind === "anonymous")) return;
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const sameOrigin = origin ? ownOrigins(request).has(origin) : fetchSite === "same-origin";
  if (!sameOrigin) {
    throw new ApiError(403, "forbidden", "Cross-site request refused: a request authenticated by a session cookie must come from this site's own pages.");
  }
}
