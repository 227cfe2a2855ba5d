import { withApi, otherMethods } from "@/lib/http/handler";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { listOrganizationsQuerySchema, newOrganizationSchema } from "@/lib/organizations/schemas";
import { createOrganization, listOrganizations } from "@/lib/organizations/service";

// GET /v1/organizations - the shelters and rescues: in name order, or nearest first with `near`; keyset-paged through the Link header
export const GET = withApi({ scope: "pets:read", tenant: "public", query: listOrganizationsQuerySchema }, async ({ query, url }) => {
  const { organizations, cursors } = await listOrganizations(query);
  const link = linkHeader({ next: cursors.next && withCursor(url, cursors.next), prev: cursors.prev && withCursor(url, cursors.prev) });
  return { body: organizations, headers: { Link: link } };
});

// POST /v1/organizations - add a shelter or rescue (platform keys and admins; placed by its US ZIP code when no location is given)
export const POST = withApi({ scope: "organizations:manage", tenant: "platform", body: newOrganizationSchema }, async ({ body, url }) => {
  const organization = await createOrganization(body);
  return { status: 201, body: organization, headers: { Location: new URL(`${url.pathname}/${organization.id}`, url).toString() } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
