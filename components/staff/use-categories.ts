"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { Category } from "@/lib/pets/schemas/pet";

export const STAFF_CATEGORIES_QUERY_KEY = ["staff", "categories"] as const;

/** The categories an animal can be put in, for the add form's select. */
export function useCategories(initial: Category[] | null, enabled: boolean) {
  return useQuery({
    queryKey: STAFF_CATEGORIES_QUERY_KEY,
    queryFn: async (): Promise<Category[]> => (await callApi((api) => api.GET("/categories"))).data,
    initialData: initial ?? undefined,
    staleTime: 5 * 60_000,
    enabled,
  });
}
