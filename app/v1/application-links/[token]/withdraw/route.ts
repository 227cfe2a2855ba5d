import { tokenParamsSchema } from "@/lib/applications/schemas";
import { withdrawByToken } from "@/lib/applications/service";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/application-links/{token}/withdraw - the applicant withdraws an application still undecided
export const POST = withApi({ scope: null, tenant: "public", params: tokenParamsSchema }, async ({ params, requestId }) => ({
  body: await withdrawByToken(params.token, requestId),
  headers: { "Cache-Control": "no-store" },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
