import { otherMethods, withApi } from "@/lib/http/handler";
import { networkReportQuerySchema } from "@/lib/reports/schemas";
import { networkReport } from "@/lib/reports/service";

// GET /v1/reports/monthly - the same for the whole network, every organisation summed (platform admins and platform keys)
export const GET = withApi({ scope: "records:read", tenant: "platform", query: networkReportQuerySchema }, async ({ query, now }) => ({
  body: await networkReport(query, now),
  headers: { "Cache-Control": "private, no-store" },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
