import { otherMethods, withApi } from "@/lib/http/handler";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { importOwner } from "@/lib/http/tenant";
import { importIdParamsSchema, listImportIssuesQuerySchema } from "@/lib/imports/schemas";
import { listImportIssues } from "@/lib/imports/service";
import { organizationScope } from "@/lib/organizations/tenancy";
import { recordsOf, viewerOf } from "@/lib/visibility/policy";

// GET /v1/imports/{importId}/issues - the import's report (rejected rows, photos not stored), a page at a time
export const GET = withApi(
  { scope: "pets:write", tenant: importOwner, params: importIdParamsSchema, query: listImportIssuesQuerySchema },
  async ({ params, query, caller, url }) => {
    // The import is the caller's organisation's (importOwner): whether its entries quote the recorded stays is the policy's.
    const { issues, next } = await listImportIssues(params.importId, organizationScope(caller.tenancy), query, recordsOf(viewerOf(caller)) !== null);
    return { body: issues, headers: { "Cache-Control": "no-store", Link: linkHeader({ next: next && withCursor(url, next) }) } };
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
