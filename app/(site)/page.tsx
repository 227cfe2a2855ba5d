import type { Metadata } from "next";
import { GET as categoriesGET } from "@/app/v1/categories/route";
import { GET as listPetsGET } from "@/app/v1/pets/route";
import { GET as listOrganizationsGET } from "@/app/v1/organizations/route";
import type { Organization } from "@/lib/organizations/schemas";
import type { ErrorBody } from "@/lib/core/errors";
import type { Category, Pet } from "@/lib/pets/schemas/pet";
import { headers } from "next/headers";
import { getMessages, getTranslations } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";
import { pageLocale } from "@/lib/i18n/server";
import { serverApi } from "@/lib/site/server-api";
import { manyShelters } from "@/lib/site/shelter-count";
import { browseHeading, parseBrowseQuery, type BrowseQuery, type InitialBrowse, type PetPage } from "@/components/pets/browse-query";
import { type PlainApiError } from "@/lib/site/plain-error";
import { PetBrowser } from "@/components/pets/pet-browser";
import { cardPet, PetCards } from "@/components/pets/pet-card";
import { PetCardSkeleton } from "@/components/pets/pet-card-skeleton";
import { petsApiPath, shelterSummaries, sheltersApiQuery } from "@/components/pets/pets-api-query";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function readQuery(searchParams: SearchParams) {
  const params = await searchParams;
  return parseBrowseQuery((name) => params[name]);
}

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: browseHeading((await readQuery(searchParams)).status, await getTranslations("Browse")) };
}

function plainError(status: number, body: unknown, headers: Headers): PlainApiError {
  const error = (body ?? {}) as Partial<ErrorBody>;
  const retry = headers.get("retry-after");
  return {
    status,
    code: error.code ?? "unknown_error",
    message: error.message ?? `The server answered ${status}.`,
    ...(retry && /^\d+$/.test(retry) ? { retryAfter: Number(retry) } : {}),
  };
}

/** The page's animals' shelters, for the cards' shelter line; none when that call fails (the cards do without). */
async function sheltersOf(pets: PetPage["pets"]): Promise<PetPage["shelters"]> {
  const query = sheltersApiQuery(pets);
  if (!query) return {};
  const res = await serverApi<Organization[] | ErrorBody>(listOrganizationsGET, `/v1/organizations?id=${query.id.join(",")}&limit=${query.limit}`);
  return res.status === 200 ? shelterSummaries(res.body as Organization[]) : undefined;
}

/** The first page and the categories, through the same /v1 handlers the browser calls (same session, limits and validation). */
async function loadInitial(query: BrowseQuery): Promise<InitialBrowse> {
  const [pets, categories, many] = await Promise.all([
    serverApi<Pet[] | ErrorBody>(listPetsGET, petsApiPath(query)),
    serverApi<Category[] | ErrorBody>(categoriesGET, "/v1/categories"),
    headers().then(manyShelters),
  ]);
  // Of each animal, only what its card shows: the browser gets this page too.
  const page: PetPage | undefined = pets.status === 200 ? { pets: (pets.body as Pet[]).map(cardPet), link: pets.headers.get("link") } : undefined;
  if (page && many) page.shelters = await sheltersOf(page.pets);
  return {
    query,
    fetchedAt: Date.now(),
    manyShelters: many,
    ...(page ? { page } : { error: plainError(pets.status, pets.body, pets.headers) }),
    ...(categories.status === 200 ? { categories: categories.body as Category[] } : {}),
  };
}

// The first page is rendered on the server, so it shows without JavaScript;
// the client then takes over with that page as its initial data. Its cards,
// the loading placeholder and the intro are server components: the browser
// gets the card's code only when it draws another page
// (components/pets/pet-browser.tsx).
export default async function BrowsePage({ searchParams }: { searchParams: SearchParams }) {
  const [initial, t, locale, messages] = await Promise.all([readQuery(searchParams).then(loadInitial), getTranslations("Browse"), pageLocale(), getMessages()]);
  return (
    <PetBrowser
      locale={locale}
      messages={clientMessages(messages)}
      initial={initial}
      firstCards={initial.page && <PetCards pets={initial.page.pets} categories={initial.categories} shelters={initial.page.shelters} />}
      skeleton={<PetCardSkeleton />}
      intro={<p className="mt-1 text-stone-700">{t("intro")}</p>}
    />
  );
}
