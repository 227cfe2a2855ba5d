import { getTranslations } from "next-intl/server";
import { localePath } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/server";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { GET as categoriesGET } from "@/app/v1/categories/route";
import { GET as listOrganizationsGET } from "@/app/v1/organizations/route";
import { GET as listPetsGET } from "@/app/v1/pets/route";
import { FosterApplyPanel } from "@/components/fosters/foster-apply-panel";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { PetCards } from "@/components/pets/pet-card";
import { textLinkClass } from "@/components/pets/styles";
import { BusyRegion } from "@/components/shelters/busy-region";
import { BusySpinner } from "@/components/shelters/busy-spinner";
import { LoadFailed } from "@/components/shelters/load-failed";
import { PageTransitionProvider } from "@/components/shelters/page-transition";
import { PagerLinks } from "@/components/shelters/pager-links";
import { ShelterContact } from "@/components/shelters/shelter-contact";
import { placeLine } from "@/components/shelters/shelter-format";
import { linkCursor } from "@/components/shelters/shelters-query";
import type { ErrorBody } from "@/lib/core/errors";
import type { Organization } from "@/lib/organizations/schemas";
import type { Category, Pet } from "@/lib/pets/schemas/pet";
import { plainError } from "@/lib/site/plain-error";
import { serverApi } from "@/lib/site/server-api";
import { manyShelters } from "@/lib/site/shelter-count";

type Params = Promise<{ slug: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A screenful of cards: three rows of four on a wide screen, four of three, six of two. */
const SHELTER_PETS_PAGE_SIZE = 12;
/** The browse page's grid (components/pets/pet-browser.tsx), whose column widths the cards' image sizes assume. */
const GRID = "grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4";

type ShelterResult = { kind: "found"; organization: Organization } | { kind: "missing" } | { kind: "failed"; error: ReturnType<typeof plainError> };

// One call per request, shared by generateMetadata and the page (each call is rate-limited).
const loadShelter = cache(async (slug: string): Promise<ShelterResult> => {
  // Not a slug at all: no need to ask the API to say so.
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 100) return { kind: "missing" };
  const res = await serverApi<Organization[] | ErrorBody>(listOrganizationsGET, `/v1/organizations?slug=${slug}&limit=1`);
  if (res.status === 200) {
    const [organization] = res.body as Organization[];
    return organization ? { kind: "found", organization } : { kind: "missing" };
  }
  return { kind: "failed", error: plainError(res) };
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const result = await loadShelter((await params).slug);
  const t = await getTranslations("Shelter");
  if (result.kind !== "found") return { title: result.kind === "missing" ? t("notFoundTitle") : t("unavailableTitle") };
  const { organization } = result;
  const description = organization.address
    ? t("descriptionIn", { name: organization.name, place: placeLine(organization.address) })
    : t("description", { name: organization.name });
  return { title: organization.name, description };
}

// /shelters/<slug>?cursor= - one shelter: its address and contact, and the
// animals waiting there for a home (GET /v1/pets?organizationId=&status=available),
// a page of cards at a time. Drawn on the server, like the animal's page.
export default async function ShelterPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const [{ slug }, search] = await Promise.all([params, searchParams]);
  const [result, t, locale] = await Promise.all([loadShelter(slug), getTranslations("Shelter"), pageLocale()]);
  if (result.kind === "missing") notFound();
  if (result.kind === "failed") {
    return (
      <div className="space-y-6">
        <BackToBrowseLink />
        <LoadFailed title={t("loadFailed")} error={result.error} />
      </div>
    );
  }
  const { organization } = result;
  const cursor = typeof search.cursor === "string" && search.cursor ? search.cursor : undefined;
  const petsPath = `/v1/pets?${new URLSearchParams({ organizationId: String(organization.id), status: "available", limit: String(SHELTER_PETS_PAGE_SIZE), ...(cursor ? { cursor } : {}) })}`;
  const [pets, categories, many] = await Promise.all([
    serverApi<Pet[] | ErrorBody>(listPetsGET, petsPath),
    serverApi<Category[] | ErrorBody>(categoriesGET, "/v1/categories"),
    manyShelters(await headers()),
  ]);
  const here = `/shelters/${organization.slug}`;
  const pageHref = (rel: "prev" | "next") => {
    const next = linkCursor(pets.headers.get("link"), rel);
    return next === undefined ? undefined : `${here}?${new URLSearchParams({ cursor: next })}`;
  };
  const error = pets.status === 200 ? undefined : plainError(pets);
  const animals = pets.status === 200 ? (pets.body as Pet[]) : undefined;

  return (
    <PageTransitionProvider>
      <div className="space-y-6">
        {many ? (
          <p>
            <a href={localePath(locale, "/shelters")} className={textLinkClass}>
              <span aria-hidden="true">←</span> {t("allShelters")}
            </a>
          </p>
        ) : (
          <BackToBrowseLink />
        )}

        <div className="grid gap-6 rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="min-w-0 space-y-2">
            <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">{organization.name}</h1>
            {organization.address ? <p className="text-lg text-stone-700">{placeLine(organization.address)}</p> : null}
            <p className="text-stone-700">{t("intro")}</p>
          </div>
          <section aria-labelledby="contact-heading" className="min-w-0 space-y-2 border-t border-stone-200 pt-4 md:border-t-0 md:border-l md:pt-0 md:pl-6">
            <h2 id="contact-heading" className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
              {t("visitOrContact")}
            </h2>
            <ShelterContact organization={organization} />
          </section>
        </div>

        <section aria-labelledby="animals-heading" className="space-y-4">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <h2 id="animals-heading" className="text-2xl font-semibold text-stone-900 wrap-anywhere">
              {t("waiting", { name: organization.name })}
            </h2>
            <BusySpinner />
          </div>
          <BusyRegion className="space-y-6">
            {error ? (
              <LoadFailed title={t("animalsFailed")} error={error} firstPageHref={error.code === "invalid_cursor" ? here : undefined} />
            ) : animals && animals.length === 0 ? (
              <div className="rounded-xl border border-stone-200 bg-white px-6 py-8 text-center">
                <p className="text-lg font-semibold text-stone-900">{cursor ? t("noMoreOnPage") : t("noneWaiting")}</p>
                <p className="mt-2 text-stone-700">
                  {cursor ? (
                    <a href={localePath(locale, here)} className={textLinkClass}>
                      {t("firstPage")}
                    </a>
                  ) : (
                    t.rich("newOnes", {
                      link: (chunks) => (
                        <a href={localePath(locale, "/?status=available")} className={textLinkClass}>
                          {chunks}
                        </a>
                      ),
                    })
                  )}
                </p>
              </div>
            ) : animals ? (
              <>
                <ul aria-labelledby="animals-heading" className={GRID}>
                  <PetCards pets={animals} categories={categories.status === 200 ? (categories.body as Category[]) : undefined} />
                </ul>
                <PagerLinks prevHref={pageHref("prev")} nextHref={pageHref("next")} />
              </>
            ) : null}
          </BusyRegion>
        </section>

        <FosterApplyPanel organization={{ id: organization.id, name: organization.name, country: organization.address?.country ?? null }} />
      </div>
    </PageTransitionProvider>
  );
}
