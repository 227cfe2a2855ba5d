import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { MONTHS_MAX, monthlyReportQuerySchema, monthlyReportSchema, NETWORK_MONTHS_MAX, networkReportQuerySchema } from "@/lib/reports/schemas";

// The monthly report in the contract (issue 42): one organisation's, as JSON
// and as CSV in the Basic Data Matrix's layout, and the network's (platform).

const RULES = [
  "Months are calendar months in the organisation's time zone (`timeZone`); a stay counts in the month of its intake's day (intakes) and of its outcome's day (outcomes), those days taken in that zone when the stay was recorded; a date given without a time is that day, never shifted.",
  "Species: the Dogs category is `dog`, Cats is `cat`, every other category is `other`.",
  "Age on the intake's day (intakes) or the outcome's day (outcomes): `juvenile` when the day is earlier than five calendar months after the animal's birth date (born 31 January: juvenile up to 29 June), `adult` otherwise, `unknownAge` without a birth date.",
  "`beginningCount`: stays that began before the month's first day and had not ended before it; `endingCount` is the next month's `beginningCount`, so `endingCount = beginningCount + intakes − outcomes` every month.",
  "`liveReleaseRate`: live outcomes (adoption, returnedToOwner, transferredOut, returnedToField, otherLiveOutcome) over all outcomes minus `ownerIntendedEuthanasia`; null when that is 0.",
  "`medianLengthOfStayDays` (not in the matrix): the median of (outcome day − intake day) over the month's outcomes.",
].join("\n\n");

const csvHeaders = (example: string) => ({
  ...COMMON_HEADERS,
  "Content-Disposition": header(`\`attachment; filename="${example}"\`: a download.`),
  "X-Content-Type-Options": header("`nosniff`: a browser saves the file, never renders it."),
});

const CSV_LAYOUT =
  "One block per month: a line `Month YYYY-MM` (with the time zone), a header line (Category, then for Dogs, Cats and Other: Adult, Up to 5 months, Age unknown, Total), then a row per category: Beginning count, Beginning count: in foster homes (of the beginning count), the five intake categories, Total intakes, the nine outcome categories, Total outcomes, Ending count, Ending count: in foster homes, Live release rate (a percentage); the counts and the rate sit in each species' Total column. A blank line ends each block. CRLF line ends, UTF-8.";

export function registerReports(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  const invalidQuery = errorResponse(
    400,
    ["invalid_query", "invalid_path"],
    {},
    `\`from\` or \`to\` is not a month written YYYY-MM, \`to\` is before \`from\`, or the range is longer than ${MONTHS_MAX} months: \`details\` names the parameter.`,
  );
  const organizationErrors = {
    400: invalidQuery,
    403: errorResponse(403, ["forbidden"], {}, "The key lacks `records:read`, or the organisation is not the caller's."),
    404: errorResponse(404, ["not_found"], {}, "There is no organisation with this id."),
  };

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/reports/monthly",
    operationId: "getMonthlyReport",
    summary: "An organisation's monthly report",
    description: `The Basic Data Matrix of Shelter Animals Count, month by month, from the animals' stays: intakes and outcomes by category, species and age, the animals in care at the start and end of each month, and the live release rate. The organisation's staff and its keys with \`records:read\` (and platform callers).\n\n${RULES}`,
    tags: ["reports"],
    security,
    request: { params: organizationIdParamsSchema, query: monthlyReportQuerySchema },
    responses: {
      200: {
        description: "Every month of the range, oldest first.",
        headers: COMMON_HEADERS,
        content: { "application/json": { schema: monthlyReportSchema } },
      },
      ...commonErrors(),
      ...organizationErrors,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/reports/monthly.csv",
    operationId: "getMonthlyReportCsv",
    summary: "An organisation's monthly report as CSV",
    description: `The same range as \`getMonthlyReport\`, in the matrix's layout, to copy into the national database's form. ${CSV_LAYOUT}`,
    tags: ["reports"],
    security,
    request: { params: organizationIdParamsSchema, query: monthlyReportQuerySchema },
    responses: {
      200: {
        description: "The report (UTF-8 CSV).",
        headers: csvHeaders("monthly-report-1-2021-01_2021-12.csv"),
        content: { "text/csv": { schema: z.string() } },
      },
      ...commonErrors(),
      ...organizationErrors,
    },
  });

  const networkInvalidQuery = errorResponse(
    400,
    ["invalid_query"],
    {},
    `\`from\` or \`to\` is not a month written YYYY-MM, \`to\` is before \`from\`, or the range is longer than ${NETWORK_MONTHS_MAX} months (the whole network's report reads every shelter's stays of the range: a longer one would run past the statement timeout; ask for it a year at a time): \`details\` names the parameter.`,
  );
  const platformOnly = errorResponse(403, ["forbidden"], {}, "Only platform keys with `records:read` and platform admins read the network's report.");
  registry.registerPath({
    method: "get",
    path: "/reports/monthly",
    operationId: "getNetworkMonthlyReport",
    summary: "The whole network's monthly report",
    description: `Every organisation's report summed (platform keys with \`records:read\` and platform admins). \`organizationId\` and \`timeZone\` are null: each shelter's months are its own zone's. The default range ends with UTC's current month. At most ${NETWORK_MONTHS_MAX} months per request (an organisation's report: ${MONTHS_MAX}): ask for a longer span a year at a time.\n\n${RULES}`,
    tags: ["reports"],
    security,
    request: { query: networkReportQuerySchema },
    responses: {
      200: {
        description: "Every month of the range, oldest first.",
        headers: COMMON_HEADERS,
        content: { "application/json": { schema: monthlyReportSchema } },
      },
      ...commonErrors(),
      400: networkInvalidQuery,
      403: platformOnly,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/reports/monthly.csv",
    operationId: "getNetworkMonthlyReportCsv",
    summary: "The whole network's monthly report as CSV",
    description: `The same as \`getNetworkMonthlyReport\`, in the matrix's layout. ${CSV_LAYOUT}`,
    tags: ["reports"],
    security,
    request: { query: networkReportQuerySchema },
    responses: {
      200: {
        description: "The report (UTF-8 CSV).",
        headers: csvHeaders("monthly-report-network-2021-01_2021-12.csv"),
        content: { "text/csv": { schema: z.string() } },
      },
      ...commonErrors(),
      400: networkInvalidQuery,
      403: platformOnly,
    },
  });
}
