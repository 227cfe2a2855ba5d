"use client";

import type { BrowseQuery, PetPage } from "@/components/pets/browse-query";
import { petsApiQuery } from "@/components/pets/pets-api-query";
import { call } from "@/lib/site/typed-client";

// What the browse page needs only for what the server did not render:
// fetching another page, its cards, the empty state and the load error. One
// chunk, loaded with the typed client (imported here, so both arrive
// together) when the view first changes or has nothing to show
// (components/pets/use-pets.ts loadBrowseLater); the first page, whose
// JavaScript budget is 150 kB, carries none of it.

export { BrowseEmptyState } from "@/components/pets/browse-empty-state";
export { BrowseLoadError } from "@/components/pets/browse-load-error";
export { PetCards } from "@/components/pets/pet-card";

/** One page of animals for a view, from /v1/pets. */
export async function fetchPets(query: BrowseQuery, signal: AbortSignal): Promise<PetPage> {
  const res = await call((api) => api.GET("/pets", { params: { query: petsApiQuery(query) }, signal }));
  return { pets: res.data, link: res.headers.get("link") };
}
