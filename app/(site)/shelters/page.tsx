import type { Metadata } from "next";
import { GET as listOrganizationsGET } from "@/app/v1/organizations/route";
import { textLinkClass } from "@/components/pets/styles";
import { BusyRegion } from "@/components/shelters/busy-region";
import { BusySpinner } from "@/components/shelters/busy-spinner";
import { LoadFailed } from "@/components/shelters/load-failed";
import { PageTransitionProvider } from "@/components/shelters/page-transition";
import { PagerLinks } from "@/components/shelters/pager-links";
import { ShelterCard } from "@/components/shelters/shelter-card";
import { ShelterSearch } from "@/components/shelters/shelter-search";
import { linkCursor, nearLabel, nearProblem, parseSheltersQuery, sheltersApiPath, sheltersHref, widerThan, type SheltersQuery } from "@/components/shelters/shelters-query";
import { TransitionLink } from "@/components/shelters/transition-link";
import type { ErrorBody } from "@/lib/http/errors";
import { WITHIN_CHOICES_MI } from "@/lib/organizations/units";
import type { Organization } from "@/lib/organizations/schemas";
import { plainError } from "@/lib/site/plain-error";
import { serverApi } from "@/lib/site/server-api";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function readQuery(searchParams: SearchParams): Promise<SheltersQuery> {
  const params = await searchParams;
  return parseSheltersQuery((name) => params[name]);
}

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { near } = await readQuery(searchParams);
  return {
    title: near ? `Shelters near ${nearLabel(near)}` : "Shelters",
    description: "Animal shelters and rescues: find the ones near you, and the animals waiting at each.",
  };
}

// /shelters?near=&within=&cursor= - the shelters directory: by name, or
// nearest first from a ZIP code or the browser's location. Drawn on the
// server from GET /v1/organizations (the same handler partners call); the
// search form and Previous/Next are a GET form and links, shown in place
// once the page's script runs (components/shelters/page-transition.tsx).
export default async function SheltersPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await readQuery(searchParams);
  const res = await serverApi<Organization[] | ErrorBody>(listOrganizationsGET, sheltersApiPath(query));
  const error = res.status === 200 ? undefined : plainError(res);
  const problem = error && nearProblem(error, query.near);
  const shelters = res.status === 200 ? (res.body as Organization[]) : undefined;
  const link = res.headers.get("link");
  const cursorHref = (rel: "prev" | "next") => {
    const cursor = linkCursor(link, rel);
    return cursor === undefined ? undefined : sheltersHref({ ...query, cursor });
  };
  const where = query.near ? `within ${query.within} mi of ${nearLabel(query.near)}` : undefined;
  const wider = widerThan(query.within);

  return (
    <PageTransitionProvider>
      <div className="space-y-6">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold text-stone-900">Shelters</h1>
          <p className="text-stone-700">The shelters and rescues whose animals are on Petstore. Search near you to see the closest first.</p>
        </div>

        <ShelterSearch near={query.near} within={query.within} choices={WITHIN_CHOICES_MI} problem={problem} />

        <section aria-labelledby="shelters-heading" className="space-y-4">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <h2 id="shelters-heading" className="text-xl font-semibold text-stone-900">
              {problem ? "Where should we look?" : where ? `Nearest first, ${where}` : "Every shelter, by name"}
            </h2>
            <BusySpinner />
          </div>
          <BusyRegion className="space-y-6">
            {problem ? (
              <p className="text-stone-700">Correct the place above, or use your location, to see the shelters near it.</p>
            ) : error ? (
              <LoadFailed
                title="We couldn’t load the shelters"
                error={error}
                firstPageHref={error.code === "invalid_cursor" ? sheltersHref({ ...query, cursor: undefined }) : undefined}
              />
            ) : shelters && shelters.length === 0 ? (
              <div className="rounded-xl border border-stone-200 bg-white px-6 py-8 text-center">
                <p className="text-lg font-semibold text-stone-900">
                  {where ? `No shelters ${where}` : "No shelters yet"}
                  {where && wider ? " — try a wider distance." : "."}
                </p>
                {query.near && wider ? (
                  <p className="mt-3">
                    <TransitionLink href={sheltersHref({ near: query.near, within: wider })} scroll={false} className={textLinkClass}>
                      Search within {wider} miles
                    </TransitionLink>
                  </p>
                ) : null}
              </div>
            ) : shelters ? (
              <>
                <ul aria-labelledby="shelters-heading" className="grid gap-4 md:grid-cols-2">
                  {shelters.map((organization) => (
                    <li key={organization.id}>
                      <ShelterCard organization={organization} headingLevel={3} />
                    </li>
                  ))}
                </ul>
                <PagerLinks prevHref={cursorHref("prev")} nextHref={cursorHref("next")} />
              </>
            ) : null}
          </BusyRegion>
        </section>
      </div>
    </PageTransitionProvider>
  );
}
