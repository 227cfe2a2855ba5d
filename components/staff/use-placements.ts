"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { petQueryKey } from "@/components/pets/use-pet";
import type { CustodyEntry, Placement } from "@/components/staff/foster-types";
import { petHistoryQueryKey } from "@/components/staff/use-pet-history";
import { peopleQueryKey } from "@/components/staff/use-people";
import { callApi } from "@/lib/site/api-client-core";

export const petPlacementsQueryKey = (petId: number) => ["pet", petId, "placements"] as const;
export const custodyQueryKey = (organizationId: number) => ["organization", organizationId, "custody"] as const;

/** The animal's placements with fosters, oldest first (staff: people:read). */
export function usePetPlacements(petId: number) {
  return useQuery({
    queryKey: petPlacementsQueryKey(petId),
    queryFn: async ({ signal }): Promise<Placement[]> =>
      (await callApi((api) => api.GET("/pets/{petId}/placements", { params: { path: { petId } }, signal }))).data as Placement[],
  });
}

/** Where every animal in the organisation's care is now: at the shelter, or with which foster since when. */
export function useCustody(organizationId: number) {
  return useQuery({
    queryKey: custodyQueryKey(organizationId),
    queryFn: async ({ signal }): Promise<CustodyEntry[]> =>
      (await callApi((api) => api.GET("/organizations/{organizationId}/custody", { params: { path: { organizationId } }, signal }))).data as CustodyEntry[],
    // Placements move while the board is open: fresh on every visit.
    staleTime: 0,
  });
}

export interface NewPlacementInput {
  personId: number;
  at?: string;
  expectedEndOn?: string;
  note?: string;
  overrideCapacity?: boolean;
}

export type EndReason = "returnedToShelter" | "movedToAnotherFoster" | "other";

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
    async (body: NewPlacementInput) => (await callApi((api) => api.POST("/pets/{petId}/placements", { params: { path: { petId } }, body: body as never }))).data,
  );
}

/** Ends the open placement: the animal is back at the shelter (or left the foster for another reason). */
export function useEndPlacement(petId: number, organizationId: number) {
  return usePlacementMutation(
    petId,
    organizationId,
    async ({ placementId, reason }: { placementId: number; reason: EndReason }) =>
      (await callApi((api) => api.POST("/pets/{petId}/placements/{placementId}/end", { params: { path: { petId, placementId } }, body: { reason } as never })))
        .data,
  );
}
