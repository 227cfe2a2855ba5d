import { getFosterPage } from "@/lib/fosters/links";
import { personIdParamsSchema } from "@/lib/fosters/links-schemas";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { viewerOf } from "@/lib/visibility/policy";

// GET /v1/organizations/{organizationId}/people/{personId}/foster-page - what the foster said on their page: notes, "ready for another", the link's state
export const GET = withApi({ scope: "people:read", tenant: organizationOwner, params: personIdParamsSchema }, async ({ params, caller, now }) => ({
  body: await getFosterPage(viewerOf(caller), params.organizationId, params.personId, now),
  headers: { "Cache-Control": "no-store" },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
