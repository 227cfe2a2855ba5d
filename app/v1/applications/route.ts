import { applicationListQuerySchema } from "@/lib/applications/schemas";
import { listApplications } from "@/lib/applications/service";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationScope } from "@/lib/organizations/tenancy";

// GET /v1/applications - staff's inbox of adoption applications, newest first (staff sessions only)
export const GET = withApi({ scope: "applications:manage", tenant: "caller", query: applicationListQuerySchema }, async ({ query, caller }) => {
  const { applications, next } = await listApplications(query, organizationScope(caller.tenancy));
  return { body: applications, headers: { "Cache-Control": "no-store", ...(next ? { "X-Next-Before": String(next) } : {}) } };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
