import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { GET as listOrganizations } from "@/app/v1/organizations/route";
import { PageTransitionProvider } from "@/components/shelters/page-transition";
import { PagerLinks } from "@/components/shelters/pager-links";
import { linkCursor } from "@/components/shelters/shelters-query";
import { FormAlert } from "@/components/staff/form-alert";
import { NewOrganizationForm } from "@/components/staff/new-organization-form";
import { OrganizationsTable } from "@/components/staff/organizations-table";
import { StaffOnlyPage } from "@/components/staff/staff-only";
import { linkClass, panelClass } from "@/components/staff/styles";
import type { Organization } from "@/lib/organizations/schemas";
import { countryChoices } from "@/lib/site/countries";
import { serverApi } from "@/lib/site/server-api";

export const metadata: Metadata = { title: "Organisations" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PAGE_SIZE = 50;

// /staff/organizations?cursor= - platform admins: every organisation (by
// name, paged through the API's Link header) and the form that adds one.
export default async function OrganizationsPage({ searchParams }: { searchParams: SearchParams }) {
  const [session, params] = await Promise.all([currentSession(), searchParams]);
  const intro = (
    <div className="space-y-1">
      <h1 className="text-2xl font-bold">Organisations</h1>
      <p className="text-stone-700">
        The shelters and rescues on this service. Each one&rsquo;s staff see and change only its own animals, applications and keys.
      </p>
    </div>
  );
  if (session?.kind !== "staff") {
    return <StaffOnlyPage intro={intro} next="/staff/organizations" doing="manage organisations" />;
  }
  if (!session.platformAdmin) {
    return (
      <div className="space-y-6">
        {intro}
        <div className={`${panelClass} max-w-xl space-y-2`}>
          <h2 className="text-lg font-semibold">For platform admins</h2>
          <p>
            Only the people who run the service add organisations. Your own shelter&rsquo;s details are on{" "}
            <a href="/staff/organization" className={linkClass}>
              its profile
            </a>
            .
          </p>
        </div>
      </div>
    );
  }
  const cursor = typeof params.cursor === "string" && params.cursor ? params.cursor : undefined;
  const res = await serverApi<Organization[]>(
    listOrganizations,
    `/v1/organizations?${new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })}`,
  );
  const href = (rel: "prev" | "next") => {
    const next = linkCursor(res.headers.get("link"), rel);
    return next === undefined ? undefined : `/staff/organizations?${new URLSearchParams({ cursor: next })}`;
  };
  return (
    <div className="space-y-6">
      {intro}
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="orgs-heading" className="min-w-0 space-y-3">
          <h2 id="orgs-heading" className="text-lg font-semibold">
            Every organisation, by name
          </h2>
          {res.status === 200 ? (
            <PageTransitionProvider>
              <div className="space-y-4">
                <OrganizationsTable organizations={res.body} />
                <PagerLinks prevHref={href("prev")} nextHref={href("next")} />
              </div>
            </PageTransitionProvider>
          ) : (
            <FormAlert>
              Could not load the organisations just now{res.status === 429 ? " (too many requests)" : ""}.{" "}
              <a href="/staff/organizations" className={linkClass}>
                Try again
              </a>
            </FormAlert>
          )}
        </section>
        <NewOrganizationForm countries={countryChoices()} />
      </div>
    </div>
  );
}
