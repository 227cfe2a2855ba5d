import { otherMethods, withApi } from "@/lib/http/handler";
import { ifNoneMatchMatches } from "@/lib/core/conditional";
import { csvDownload } from "@/lib/http/responses";
import { listingFeedParamsSchema } from "@/lib/listings/uploads/schemas";
import { listingFeed } from "@/lib/listings/uploads/feed";

// GET /v1/organizations/{organizationId}/listings/{site}.csv - the file an upload to that site would send now, byte for byte (for partners that fetch).
// Kept per instance until the organisation's animals change (lib/listings/uploads/feed.ts); a download, never a page a browser renders or sniffs.
export const GET = withApi({ scope: "pets:read", tenant: "public", params: listingFeedParamsSchema }, async ({ params, request, now }) => {
  const { bytes, etag } = await listingFeed(params.organizationId, params.file, now);
  if (ifNoneMatchMatches(request, etag)) return { status: 304, headers: { ETag: etag, "Cache-Control": "private, no-cache" } };
  return csvDownload(bytes, `${params.file}.csv`, etag);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
