import type { BrowseQuery } from "@/components/pets/browse-query";
import { DEFAULT_WITHIN_MI } from "@/lib/core/units";
import type { operations } from "@/lib/site/openapi-types";

// The /v1/pets request for a browse view: the server page's first one, and
// the browser's for every other view (components/pets/browse-later.ts).
// Apart from browse-query.ts, whose code every first page carries: the
// browser needs this only once it asks for another page.

/** The list's query parameters, as the contract types them. */
type ListPetsParams = NonNullable<operations["listPets"]["parameters"]["query"]>;

/** The /v1/pets request for a view. */
export function petsApiQuery(query: BrowseQuery): ListPetsParams {
  return {
    limit: query.limit,
    ...(query.q ? { q: query.q } : {}),
    // "all" is the API's own default: no status filter at all.
    ...(query.status !== "all" ? { status: query.status } : {}),
    ...(query.category !== undefined ? { categoryId: query.category } : {}),
    ...(query.sex ? { sex: query.sex } : {}),
    ...(query.size ? { size: query.size } : {}),
    ...(query.age ? { age: query.age } : {}),
    ...(query.goodWith ? { goodWith: query.goodWith } : {}),
    ...(query.houseTrained ? { houseTrained: true } : {}),
    ...(query.specialNeeds !== undefined ? { specialNeeds: query.specialNeeds } : {}),
    ...(query.near ? { near: query.near, within: `${query.within ?? DEFAULT_WITHIN_MI}mi` } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
  };
}

/** The same as a path, for the server render's in-process call. */
export function petsApiPath(query: BrowseQuery): string {
  const params = new URLSearchParams(Object.entries(petsApiQuery(query)).map(([k, v]) => [k, String(v)]));
  return `/v1/pets?${params}`;
}

/** The /v1/organizations request for the shelters of a page's animals (the cards' shelter line). */
export function sheltersApiQuery(pets: { organizationId: number }[]): { id: number[]; limit: number } | undefined {
  const ids = [...new Set(pets.map((p) => p.organizationId))];
  return ids.length ? { id: ids, limit: 100 } : undefined;
}

/** A page's shelters by id, as the cards want them. */
export function shelterSummaries(
  organizations: import("@/lib/organizations/schemas").Organization[],
): NonNullable<import("@/components/pets/browse-query").PetPage["shelters"]> {
  return Object.fromEntries(
    organizations.map((o) => [o.id, { id: o.id, name: o.name, slug: o.slug, city: o.address?.city ?? null, region: o.address?.region ?? null }]),
  );
}
