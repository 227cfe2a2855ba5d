import { readDashboard } from "@/lib/dashboard/service";
import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationScope } from "@/lib/organizations/tenancy";

// GET /v1/dashboard - the shelter at a glance: animals by status, applications waiting, intakes and adoptions per week (staff sessions only)
export const GET = withApi({ scope: "audit:read", tenant: "caller" }, async ({ caller }) => ({
  body: await readDashboard(organizationScope(caller.tenancy)),
  headers: { "Cache-Control": "no-store" },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
