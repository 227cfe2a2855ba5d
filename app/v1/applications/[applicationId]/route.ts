import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { getApplication } from "@/lib/applications/service";
import { otherMethods, withApi } from "@/lib/http/handler";
import { applicationOwner } from "@/lib/http/tenant";
import { organizationScope } from "@/lib/organizations/tenancy";

// GET /v1/applications/{applicationId} - one application with its steps (staff sessions only)
export const GET = withApi({ scope: "applications:manage", tenant: applicationOwner, params: applicationIdParamsSchema }, async ({ params, caller }) => ({
  body: await getApplication(params.applicationId, organizationScope(caller.tenancy)),
  headers: { "Cache-Control": "no-store" },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
