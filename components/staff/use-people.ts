"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FosterStatus } from "@/components/staff/foster-labels";
import type { FosterSpecies, NewPerson, Person, PersonPatch } from "@/lib/people/schemas";
import { callApi, linkCursor } from "@/lib/site/api-client-core";

/** Everything of an organisation's people: a change to one (or a placement) reads all its lists again. */
export const peopleQueryKey = (organizationId: number) => ["organization", organizationId, "people"] as const;

/** The largest page of the people list: the roster shows a hundred, then offers the next. */
const PEOPLE_PAGE_SIZE = 100;

export interface FosterFilters {
  status?: FosterStatus;
  species?: FosterSpecies;
  /** Only fosters who can take an animal today, in the organisation's time zone (active, out of blackout, with room). */
  hasRoomToday?: boolean;
  q?: string;
}

function fosterQuery(filters: FosterFilters) {
  return {
    role: "foster" as const,
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.species ? { species: filters.species } : {}),
    ...(filters.hasRoomToday ? { hasRoom: true } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
}

/** The organisation's fosters (people with a foster role), filtered, a page at a time (Link rel="next"). */
export function useFosters(organizationId: number, filters: FosterFilters) {
  return useInfiniteQuery({
    queryKey: [...peopleQueryKey(organizationId), "fosters", filters],
    queryFn: async ({ pageParam, signal }): Promise<{ people: Person[]; next: string | undefined }> => {
      const res = await callApi((api) =>
        api.GET("/organizations/{organizationId}/people", {
          params: {
            path: { organizationId },
            query: { ...fosterQuery(filters), limit: PEOPLE_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
          signal,
        }),
      );
      return { people: res.data, next: linkCursor(res.headers.get("link"), "next") };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
    placeholderData: keepPreviousData,
  });
}

/**
 * Every foster of the organisation (the first hundred), for choosing where an
 * animal goes, and the ids of those with room today: the choice offers the
 * others too, disabled, with the reason.
 */
export function useFosterChoices(organizationId: number) {
  return useQuery({
    queryKey: [...peopleQueryKey(organizationId), "choices"],
    queryFn: async ({ signal }): Promise<{ all: Person[]; withRoom: Set<number> }> => {
      const list = (query: ReturnType<typeof fosterQuery>) =>
        callApi((api) =>
          api.GET("/organizations/{organizationId}/people", { params: { path: { organizationId }, query: { ...query, limit: PEOPLE_PAGE_SIZE } }, signal }),
        );
      const [all, withRoom] = await Promise.all([list(fosterQuery({})), list(fosterQuery({ hasRoomToday: true }))]);
      return { all: all.data, withRoom: new Set(withRoom.data.map((p) => p.id)) };
    },
  });
}

/** Adds a person (POST) or changes one (PATCH, a merge patch: only what changed); the roster is read again either way. */
export function useSavePerson(organizationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { personId: number; patch: PersonPatch } | { personId?: undefined; person: NewPerson }): Promise<Person> =>
      (
        await callApi((api) =>
          input.personId === undefined
            ? api.POST("/organizations/{organizationId}/people", { params: { path: { organizationId } }, body: input.person })
            : api.PATCH("/organizations/{organizationId}/people/{personId}", {
                params: { path: { organizationId, personId: input.personId } },
                body: input.patch,
              }),
        )
      ).data,
    onSettled: () => client.invalidateQueries({ queryKey: peopleQueryKey(organizationId) }),
  });
}

/** Erases a person: their personal fields go, the record (and the placements' history) stays. 409 while an animal is placed with them. */
export function useErasePerson(organizationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (personId: number) =>
      callApi((api) => api.DELETE("/organizations/{organizationId}/people/{personId}", { params: { path: { organizationId, personId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: peopleQueryKey(organizationId) }),
  });
}
