"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { StaffWebhook } from "@/lib/webhooks/schemas";

export const keyWebhooksQueryKey = (keyId: number) => ["staff", "keys", keyId, "webhooks"] as const;

/** A key's webhook endpoints and their state (staff only: keys:manage). Fetched when shown. */
export function useKeyWebhooks(keyId: number) {
  return useQuery({
    queryKey: keyWebhooksQueryKey(keyId),
    queryFn: async ({ signal }): Promise<StaffWebhook[]> =>
      (await callApi((api) => api.GET("/keys/{keyId}/webhooks", { params: { path: { keyId: String(keyId) } }, signal }))).data,
    // Failures and deliveries move on their own.
    staleTime: 0,
  });
}

/** Stops deliveries to one endpoint (its owner can resume them through the API). */
export function useDisableWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (endpoint: StaffWebhook): Promise<StaffWebhook> =>
      (
        await callApi((api) =>
          api.POST("/keys/{keyId}/webhooks/{webhookId}/disable", {
            params: { path: { keyId: endpoint.keyId, webhookId: endpoint.id } },
          }),
        )
      ).data,
    onSuccess: (updated) =>
      client.setQueryData<StaffWebhook[]>(keyWebhooksQueryKey(updated.keyId), (list) => list?.map((e) => (e.id === updated.id ? updated : e))),
    onSettled: (_data, _error, endpoint) => client.invalidateQueries({ queryKey: keyWebhooksQueryKey(endpoint.keyId) }),
  });
}
