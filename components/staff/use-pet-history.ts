"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";

export const HISTORY_SHOWN = 50;

export const petHistoryQueryKey = (id: number) => ["pet", id, "history"] as const;

/** The animal's most recent changes (staff only: audit:read), and whether older ones exist. */
export function usePetHistory(id: number, enabled: boolean) {
  return useQuery({
    queryKey: petHistoryQueryKey(id),
    queryFn: async ({ signal }) => {
      const res = await callApi((api) => api.GET("/pets/{petId}/history", { params: { path: { petId: id }, query: { limit: HISTORY_SHOWN } }, signal }));
      return { entries: res.data, more: /rel="next"/.test(res.headers.get("link") ?? "") };
    },
    enabled,
  });
}
