import { readDashboard } from "@/lib/dashboard/service";
import { otherMethods, withApi } from "@/lib/http/handler";

// GET /v1/dashboard - the shelter at a glance: animals by status, applications waiting, intakes and adoptions per week (staff sessions only)
export const GET = withApi({ scope: "audit:read" }, async () => ({ body: await readDashboard(), headers: { "Cache-Control": "no-store" } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
