import { withApi, otherMethods } from "@/lib/http/handler";
import { sessionInfo, signIn, signOut } from "@/lib/sessions/sign-in";
import { signInSchema } from "@/lib/staff/schemas";

// GET /v1/session - who the browser session is (adopter or staff)
export const GET = withApi({ scope: null, tenant: "public" }, ({ caller }) => ({ body: sessionInfo(caller) }));

// POST /v1/session - staff sign-in with email and password; sets the session cookie
export const POST = withApi({ scope: null, tenant: "public", body: signInSchema, originCheck: "always" }, async ({ body, request, url, now }) => {
  const { body: info, cookie } = await signIn(body, request, url, now);
  return { body: info, headers: { "Set-Cookie": cookie } };
});

// DELETE /v1/session - sign out: the session is deleted and the cookie cleared (never refused for the rate limit)
export const DELETE = withApi({ scope: null, tenant: "public", originCheck: "always", rateLimit: "count-only" }, async ({ request, url }) => ({
  status: 204,
  headers: { "Set-Cookie": await signOut(request, url) },
}));

export const { PUT, PATCH, OPTIONS } = otherMethods(["GET", "POST", "DELETE"]);
