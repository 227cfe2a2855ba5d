import { env } from "@/lib/env";
import { readCookie } from "@/lib/http/cookies";
import { ApiError } from "@/lib/http/errors";
import { SOCKET_ADDRESS_HEADER } from "@/lib/http/socket-address";
import { PLAN_LIMITS, type Limits, type Plan } from "@/lib/keys/plans";
import type { Scope } from "@/lib/keys/schemas";
import { authenticateKey } from "@/lib/keys/service";
import { SESSION_COOKIE, findSession } from "@/lib/sessions/service";

// Who is calling. One function resolves every request to a Caller; the
// wrapper then rate-limits by `rateKey` and checks scopes, whatever kind of
// caller it is: an API key (third parties), a browser session (the site's
// own pages, adopters and staff), or nobody (counted by client address).

interface CallerBase {
  /** The identity counters are kept for: a key, a session, or a client address. */
  rateKey: string;
  scopes: Scope[];
  plan: Plan;
  limits: Limits;
}

export type Caller =
  | (CallerBase & { kind: "key"; keyId: bigint; bannedUntil: Date | null })
  | (CallerBase & { kind: "session"; sessionId: string; staff: { id: bigint; email: string } | null })
  | (CallerBase & {
      kind: "anonymous";
      /** Why there is no principal: nothing was presented, or it did not check out. */
      credential: "missing" | "invalid";
      address: string;
    });

/** Adopters browse with the Free figures; staff sessions get Pro's, enough for a busy shelter desk. */
const ADOPTER_SCOPES: Scope[] = ["pets:read"];
const STAFF_SCOPES: Scope[] = ["pets:read", "pets:write", "keys:manage", "audit:read"];

/**
 * The client's address: the socket's (passed on by our server as a header
 * it always overwrites), or the first X-Forwarded-For hop when TRUST_PROXY
 * says a proxy of ours sets it. Never a header a client could choose freely.
 */
export function clientAddress(request: Request): string {
  if (env().TRUST_PROXY) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get(SOCKET_ADDRESS_HEADER) ?? "unknown";
}

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;

export async function resolveCaller(request: Request, now: Date): Promise<Caller> {
  const anonymous = (credential: "missing" | "invalid"): Caller => {
    const address = clientAddress(request);
    return { kind: "anonymous", credential, address, rateKey: `ip:${address}`, scopes: [], plan: "free", limits: PLAN_LIMITS.free };
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
    };
  }

  const cookie = readCookie(request, SESSION_COOKIE);
  if (cookie === undefined) return anonymous("missing");
  const session = await findSession(cookie, now);
  if (!session) return anonymous("invalid");
  const plan: Plan = session.staff ? "pro" : "free";
  return {
    kind: "session",
    sessionId: session.id,
    staff: session.staff,
    rateKey: `session:${session.id.slice(0, 32)}`,
    scopes: session.staff ? STAFF_SCOPES : ADOPTER_SCOPES,
    plan,
    limits: PLAN_LIMITS[plan],
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF: a cookie rides along on requests that other sites' pages make, so a
 * cookie-authenticated unsafe request must prove it comes from our own pages:
 * its Origin (which browsers always send on such requests and pages cannot
 * forge) must be ours. Bearer callers need no such check: no browser attaches
 * a bearer header by itself.
 */
export function assertSameOrigin(request: Request, caller: Caller): void {
  if (caller.kind !== "session" || SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  const ownOrigins = new Set([new URL(request.url).origin]);
  const publicUrl = env().PUBLIC_BASE_URL;
  if (publicUrl) ownOrigins.add(new URL(publicUrl).origin);
  const fetchSite = request.headers.get("sec-fetch-site");
  const sameOrigin = origin ? ownOrigins.has(origin) : fetchSite === "same-origin";
  if (!sameOrigin) {
    throw new ApiError(403, "forbidden", "Cross-site request refused: a request authenticated by a session cookie must come from this site's own pages.");
  }
}
