"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { Organization } from "@/lib/organizations/schemas";

/** The most a list of /v1/organizations holds: what a chooser offers before its search narrows it. */
const CHOOSER_SIZE = 100;

/** Organisations by id (up to 100), to name them: the keys list's owners. */
export function useOrganizationsById(ids: number[], enabled: boolean) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b).slice(0, CHOOSER_SIZE);
  return useQuery({
    queryKey: ["organizations", "by-id", sorted],
    queryFn: async ({ signal }): Promise<Organization[]> =>
      (await callApi((api) => api.GET("/organizations", { params: { query: { id: sorted, limit: CHOOSER_SIZE } }, signal }))).data,
    enabled: enabled && sorted.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * What a platform admin chooses from (whose key, whose animal): the first
 * hundred by name, or those whose name contains `search`. `more`: there are
 * others, so the chooser offers its search.
 */
export function useOrganizationChoices(search: string, enabled: boolean) {
  const q = search.trim();
  return useQuery({
    queryKey: ["organizations", "choices", q],
    queryFn: async ({ signal }): Promise<{ organizations: Organization[]; more: boolean }> => {
      const { data, headers } = await callApi((api) => api.GET("/organizations", { params: { query: { limit: CHOOSER_SIZE, ...(q ? { q } : {}) } }, signal }));
      return { organizations: data, more: /rel="next"/.test(headers.get("link") ?? "") };
    },
    enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
