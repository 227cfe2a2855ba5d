import { alertTokenParamsSchema } from "@/lib/alerts/schemas";
import { unsubscribeAlert } from "@/lib/alerts/service";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/alerts/{token}/unsubscribe - RFC 8058 one-click unsubscribe: a mail client POSTs
// "List-Unsubscribe=One-Click" (or nothing) with no cookie and no Origin; the body is not read,
// and no origin check applies (the token is the credential). Unknown tokens are already unsubscribed.
export const POST = withApi({ scope: null, tenant: "public", params: alertTokenParamsSchema, originCheck: "never" }, async ({ params }) => ({
  body: await unsubscribeAlert(params.token),
  headers: { "Cache-Control": "no-store" },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
