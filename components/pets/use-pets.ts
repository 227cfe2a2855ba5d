"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { networkError } from "@/lib/site/api-client-core";
import { browseHref, type BrowseQuery, type PetPage } from "@/components/pets/browse-query";

export type BrowseLater = typeof import("@/components/pets/browse-later");

/** The browse page's code for views the server did not render (browse-later.ts); failing to load it is a network failure. */
export function loadBrowseLater(): Promise<BrowseLater> {
  return import("@/components/pets/browse-later").catch(() => {
    throw networkError();
  });
}

/** A view's page, by its canonical URL (every field, defaults left out): two URLs of one view share an entry. */
export function petsQueryKey(query: BrowseQuery) {
  return ["pets", browseHref(query)] as const;
}

interface UsePetsOptions {
  /** The server-rendered page, when it was rendered for this very query. */
  initial?: { page: PetPage; fetchedAt: number };
  enabled: boolean;
}

/**
 * One page of animals for a view. While another page loads, the previous one
 * stays on screen (isPlaceholderData), rather than flashing skeletons.
 */
export function usePets(query: BrowseQuery, { initial, enabled }: UsePetsOptions) {
  return useQuery({
    queryKey: petsQueryKey(query),
    queryFn: async ({ signal }): Promise<PetPage> => (await loadBrowseLater()).fetchPets(query, signal),
    initialData: initial?.page,
    initialDataUpdatedAt: initial?.fetchedAt,
    placeholderData: keepPreviousData,
    enabled,
  });
}
