import { approveFosterApplicant } from "@/lib/fosters/applications";
import { personIdParamsSchema } from "@/lib/fosters/links-schemas";
import { deciderOf } from "@/lib/http/actor";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { assertMayReadPeople } from "@/lib/people/service";
import { viewerOf } from "@/lib/visibility/policy";

// POST /v1/organizations/{organizationId}/foster-applications/{personId}/approve - the applicant becomes an active foster, welcomed with their private link
export const POST = withApi({ scope: "people:write", tenant: organizationOwner, params: personIdParamsSchema }, async ({ params, caller, now }) => {
  // The answer is the applicant (name, email, home): changing people needs reading them too, as on every people route.
  assertMayReadPeople(viewerOf(caller), params.organizationId);
  return { body: await approveFosterApplicant(params.organizationId, params.personId, deciderOf(caller), now) };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
