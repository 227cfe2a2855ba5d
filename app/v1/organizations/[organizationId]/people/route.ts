import { versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { listPeopleQuerySchema, newPersonSchema } from "@/lib/people/schemas";
import { assertMayReadPeople, createPerson, listPeople } from "@/lib/people/service";
import { viewerOf } from "@/lib/visibility/policy";

// GET /v1/organizations/{organizationId}/people - the organisation's people (fosters among them), by name; keyset-paged through the Link header
export const GET = withApi(
  { scope: "people:read", tenant: organizationOwner, params: organizationIdParamsSchema, query: listPeopleQuerySchema },
  async ({ params, query, caller, url, now }) => {
    assertMayReadPeople(viewerOf(caller), params.organizationId);
    const { people, cursors } = await listPeople(params.organizationId, query, now);
    const link = linkHeader({ next: cursors.next && withCursor(url, cursors.next), prev: cursors.prev && withCursor(url, cursors.prev) });
    return { body: people, headers: { Link: link, "Cache-Control": "private, no-store" } };
  },
);

// POST /v1/organizations/{organizationId}/people - add a person (a foster with `foster`); 409 person_exists for an email the organisation has
export const POST = withApi(
  { scope: "people:write", tenant: organizationOwner, params: organizationIdParamsSchema, body: newPersonSchema },
  async ({ params, body, caller, url }) => {
    assertMayReadPeople(viewerOf(caller), params.organizationId);
    const { person, version } = await createPerson(params.organizationId, body);
    return {
      status: 201,
      body: person,
      headers: { Location: new URL(`${url.pathname}/${person.id}`, url).toString(), ETag: versionEtag(version), "Cache-Control": "private, no-store" },
    };
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
