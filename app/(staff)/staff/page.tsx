import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { GET as getDashboard } from "@/app/v1/dashboard/route";
import { DashboardView } from "@/components/staff/dashboard-view";
import { FormAlert } from "@/components/staff/form-alert";
import { StaffOnly } from "@/components/staff/staff-only";
import { linkClass } from "@/components/staff/styles";
import type { Dashboard } from "@/lib/dashboard/schemas";
import { serverApi } from "@/lib/site/server-api";

export const metadata: Metadata = { title: "Dashboard" };

// /staff - staff's landing page after sign-in: the shelter at a glance.
// Drawn entirely on the server from GET /v1/dashboard (the chart is SVG), so
// it ships no script of its own.
export default async function DashboardPage() {
  const session = await currentSession();
  const dashboard = session?.kind === "staff" ? await serverApi<Dashboard>(getDashboard, "/v1/dashboard") : null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Dashboard</h1>
        <p className="text-stone-700">The shelter at a glance: animals, applications that need you, and how adoptions are going.</p>
      </div>
      {dashboard === null ? (
        <StaffOnly next="/staff" doing="see the dashboard" />
      ) : dashboard.status === 200 ? (
        <DashboardView dashboard={dashboard.body} />
      ) : (
        <FormAlert>
          Could not read the figures just now{dashboard.status === 429 ? " (too many requests)" : ""}.{" "}
          <a href="/staff" className={linkClass}>
            Try again
          </a>
        </FormAlert>
      )}
    </div>
  );
}
