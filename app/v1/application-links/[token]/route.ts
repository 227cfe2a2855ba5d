import { tokenParamsSchema } from "@/lib/applications/schemas";
import { applicationByToken } from "@/lib/applications/service";
import { otherMethods, withApi } from "@/lib/http/handler";

// GET /v1/application-links/{token} - the applicant's own application, by its private link (the token is the credential)
export const GET = withApi({ scope: null, tenant: "public", params: tokenParamsSchema }, async ({ params }) => ({
  body: await applicationByToken(params.token),
  headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
