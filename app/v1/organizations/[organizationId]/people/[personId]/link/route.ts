import { sendFosterLink } from "@/lib/fosters/links";
import { personIdParamsSchema } from "@/lib/fosters/links-schemas";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { assertMayReadPeople } from "@/lib/people/service";
import { viewerOf } from "@/lib/visibility/policy";

// POST /v1/organizations/{organizationId}/people/{personId}/link - send the foster their private page's link (a new one: the old stops working)
export const POST = withApi({ scope: "people:write", tenant: organizationOwner, params: personIdParamsSchema }, async ({ params, caller, now }) => {
  assertMayReadPeople(viewerOf(caller), params.organizationId);
  return { status: 202, body: await sendFosterLink(params.organizationId, params.personId, now), headers: { "Cache-Control": "no-store" } };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
