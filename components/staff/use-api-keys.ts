"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { ApiKeySummary, NewApiKey } from "@/lib/keys/schemas";

export const STAFF_KEYS_QUERY_KEY = ["staff", "keys"] as const;

/** Every API key with today's usage (staff only). */
export function useApiKeys(enabled: boolean) {
  return useQuery({
    queryKey: STAFF_KEYS_QUERY_KEY,
    queryFn: async (): Promise<ApiKeySummary[]> => (await callApi((api) => api.GET("/keys"))).data,
    enabled,
    // Usage and bans move on their own: a fresh list whenever the page asks.
    staleTime: 0,
  });
}

/** Issues a key; the answer holds the key itself, the one time it is ever sent. */
export function useIssueKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewApiKey): Promise<{ key: string; summary: ApiKeySummary }> => (await callApi((api) => api.POST("/keys", { body: input }))).data,
    // A list fetch still in flight started before the key existed: it must
    // not land after it. (Without data yet, invalidating would only join
    // that fetch instead of starting a fresh one.)
    onMutate: () => queryClient.cancelQueries({ queryKey: STAFF_KEYS_QUERY_KEY }),
    // The answer already describes the new key: list it at once (newest
    // first, as the server orders them), then refetch for everything else.
    onSuccess: ({ summary }) =>
      queryClient.setQueryData<ApiKeySummary[]>(STAFF_KEYS_QUERY_KEY, (keys) => (keys ? [{ ...summary, usedToday: 0 }, ...keys] : keys)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEYS_QUERY_KEY }),
  });
}

/** Revokes a key, or lifts its ban; either way the list is fetched again. */
export function useKeyAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ key, action }: { key: ApiKeySummary; action: "revoke" | "lift-ban" }) =>
      (
        await callApi((api) =>
          action === "revoke"
            ? api.DELETE("/keys/{keyId}", { params: { path: { keyId: String(key.id) } } })
            : api.DELETE("/keys/{keyId}/ban", { params: { path: { keyId: String(key.id) } } }),
        )
      ).data,
    onMutate: () => queryClient.cancelQueries({ queryKey: STAFF_KEYS_QUERY_KEY }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEYS_QUERY_KEY }),
  });
}
