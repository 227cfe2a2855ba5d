import { otherMethods, withApi } from "@/lib/http/handler";
import { organizationOwner } from "@/lib/http/tenant";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { monthlyReportQuerySchema } from "@/lib/reports/schemas";
import { organizationReport } from "@/lib/reports/service";

// GET /v1/organizations/{organizationId}/reports/monthly - the Basic Data Matrix month by month, in the shelter's time zone (its staff and keys with records:read)
export const GET = withApi(
  { scope: "records:read", tenant: organizationOwner, params: organizationIdParamsSchema, query: monthlyReportQuerySchema },
  async ({ params, query, now }) => ({ body: await organizationReport(params.organizationId, query, now), headers: { "Cache-Control": "private, no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
