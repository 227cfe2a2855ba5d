import { withApi, otherMethods } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { organizationIdParamsSchema, organizationPatchSchema } from "@/lib/organizations/schemas";
import { getOrganization, updateOrganization } from "@/lib/organizations/service";

// GET /v1/organizations/{organizationId} - one shelter or rescue: its contact, address and location
export const GET = withApi({ scope: "pets:read", tenant: "public", params: organizationIdParamsSchema }, async ({ params }) => ({
  body: await getOrganization(params.organizationId),
}));

// PATCH /v1/organizations/{organizationId} - change its profile (JSON merge patch): its own staff and keys, or the platform's
export const PATCH = withApi(
  { scope: "organizations:manage", tenant: organizationOwner, params: organizationIdParamsSchema, body: organizationPatchSchema },
  async ({ params, body, caller }) => ({ body: await updateOrganization(params.organizationId, body, caller.tenancy) }),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
