import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { personIdParamsSchema, personPatchSchema } from "@/lib/people/schemas";
import { assertMayReadPeople, erasePerson, getPerson, updatePerson } from "@/lib/people/service";
import { viewerOf } from "@/lib/visibility/policy";

// GET /v1/organizations/{organizationId}/people/{personId} - one person (an erased one answers with its personal fields null)
export const GET = withApi({ scope: "people:read", tenant: organizationOwner, params: personIdParamsSchema }, async ({ params, caller }) => {
  assertMayReadPeople(viewerOf(caller), params.organizationId);
  const { person, version } = await getPerson(params.organizationId, params.personId);
  return { body: person, headers: { ETag: versionEtag(version), "Cache-Control": "private, no-store" } };
});

// PATCH /v1/organizations/{organizationId}/people/{personId} - change a person (JSON merge patch; If-Match against its ETag)
export const PATCH = withApi(
  { scope: "people:write", tenant: organizationOwner, params: personIdParamsSchema, body: personPatchSchema },
  async ({ params, body, caller, request }) => {
    assertMayReadPeople(viewerOf(caller), params.organizationId);
    const { person, version } = await updatePerson(params.organizationId, params.personId, body, ifMatchVersions(request));
    return { body: person, headers: { ETag: versionEtag(version), "Cache-Control": "private, no-store" } };
  },
);

// DELETE /v1/organizations/{organizationId}/people/{personId} - erase a person (409 person_has_animals while an animal is placed with them)
export const DELETE = withApi({ scope: "people:write", tenant: organizationOwner, params: personIdParamsSchema }, async ({ params, caller, now }) => {
  assertMayReadPeople(viewerOf(caller), params.organizationId);
  await erasePerson(params.organizationId, params.personId, now);
  return { status: 204 };
});

export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
