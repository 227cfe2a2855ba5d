import { otherMethods, withApi } from "@/lib/http/handler";
import { csvDownload } from "@/lib/http/responses";
import { organizationOwner } from "@/lib/http/tenant";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { monthlyReportCsv } from "@/lib/reports/csv";
import { monthlyReportQuerySchema } from "@/lib/reports/schemas";
import { organizationReport } from "@/lib/reports/service";

// GET /v1/organizations/{organizationId}/reports/monthly.csv - the same range as CSV in the matrix's layout (a download)
export const GET = withApi(
  { scope: "records:read", tenant: organizationOwner, params: organizationIdParamsSchema, query: monthlyReportQuerySchema },
  async ({ params, query, now }) => {
    const report = await organizationReport(params.organizationId, query, now);
    const range = `${report.months[0]!.month}_${report.months.at(-1)!.month}`;
    return csvDownload(monthlyReportCsv(report), `monthly-report-${params.organizationId}-${range}.csv`);
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
