"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { petQueryKey } from "@/components/pets/use-pet";
import { petHistoryQueryKey } from "@/components/staff/use-pet-history";
import { peopleQueryKey } from "@/components/staff/use-people";
import { callApi, linkCursor } from "@/lib/site/api-client-core";
import type { CustodyEntry, NewPlacement, Placement, PlacementEnd } from "@/lib/placements/schemas";

const petPlacementsQueryKey = (petId: number) => ["pet", petId, "placements"] as const;
const custodyQueryKey = (organizationId: number) => ["organization", organizationId, "custody"] as const;

/** The most pages a whole list is read in (a hundred each): far beyond any animal's placements or any organisation's animals in care. */
const MAX_PAGES = 50;

/** Every page of a list, following its Link rel="next" from the first. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ data: T[]; headers: Headers }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await page(cursor);
    all.push(...res.data);
    cursor = linkCursor(res.headers.get("link"), "next");
    if (!cursor) break;
  }
  return all;
}

/** The animal's placements with fosters, oldest first (staff: people:read), every page of them. */
export function usePetPlacements(petId: number) {
  return useQuery({
    queryKey: petPlacementsQueryKey(petId),
    queryFn: ({ signal }): Promise<Placement[]> =>
      allPages((cursor) =>
        callApi((api) => api.GET("/pets/{petId}/placements", { params: { path: { petId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } }, signal })),
      ),
  });
}

/** Where every animal in the organisation's care is now: at the shelter, or with which foster since when. */
export function useCustody(organizationId: number) {
  return useQuery({
    queryKey: custodyQueryKey(organizationId),
    queryFn: ({ signal }): Promise<CustodyEntry[]> =>
      allPages((cursor) =>
        callApi((api) =>
          api.GET("/organizations/{organizationId}/custody", {
            params: { path: { organizationId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
            signal,
          }),
        ),
      ),
    // Placements move while the board is open: fresh on every visit.
    staleTime: 0,
  });
}

export type EndReason = PlacementEnd["reason"];

/**
 * A placement changes the animal (its version, its history, where adopters
 * see it), the fosters' room and the board: all are read again once the
 * server has answered.
 */
function usePlacementMutation<T>(petId: number, organizationId: number, send: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: petPlacementsQueryKey(petId) }),
        client.invalidateQueries({ queryKey: petQueryKey(petId), exact: true }),
        client.invalidateQueries({ queryKey: petHistoryQueryKey(petId) }),
        client.invalidateQueries({ queryKey: peopleQueryKey(organizationId) }),
        client.invalidateQueries({ queryKey: custodyQueryKey(organizationId) }),
      ]),
  });
}

/** Places the animal with a foster (or moves it: the open placement ends where the next begins). */
export function usePlacePet(petId: number, organizationId: number) {
  return usePlacementMutation(
    petId,
    organizationId,
    async (body: NewPlacement) => (await callApi((api) => api.POST("/pets/{petId}/placements", { params: { path: { petId } }, body }))).data,
  );
}

/** Ends the open placement: the animal is back at the shelter (or left the foster for another reason). */
export function useEndPlacement(petId: number, organizationId: number) {
  return usePlacementMutation(
    petId,
    organizationId,
    async ({ placementId, reason }: { placementId: number; reason: EndReason }) =>
      (await callApi((api) => api.POST("/pets/{petId}/placements/{placementId}/end", { params: { path: { petId, placementId } }, body: { reason } }))).data,
  );
}
