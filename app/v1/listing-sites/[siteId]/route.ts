import { writeContext } from "@/lib/http/actor";
import { otherMethods, withApi } from "@/lib/http/handler";
import { listingSiteOwner } from "@/lib/http/tenant";
import { listingSiteIdParamsSchema, listingSitePatchSchema } from "@/lib/listings/uploads/schemas";
import { deleteListingSite, getListingSite, updateListingSite } from "@/lib/listings/uploads/service";

// GET /v1/listing-sites/{siteId} - one account, with its last upload
export const GET = withApi({ scope: "listings:manage", tenant: listingSiteOwner, params: listingSiteIdParamsSchema }, async ({ caller, params }) => ({
  body: await getListingSite(params.siteId, caller.tenancy),
}));

// PATCH /v1/listing-sites/{siteId} - change its server, credentials or account id, or switch it on and off (a new server or user needs the password again); audited
export const PATCH = withApi(
  { scope: "listings:manage", tenant: listingSiteOwner, params: listingSiteIdParamsSchema, body: listingSitePatchSchema },
  async ({ caller, params, body, requestId }) => ({ body: await updateListingSite(params.siteId, body, writeContext(caller, requestId)) }),
);

// DELETE /v1/listing-sites/{siteId} - remove it with its uploads log (the site keeps what it last received); audited
export const DELETE = withApi(
  { scope: "listings:manage", tenant: listingSiteOwner, params: listingSiteIdParamsSchema },
  async ({ caller, params, requestId }) => {
    await deleteListingSite(params.siteId, writeContext(caller, requestId));
    return { status: 204 };
  },
);

export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
