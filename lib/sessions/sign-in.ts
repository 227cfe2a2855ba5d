import { clearedSessionCookie, readSessionCookie, sessionCookie } from "@/lib/core/cookies";
import { STAFF_SCOPES, type Caller } from "@/lib/sessions/caller";
import { clientAddress } from "@/lib/core/client";
import { ApiError } from "@/lib/core/errors";
import { createStaffSession, deleteSession } from "@/lib/sessions/service";
import { checkCredentials } from "@/lib/staff/service";
import { throttled } from "@/lib/staff/throttle";
import type { SessionInfo, SignIn } from "@/lib/staff/schemas";

export function sessionInfo(caller: Caller): SessionInfo {
  if (caller.kind !== "session") {
    throw new ApiError(401, "unauthorized", "No browser session: this endpoint is for the site's own pages.", undefined, {
      "WWW-Authenticate": 'Bearer realm="petstore"',
    });
  }
  const staff = caller.staff;
  return {
    kind: staff ? "staff" : "anonymous",
    email: staff?.email ?? null,
    scopes: caller.scopes,
    organizationId: staff?.organizationId == null ? null : Number(staff.organizationId),
    platformAdmin: staff?.platformAdmin ?? false,
  };
}

/**
 * Staff sign-in: a fresh session (never the adopter's one promoted, so a
 * session id planted before sign-in is worthless after it).
 */
export async function signIn(input: SignIn, request: Request, url: URL, now: Date) {
  const staff = await throttled(input.email, clientAddress(request), now, () => checkCredentials(input.email, input.password));
  if (!staff) throw new ApiError(401, "unauthorized", "The email or password is incorrect.", [{ field: "password", issue: "does not match" }]);
  const previous = readSessionCookie(request);
  if (previous) await deleteSession(previous);
  const { token, expiresAt } = await createStaffSession(staff.id, now);
  const body: SessionInfo = {
    kind: "staff",
    email: staff.email,
    scopes: STAFF_SCOPES,
    organizationId: staff.organizationId === null ? null : Number(staff.organizationId),
    platformAdmin: staff.platformAdmin,
  };
  return { body, cookie: sessionCookie(token, { expires: expiresAt, origin: url.origin }) };
}

export async function signOut(request: Request, url: URL): Promise<string> {
  const token = readSessionCookie(request);
  if (token) await deleteSession(token);
  return clearedSessionCookie(url.origin);
}
