import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { GET as listOrganizationsGET } from "@/app/v1/organizations/route";
import { textLinkClass } from "@/components/pets/styles";
import { BusyRegion } from "@/components/shelters/busy-region";
import { BusySpinner } from "@/components/shelters/busy-spinner";
import { LoadFailed } from "@/components/shelters/load-failed";
import { PageTransitionProvider } from "@/components/shelters/page-transition";
import { PagerLinks } from "@/components/shelters/pager-links";
import { ShelterCard } from "@/components/shelters/shelter-card";
import { ShelterSearch } from "@/components/shelters/shelter-search";
import {
  isPosition,
  linkCursor,
  nearProblem,
  parseSheltersQuery,
  sheltersApiPath,
  sheltersHref,
  widerThan,
  type SheltersQuery,
} from "@/components/shelters/shelters-query";
import { TransitionLink } from "@/components/shelters/transition-link";
import type { ErrorBody } from "@/lib/core/errors";
import { WITHIN_CHOICES_MI } from "@/lib/core/units";
import type { Organization } from "@/lib/organizations/schemas";
import { plainError } from "@/lib/site/plain-error";
import { serverApi } from "@/lib/site/server-api";
import { localePath } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/server";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function readQuery(searchParams: SearchParams): Promise<SheltersQuery> {
  const params = await searchParams;
  return parseSheltersQuery((name) => params[name]);
}

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const [{ near }, t] = await Promise.all([readQuery(searchParams), getTranslations("Shelters")]);
  return {
    title: near ? t("titleNear", { place: isPosition(near) ? t("yourLocation") : near }) : t("title"),
    description: t("description"),
  };
}

// /shelters?near=&within=&cursor= - the shelters directory: by name, or
// nearest first from a ZIP code or the browser's location. Drawn on the
// server from GET /v1/organizations (the same handler partners call); the
// search form and Previous/Next are a GET form and links, shown in place
// once the page's script runs (components/shelters/page-transition.tsx).
export default async function SheltersPage({ searchParams }: { searchParams: SearchParams }) {
  const [query, t, locale] = await Promise.all([readQuery(searchParams), getTranslations("Shelters"), pageLocale()]);
  const res = await serverApi<Organization[] | ErrorBody>(listOrganizationsGET, sheltersApiPath(query));
  const error = res.status === 200 ? undefined : plainError(res);
  const problem = error && nearProblem(error, query.near, t);
  const shelters = res.status === 200 ? (res.body as Organization[]) : undefined;
  const link = res.headers.get("link");
  const cursorHref = (rel: "prev" | "next") => {
    const cursor = linkCursor(link, rel);
    return cursor === undefined ? undefined : sheltersHref({ ...query, cursor });
  };
  // This page's own links in its language (PagerLinks adds the prefix itself).
  const here = (q: SheltersQuery) => localePath(locale, sheltersHref(q));
  const where = query.near ? { within: query.within, place: isPosition(query.near) ? t("yourLocation") : query.near } : undefined;
  const wider = widerThan(query.within);

  return (
    <PageTransitionProvider>
      <div className="space-y-6">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold text-stone-900">{t("title")}</h1>
          <p className="text-stone-700">{t("intro")}</p>
        </div>

        <ShelterSearch near={query.near} within={query.within} choices={WITHIN_CHOICES_MI} problem={problem} />

        <section aria-labelledby="shelters-heading" className="space-y-4">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <h2 id="shelters-heading" className="text-xl font-semibold text-stone-900">
              {problem ? t("whereHeading") : where ? t("nearestHeading", where) : t("allHeading")}
            </h2>
            <BusySpinner />
          </div>
          <BusyRegion className="space-y-6">
            {problem ? (
              <p className="text-stone-700">{t("correctPlace")}</p>
            ) : error ? (
              <LoadFailed
                title={t("loadFailed")}
                error={error}
                firstPageHref={error.code === "invalid_cursor" ? here({ ...query, cursor: undefined }) : undefined}
              />
            ) : shelters && shelters.length === 0 ? (
              <div className="rounded-xl border border-stone-200 bg-white px-6 py-8 text-center">
                <p className="text-lg font-semibold text-stone-900">{where ? t(wider ? "noneNearWider" : "noneNear", where) : t("none")}</p>
                {query.near && wider ? (
                  <p className="mt-3">
                    <TransitionLink href={here({ near: query.near, within: wider })} scroll={false} className={textLinkClass}>
                      {t("searchWider", { miles: wider })}
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
