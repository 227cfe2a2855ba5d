import { otherMethods, withApi } from "@/lib/http/handler";
import { csvDownload } from "@/lib/http/responses";
import { monthlyReportCsv } from "@/lib/reports/csv";
import { networkReportQuerySchema } from "@/lib/reports/schemas";
import { networkReport } from "@/lib/reports/service";

// GET /v1/reports/monthly.csv - the network's report as CSV in the matrix's layout (platform admins and platform keys)
export const GET = withApi({ scope: "records:read", tenant: "platform", query: networkReportQuerySchema }, async ({ query, now }) => {
  const report = await networkReport(query, now);
  return csvDownload(monthlyReportCsv(report), `monthly-report-network-${report.months[0]!.month}_${report.months.at(-1)!.month}.csv`);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
