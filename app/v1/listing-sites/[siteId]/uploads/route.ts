import { otherMethods, withApi } from "@/lib/http/handler";
import { listingSiteOwner } from "@/lib/http/tenant";
import { listingSiteIdParamsSchema } from "@/lib/listings/uploads/schemas";
import { listUploads, startUpload } from "@/lib/listings/uploads/service";

// GET /v1/listing-sites/{siteId}/uploads - the last 20 uploads, newest first
export const GET = withApi({ scope: "listings:manage", tenant: listingSiteOwner, params: listingSiteIdParamsSchema }, async ({ caller, params }) => ({
  body: await listUploads(params.siteId, caller.tenancy),
}));

// POST /v1/listing-sites/{siteId}/uploads - upload now (queued: 202 with the upload, running until it ends)
export const POST = withApi({ scope: "listings:manage", tenant: listingSiteOwner, params: listingSiteIdParamsSchema }, async ({ caller, params }) => ({
  status: 202,
  body: await startUpload(params.siteId, caller.tenancy),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
