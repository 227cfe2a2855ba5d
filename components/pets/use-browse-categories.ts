"use client";

import { useEffect, useState } from "react";
import type { Category } from "@/lib/pets/schemas/pet";
import { callApi } from "@/lib/site/api-client-core";

/**
 * The categories for the browse page's filter and cards: the server's, or,
 * when its request failed, asked once from the browser: one request, not
 * worth loading react-query for on the first page (components/pets/use-pets.ts).
 */
export function useBrowseCategories(initial: Category[] | undefined): { data: Category[] | undefined } {
  const [fetched, setFetched] = useState<Category[]>();
  useEffect(() => {
    if (initial) return;
    const controller = new AbortController();
    // A failure leaves the filter with "All categories" and the cards with "Unknown category": the list itself still works.
    callApi((api) => api.GET("/categories", { signal: controller.signal })).then(
      (res) => setFetched(res.data),
      () => undefined,
    );
    return () => controller.abort();
  }, [initial]);
  return { data: initial ?? fetched };
}
