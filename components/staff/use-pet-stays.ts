"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { petQueryKey } from "@/components/pets/use-pet";
import { petHistoryQueryKey } from "@/components/staff/use-pet-history";
import { callApi } from "@/lib/site/api-client-core";
import type { IntakeInput, OutcomeInput, Stay } from "@/lib/stays/schemas";

export const petStaysQueryKey = (id: number) => ["pet", id, "stays"] as const;

/** The animal's stays, oldest first (staff, records:read). */
export function usePetStays(id: number) {
  return useQuery({
    queryKey: petStaysQueryKey(id),
    queryFn: async ({ signal }): Promise<Stay[]> => (await callApi((api) => api.GET("/pets/{petId}/stays", { params: { path: { petId: id } }, signal }))).data,
  });
}

/**
 * Recording an outcome or a new intake changes the animal too (its status,
 * whether it is in care, its version) and adds to its history: all three are
 * read again once the server has answered.
 */
function useStaysMutation<T>(id: number, send: (input: T) => Promise<Stay>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: petStaysQueryKey(id) }),
        client.invalidateQueries({ queryKey: petQueryKey(id), exact: true }),
        client.invalidateQueries({ queryKey: petHistoryQueryKey(id) }),
      ]),
  });
}

export function useRecordOutcome(id: number) {
  return useStaysMutation(id, async ({ stayId, outcome }: { stayId: number; outcome: OutcomeInput }) =>
    (await callApi((api) => api.POST("/pets/{petId}/stays/{stayId}/outcome", { params: { path: { petId: id, stayId } }, body: outcome }))).data,
  );
}

export function useNewIntake(id: number) {
  return useStaysMutation(id, async (intake: IntakeInput) => (await callApi((api) => api.POST("/pets/{petId}/stays", { params: { path: { petId: id } }, body: { intake } }))).data);
}
