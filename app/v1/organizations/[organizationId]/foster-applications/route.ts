import { listFosterApplicants, submitFosterApplication } from "@/lib/fosters/applications";
import { listFosterApplicantsQuerySchema, newFosterApplicationSchema } from "@/lib/fosters/applications-schemas";
import { clientAddress } from "@/lib/core/client";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { viewerOf } from "@/lib/visibility/policy";

// POST /v1/organizations/{organizationId}/foster-applications - apply to foster for the organisation (the shelter's page, or a partner forwarding it)
export const POST = withApi(
  { scope: "applications:write", tenant: "public", params: organizationIdParamsSchema, body: newFosterApplicationSchema },
  async ({ params, body, caller, request, now }) => ({
    status: 202,
    body: await submitFosterApplication(params.organizationId, body, {
      actor: caller.kind === "key" ? { kind: "api_key", id: Number(caller.keyId) } : { kind: "adopter" },
      address: clientAddress(request),
      now,
    }),
    headers: { "Cache-Control": "no-store" },
  }),
);

// GET /v1/organizations/{organizationId}/foster-applications - staff's inbox: the foster applicants, with what they sent, newest first; keyset-paged through the Link header
export const GET = withApi(
  { scope: "people:read", tenant: organizationOwner, params: organizationIdParamsSchema, query: listFosterApplicantsQuerySchema },
  async ({ params, query, caller, url }) => {
    const { applicants, cursors } = await listFosterApplicants(viewerOf(caller), params.organizationId, query);
    const link = linkHeader({ next: cursors.next && withCursor(url, cursors.next), prev: cursors.prev && withCursor(url, cursors.prev) });
    return { body: applicants, headers: { "Cache-Control": "private, no-store", Link: link } };
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
