"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/site/api-client-core";
import type { SessionInfo } from "@/lib/staff/schemas";

export const SESSION_QUERY_KEY = ["session"] as const;

/** Who this browser is: an adopter (anonymous) or signed-in staff. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: async (): Promise<SessionInfo> => (await callApi((api) => api.GET("/session"))).data,
    staleTime: 60_000,
  });
}
