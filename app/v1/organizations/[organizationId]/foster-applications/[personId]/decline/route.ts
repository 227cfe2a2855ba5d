import { declineFosterApplicant } from "@/lib/fosters/applications";
import { fosterDeclineSchema } from "@/lib/fosters/applications-schemas";
import { personIdParamsSchema } from "@/lib/fosters/links-schemas";
import { deciderOf } from "@/lib/http/actor";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { assertMayReadPeople } from "@/lib/people/service";
import { viewerOf } from "@/lib/visibility/policy";

// POST /v1/organizations/{organizationId}/foster-applications/{personId}/decline - the applicant is told (with a message); the person becomes inactive
export const POST = withApi(
  { scope: "people:write", tenant: organizationOwner, params: personIdParamsSchema, body: fosterDeclineSchema },
  async ({ params, body, caller, now }) => {
    assertMayReadPeople(viewerOf(caller), params.organizationId);
    return { body: await declineFosterApplicant(params.organizationId, params.personId, body, deciderOf(caller), now) };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
