"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { petQueryKey } from "@/components/pets/use-pet";
import { callApi } from "@/lib/site/api-client-core";
import type { Application, ApplicationState } from "@/lib/applications/schemas";

/** Every applications query starts with this: one invalidation refreshes them all. */
export const APPLICATIONS_QUERY_KEY = ["staff", "applications"] as const;

export interface ApplicationsFilter {
  state?: ApplicationState;
  petId?: number;
}

export const APPLICATIONS_PAGE_SIZE = 20;

export const applicationsListQueryKey = (filter: ApplicationsFilter) =>
  [...APPLICATIONS_QUERY_KEY, "list", { state: filter.state ?? null, petId: filter.petId ?? null }] as const;
export const applicationQueryKey = (id: number) => [...APPLICATIONS_QUERY_KEY, "one", id] as const;

interface ApplicationsPage {
  applications: Application[];
  /** `before` for the next page (X-Next-Before), when there is one. */
  next: number | null;
}

async function fetchPage(filter: ApplicationsFilter, before: number | undefined, limit: number, signal: AbortSignal): Promise<ApplicationsPage> {
  const res = await callApi((api) =>
    api.GET("/applications", {
      params: {
        query: { ...(filter.state ? { state: filter.state } : {}), ...(filter.petId ? { petId: filter.petId } : {}), ...(before ? { before } : {}), limit },
      },
      signal,
    }),
  );
  const next = res.headers.get("x-next-before");
  return { applications: res.data, next: next && /^\d+$/.test(next) ? Number(next) : null };
}

/** The inbox: newest first, by state and animal, a page at a time (staff only). */
export function useApplications(filter: ApplicationsFilter) {
  return useInfiniteQuery({
    queryKey: applicationsListQueryKey(filter),
    queryFn: ({ pageParam, signal }) => fetchPage(filter, pageParam, APPLICATIONS_PAGE_SIZE, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    // Applications arrive on their own: a fresh list whenever the page asks.
    staleTime: 0,
  });
}

/** One application with its steps; the list's copy stands in while it loads. */
export function useApplication(id: number | undefined, fromList: Application | undefined) {
  return useQuery({
    queryKey: applicationQueryKey(id ?? 0),
    queryFn: async ({ signal }): Promise<Application> =>
      (await callApi((api) => api.GET("/applications/{applicationId}", { params: { path: { applicationId: id! } }, signal }))).data,
    enabled: id !== undefined,
    placeholderData: fromList,
  });
}

/** The applications for one animal, newest first (its page, staff view). */
export function usePetApplications(petId: number) {
  return useQuery({
    queryKey: [...applicationsListQueryKey({ petId }), "first"] as const,
    queryFn: ({ signal }) => fetchPage({ petId }, undefined, APPLICATIONS_PAGE_SIZE, signal),
    staleTime: 0,
  });
}

export type StaffStep = "in_review" | "approved" | "declined" | "completed" | "cancelled";

/** The steps that change the animal too (its status), and so are sent under If-Match. */
export const STEPS_CHANGING_THE_ANIMAL: readonly StaffStep[] = ["approved", "completed", "cancelled"];

export interface TransitionInput {
  application: Application;
  to: StaffStep;
  message?: string;
  declineOthers?: boolean;
}

/**
 * A staff step on an application. A step that changes the animal is sent
 * with If-Match naming the animal's version this view shows (the
 * application's petVersion), as the animal's own page does: if someone
 * changed the animal meanwhile, nothing happens (412) and the refreshed view
 * shows what they did. Afterwards every applications query, the
 * animal (approve, complete and cancel change its status) and the browse
 * lists are fetched again, and the server-rendered header is refreshed for
 * its count of new applications.
 */
export function useApplicationTransition() {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useMutation({
    mutationFn: async ({ application, to, message, declineOthers }: TransitionInput): Promise<Application> =>
      (
        await callApi((api) =>
          api.POST("/applications/{applicationId}/transitions", {
            params: {
              path: { applicationId: application.id },
              ...(STEPS_CHANGING_THE_ANIMAL.includes(to) ? { header: { "If-Match": `"${application.petVersion}"` } } : {}),
            },
            body: { to, ...(message?.trim() ? { message: message.trim() } : {}), ...(declineOthers ? { declineOthers: true } : {}) },
          }),
        )
      ).data,
    onMutate: () => queryClient.cancelQueries({ queryKey: APPLICATIONS_QUERY_KEY }),
    onSuccess: (updated) => {
      queryClient.setQueryData(applicationQueryKey(updated.id), updated);
      router.refresh();
    },
    // Also after a refusal: someone else may have moved it on (409), and the
    // view should show where it really stands.
    onSettled: (_data, _error, { application }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: petQueryKey(application.petId) }),
      ]),
  });
}
