import { otherMethods, withApi } from "@/lib/http/handler";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { listingSiteHistoryQuerySchema } from "@/lib/listings/uploads/schemas";
import { listSiteHistory } from "@/lib/listings/uploads/service";

// GET /v1/listing-sites/history - staff: who added, changed and removed the organisation's listing sites, newest first (never API keys)
export const GET = withApi({ scope: "audit:read", tenant: "caller", query: listingSiteHistoryQuerySchema }, async ({ caller, query, url }) => {
  const { entries, next } = await listSiteHistory(query, caller.tenancy);
  return { body: entries, headers: { Link: linkHeader({ next: next && withCursor(url, next) }) } };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
