"use client";

import { QueryClient, QueryObserver, keepPreviousData } from "@tanstack/react-query";
import { browseHref, type BrowseQuery, type PetPage } from "@/components/pets/browse-query";
import { petsApiQuery, shelterSummaries, sheltersApiQuery } from "@/components/pets/pets-api-query";
import { QUERY_DEFAULTS } from "@/components/query-defaults";
import { call } from "@/lib/site/typed-client";
import { withNextIntl } from "@/lib/i18n/next-intl-bridge";
import { BrowseEmptyState as EmptyState } from "@/components/pets/browse-empty-state";
import { BrowseLoadError as LoadError } from "@/components/pets/browse-load-error";
import { PetCards as Cards } from "@/components/pets/pet-card";

// What the browse page needs only for what the server did not render:
// fetching another page (react-query, through the typed client), its
// cards, the empty state and the load error. One chunk, loaded when the
// view first changes or has nothing to show (components/pets/use-pets.ts
// loadBrowseLater); the first page, whose JavaScript budget is 150 kB
// (goal 140), carries none of it: react-query alone is 12 kB. Nor
// next-intl's client runtime: these parts say their words through it, so
// they come under its provider, over the page's messages (the first page's
// controls use lib/i18n/client-translator.tsx).

export const BrowseEmptyState = withNextIntl(EmptyState);
export const BrowseLoadError = withNextIntl(LoadError);
export const PetCards = withNextIntl(Cards);

/**
 * One page of animals for a view, from /v1/pets, and (with several
 * shelters) their shelters for the cards, from /v1/organizations; the
 * cards do without those when that second call fails.
 */
export async function fetchPets(query: BrowseQuery, signal: AbortSignal, manyShelters: boolean): Promise<PetPage> {
  const res = await call((api) => api.GET("/pets", { params: { query: petsApiQuery(query) }, signal }));
  const page: PetPage = { pets: res.data, link: res.headers.get("link") };
  const shelters = manyShelters ? sheltersApiQuery(page.pets) : undefined;
  if (shelters) {
    page.shelters = await call((api) => api.GET("/organizations", { params: { query: shelters }, signal })).then(
      (found) => shelterSummaries(found.data),
      () => undefined,
    );
  }
  return page;
}

/** The react-query key of a view's page. */
const petsKey = (query: BrowseQuery) => ["browse-pets", browseHref(query)] as const;

/**
 * The browse page's react-query client and the observer of its current
 * view, seeded with the page the server rendered (fresh for staleTime from
 * when it was fetched). The page stays on screen while the next view loads
 * (keepPreviousData), as with useQuery elsewhere on the site.
 */
export function browseObserver(initial: { query: BrowseQuery; page: PetPage; fetchedAt: number } | undefined, manyShelters: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: QUERY_DEFAULTS } });
  if (initial) client.setQueryData(petsKey(initial.query), initial.page, { updatedAt: initial.fetchedAt });
  const options = (query: BrowseQuery, enabled: boolean) => ({
    queryKey: petsKey(query),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchPets(query, signal, manyShelters),
    enabled,
    placeholderData: keepPreviousData,
  });
  const observer = new QueryObserver<PetPage>(client, options(initial?.query ?? ({ limit: 20 } as BrowseQuery), false));
  return {
    observer,
    /** Follow another view (or the same one, enabled or not): after rendering, as useQuery does. */
    watch: (query: BrowseQuery, enabled: boolean) => observer.setOptions(options(query, enabled)),
    /**
     * What to render for this view now, before watch() has run: its page if
     * cached, else the previous one marked as placeholder (useQuery's
     * getOptimisticResult). Rendering the observer's current result instead
     * would show the last view's page as if it were this one's.
     */
    resultFor: (query: BrowseQuery, enabled: boolean) =>
      observer.getOptimisticResult(client.defaultQueryOptions(options(query, enabled)) as Parameters<typeof observer.getOptimisticResult>[0]),
  };
}
