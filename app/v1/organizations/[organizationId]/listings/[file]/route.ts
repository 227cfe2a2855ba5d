import { otherMethods, withApi } from "@/lib/http/handler";
import { ifNoneMatchMatches } from "@/lib/core/conditional";
import { listingFeedParamsSchema } from "@/lib/listings/uploads/schemas";
import { listingFeed } from "@/lib/listings/uploads/feed";

// GET /v1/organizations/{organizationId}/listings/{site}.csv - the file an upload to that site would send now, byte for byte (for partners that fetch).
// Kept per instance until the organisation's animals change (lib/listings/uploads/feed.ts); a download, never a page a browser renders or sniffs.
export const GET = withApi({ scope: "pets:read", tenant: "public", params: listingFeedParamsSchema }, async ({ params, request, now }) => {
  const { bytes, etag } = await listingFeed(params.organizationId, params.file, now);
  const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
  if (ifNoneMatchMatches(request, etag)) return { status: 304, headers };
  return {
    raw: bytes,
    headers: {
      ...headers,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${params.file}.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
