import { env } from "@/lib/env";
import { PLAN_LIMITS, type Limits, type Plan } from "@/lib/keys/plans";
import type { Scope } from "@/lib/keys/schemas";
import { authenticateKey } from "@/lib/keys/service";
import { SOCKET_ADDRESS_HEADER } from "@/lib/http/socket-address";

// Who is calling. One function resolves every request to a Caller; the
// wrapper then rate-limits by `rateKey` and checks scopes, whatever kind of
// caller it is. Browser sessions are a further kind, added beside "key".

interface CallerBase {
  /** The identity counters are kept for: a key, a session, or a client address. */
  rateKey: string;
  scopes: Scope[];
  plan: Plan;
  limits: Limits;
}

export type Caller =
  | (CallerBase & { kind: "key"; keyId: bigint; bannedUntil: Date | null })
  | (CallerBase & {
      kind: "anonymous";
      /** Why there is no principal: nothing was presented, or it did not check out. */
      credential: "missing" | "invalid";
      address: string;
    });

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

  const authorization = request.headers.get("authorization");
  if (authorization === null) return anonymous("missing");
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
