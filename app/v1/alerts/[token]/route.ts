import { alertPatchSchema, alertTokenParamsSchema } from "@/lib/alerts/schemas";
import { alertByToken, deleteAlert, patchAlert } from "@/lib/alerts/service";
import { otherMethods, withApi } from "@/lib/http/handler";

// The alert's private link: the token is the credential, whoever calls.
const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

// GET /v1/alerts/{token} - the alert: its filters in words, how often, whether it is confirmed or paused
export const GET = withApi({ scope: null, tenant: "public", params: alertTokenParamsSchema }, async ({ params, now }) => ({
  body: await alertByToken(params.token, now),
  headers: NO_STORE,
}));

// PATCH /v1/alerts/{token} - pause or resume it
export const PATCH = withApi({ scope: null, tenant: "public", params: alertTokenParamsSchema, body: alertPatchSchema }, async ({ params, body, now }) => ({
  body: await patchAlert(params.token, body, now),
  headers: NO_STORE,
}));

// DELETE /v1/alerts/{token} - delete it, with whatever it had waiting
export const DELETE = withApi({ scope: null, tenant: "public", params: alertTokenParamsSchema }, async ({ params }) => {
  await deleteAlert(params.token);
  return { status: 204, headers: NO_STORE };
});

export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
