import { markFosterReady } from "@/lib/fosters/links";
import { fosterTokenParamsSchema } from "@/lib/fosters/links-schemas";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/foster-links/{token}/ready - "ready for another": the time staff see
export const POST = withApi({ scope: null, tenant: "public", params: fosterTokenParamsSchema }, async ({ params, now }) => ({
  body: await markFosterReady(params.token, now),
  headers: { "Cache-Control": "no-store" },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
