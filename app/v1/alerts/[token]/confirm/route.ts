import { alertTokenParamsSchema } from "@/lib/alerts/schemas";
import { confirmAlert } from "@/lib/alerts/service";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/alerts/{token}/confirm - double opt-in's second step (a POST from the page's script, so mail scanners that only GET confirm nothing)
export const POST = withApi({ scope: null, tenant: "public", params: alertTokenParamsSchema }, async ({ params, now }) => ({
  body: await confirmAlert(params.token, now),
  headers: { "Cache-Control": "no-store" },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
