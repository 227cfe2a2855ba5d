"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { Category } from "@/lib/pets/schemas/pet";

export const CATEGORIES_QUERY_KEY = ["categories"] as const;

/** The categories, for the filter and for the names on the cards; they rarely change. */
export function usePetCategories(initial: Category[] | undefined) {
  return useQuery({
    queryKey: CATEGORIES_QUERY_KEY,
    queryFn: async ({ signal }): Promise<Category[]> => (await callApi((api) => api.GET("/categories", { signal }))).data,
    initialData: initial,
    staleTime: 5 * 60_000,
  });
}
