import type { Metadata } from "next";
import { currentSession, organizationForStaff } from "@/app/(staff)/staff-data";
import { GET as getDashboard } from "@/app/v1/dashboard/route";
import { GET as listListingSites } from "@/app/v1/listing-sites/route";
import { ListingSitesWarning } from "@/components/staff/listing-sites-warning";
import type { ListingSiteView } from "@/lib/listings/uploads/schemas";
import { DashboardView } from "@/components/staff/dashboard-view";
import { FormAlert } from "@/components/staff/form-alert";
import { StaffOnly } from "@/components/staff/staff-only";
import { WaitingForSection } from "@/components/staff/waiting-for";
import { linkClass } from "@/components/staff/styles";
import type { Dashboard } from "@/lib/dashboard/schemas";
import { serverApi } from "@/lib/site/server-api";

export const metadata: Metadata = { title: "Dashboard" };

// /staff - staff's landing page after sign-in: the shelter at a glance.
// Drawn entirely on the server from GET /v1/dashboard (the chart is SVG), so
// it ships no script of its own.
export default async function DashboardPage() {
  const session = await currentSession();
  const own = session?.kind === "staff" && !session.platformAdmin ? session.organizationId : null;
  const [dashboard, profile, listingSites] = await Promise.all([
    session?.kind === "staff" ? serverApi<Dashboard>(getDashboard, "/v1/dashboard") : null,
    own === null ? null : organizationForStaff(own),
    session?.kind === "staff" ? serverApi<ListingSiteView[]>(listListingSites, "/v1/listing-sites") : null,
  ]);
  // A one-shelter install moved to organisations has no address yet: near searches cannot find it.
  const unplaced = profile?.organization && (profile.organization.address === null || profile.organization.location === null);
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Dashboard</h1>
        <p className="text-stone-700">
          {session?.kind === "staff" && session.platformAdmin ? "Every organisation at a glance" : "The shelter at a glance"}: animals, applications that need
          you, and how adoptions are going.
        </p>
      </div>
      {unplaced ? (
        <div role="note" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          <p>
            <span className="font-semibold">Add your shelter&rsquo;s address so adopters can find it near them.</span> Searches by ZIP code or location only
            show shelters whose place is known.
          </p>
          <a href="/staff/organization" className={linkClass}>
            Add the address
          </a>
        </div>
      ) : null}
      {listingSites?.status === 200 ? <ListingSitesWarning sites={listingSites.body} now={new Date()} /> : null}
      {dashboard === null ? (
        <StaffOnly next="/staff" doing="see the dashboard" />
      ) : dashboard.status === 200 ? (
        <>
          <DashboardView dashboard={dashboard.body} />
          <WaitingForSection waitingFor={dashboard.body.waitingFor} />
        </>
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
