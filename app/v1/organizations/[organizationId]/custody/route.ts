import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { listCustody } from "@/lib/placements/custody";
import { custodyQuerySchema } from "@/lib/placements/schemas";
import { custodyViewOf, viewerOf } from "@/lib/visibility/policy";

// GET /v1/organizations/{organizationId}/custody - the organisation's animals in care and where each is: at the shelter or in a foster home (its staff and records:read keys; the foster's name for readers of its people)
export const GET = withApi(
  { scope: "records:read", tenant: organizationOwner, params: organizationIdParamsSchema, query: custodyQuerySchema },
  async ({ params, query, url, caller }) => {
    const { entries, cursors } = await listCustody(params.organizationId, query, custodyViewOf(viewerOf(caller), params.organizationId));
    return {
      body: entries,
      headers: {
        Link: linkHeader({ next: cursors.next && withCursor(url, cursors.next), prev: cursors.prev && withCursor(url, cursors.prev) }),
        "Cache-Control": "private, no-store",
      },
    };
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
