"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type {
  ConnectionTest,
  ConnectionTestBody,
  ListingSiteHistoryEntry,
  ListingSitePatch,
  ListingSiteView,
  ListingUpload,
  NewListingSite,
} from "@/lib/listings/uploads/schemas";

export const listingSitesQueryKey = ["staff", "listing-sites"] as const;
const uploadsQueryKey = (siteId: number) => ["staff", "listing-sites", siteId, "uploads"] as const;
const historyQueryKey = ["staff", "listing-sites", "history"] as const;

/** How many changes the page shows. */
export const SITE_HISTORY_SHOWN = 20;

/** The organisation's listing sites; polled every few seconds while an upload runs. */
export function useListingSites() {
  return useQuery({
    queryKey: listingSitesQueryKey,
    queryFn: async ({ signal }): Promise<ListingSiteView[]> => (await callApi((api) => api.GET("/listing-sites", { signal }))).data as ListingSiteView[],
    refetchInterval: (query) => ((query.state.data ?? []).some((s) => s.lastUpload?.outcome === "running") ? 2_000 : false),
  });
}

export function useListingUploads(siteId: number, open: boolean) {
  return useQuery({
    queryKey: uploadsQueryKey(siteId),
    enabled: open,
    queryFn: async ({ signal }): Promise<ListingUpload[]> =>
      (await callApi((api) => api.GET("/listing-sites/{siteId}/uploads", { params: { path: { siteId } }, signal }))).data as ListingUpload[],
    staleTime: 0,
  });
}

export function useAddListingSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: Omit<NewListingSite, "organizationId"> & { organizationId?: number }): Promise<ListingSiteView> =>
      (await callApi((api) => api.POST("/listing-sites", { body }))).data as ListingSiteView,
    // The site list, and the history (which starts with this creation).
    onSettled: () => client.invalidateQueries({ queryKey: listingSitesQueryKey }),
  });
}

/** Who added, changed and removed the organisation's listing sites, newest first (staff: audit:read). */
export function useListingSiteHistory() {
  return useQuery({
    queryKey: historyQueryKey,
    queryFn: async ({ signal }): Promise<{ entries: ListingSiteHistoryEntry[]; more: boolean }> => {
      const res = await callApi((api) => api.GET("/listing-sites/history", { params: { query: { limit: SITE_HISTORY_SHOWN } }, signal }));
      return { entries: res.data as ListingSiteHistoryEntry[], more: /rel="next"/.test(res.headers.get("link") ?? "") };
    },
  });
}

export function useTestConnection() {
  return useMutation({
    mutationFn: async (body: ConnectionTestBody): Promise<ConnectionTest> =>
      (await callApi((api) => api.POST("/listing-sites/test", { body }))).data as ConnectionTest,
  });
}

export function useUpdateListingSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, patch }: { id: number; patch: ListingSitePatch }): Promise<ListingSiteView> =>
      (await callApi((api) => api.PATCH("/listing-sites/{siteId}", { params: { path: { siteId: id } }, body: patch }))).data as ListingSiteView,
    onSettled: () => client.invalidateQueries({ queryKey: listingSitesQueryKey }),
  });
}

export function useUploadNow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number): Promise<ListingUpload> =>
      (await callApi((api) => api.POST("/listing-sites/{siteId}/uploads", { params: { path: { siteId: id } } }))).data as ListingUpload,
    onSettled: (_data, _error, id) => {
      void client.invalidateQueries({ queryKey: listingSitesQueryKey });
      void client.invalidateQueries({ queryKey: uploadsQueryKey(id) });
    },
  });
}
