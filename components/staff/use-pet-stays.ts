"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { petQueryKey } from "@/components/pets/use-pet";
import { petHistoryQueryKey } from "@/components/staff/use-pet-history";
import { callApi, linkCursor } from "@/lib/site/api-client-core";
import type { IntakeInput, OutcomeInput, Stay } from "@/lib/stays/schemas";

export const petStaysQueryKey = (id: number) => ["pet", id, "stays"] as const;

/** How many stays a page of the panel shows (the list's largest page). */
export const STAYS_PAGE_SIZE = 100;

/** The animal's stays, oldest first (staff, records:read), a page at a time: the list is paged (`rel="next"` for later stays). */
export function usePetStays(id: number) {
  return useInfiniteQuery({
    queryKey: petStaysQueryKey(id),
    queryFn: async ({ pageParam, signal }): Promise<{ stays: Stay[]; next: string | undefined }> => {
      const res = await callApi((api) =>
        api.GET("/pets/{petId}/stays", {
          params: { path: { petId: id }, query: { limit: STAYS_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
          signal,
        }),
      );
      return { stays: res.data, next: linkCursor(res.headers.get("link"), "next") };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
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
  return useStaysMutation(
    id,
    async ({ stayId, outcome }: { stayId: number; outcome: OutcomeInput }) =>
      (await callApi((api) => api.POST("/pets/{petId}/stays/{stayId}/outcome", { params: { path: { petId: id, stayId } }, body: outcome }))).data,
  );
}

export function useNewIntake(id: number) {
  return useStaysMutation(
    id,
    async (intake: IntakeInput) => (await callApi((api) => api.POST("/pets/{petId}/stays", { params: { path: { petId: id } }, body: { intake } }))).data,
  );
}
