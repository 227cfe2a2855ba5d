import { approveFosterApplicant } from "@/lib/fosters/applications";
import { personIdParamsSchema } from "@/lib/fosters/links-schemas";
import { deciderOf } from "@/lib/http/actor";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";

// POST /v1/organizations/{organizationId}/foster-applications/{personId}/approve - the applicant becomes an active foster, welcomed with their private link
export const POST = withApi({ scope: "people:write", tenant: organizationOwner, params: personIdParamsSchema }, async ({ params, caller, now }) => ({
  body: await approveFosterApplicant(params.organizationId, params.personId, deciderOf(caller), now),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
