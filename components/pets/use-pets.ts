"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client";
import { petsApiQuery, type BrowseQuery, type PetPage } from "@/components/pets/browse-query";

export function petsQueryKey(query: BrowseQuery) {
  return ["pets", { q: query.q ?? null, status: query.status ?? null, category: query.category ?? null, sex: query.sex ?? null, size: query.size ?? null, age: query.age ?? null, goodWith: query.goodWith ?? null, limit: query.limit, cursor: query.cursor ?? null }] as const;
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
    queryFn: async ({ signal }): Promise<PetPage> => {
      const res = await callApi((api) => api.GET("/pets", { params: { query: petsApiQuery(query) }, signal }));
      return { pets: res.data, link: res.headers.get("link") };
    },
    initialData: initial?.page,
    initialDataUpdatedAt: initial?.fetchedAt,
    placeholderData: keepPreviousData,
    enabled,
  });
}
