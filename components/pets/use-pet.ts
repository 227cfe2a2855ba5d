"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { Pet } from "@/lib/pets/schemas/pet";

export const petQueryKey = (id: number) => ["pet", id] as const;

/**
 * One animal, read through the list filtered by its id (getPet's successor:
 * GET /v1/pets/{id} answers 410 from its sunset on). Seeded with the server's
 * render; refetched after a change, or to show what someone else changed.
 */
export function usePet(initial: { pet: Pet; fetchedAt: number }) {
  const id = initial.pet.id;
  return useQuery({
    queryKey: petQueryKey(id),
    queryFn: async ({ signal }): Promise<Pet | null> => (await callApi((api) => api.GET("/pets", { params: { query: { id: [id] } }, signal }))).data[0] ?? null,
    initialData: initial.pet,
    initialDataUpdatedAt: initial.fetchedAt,
  });
}
