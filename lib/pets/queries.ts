// Data access only: no HTTP, no rules. Ids are bigint here and numbers above.
// This module only gathers the parts in lib/pets/queries/, none of which imports it:
//   rows.ts        the row every read and write returns, and the SQL selecting it
//   filters.ts     a list's filters as SQL conditions and walking branches
//   pages.ts       a page of the list from a cursor
//   near.ts        a page near a place (organisations walked nearest first)
//   lookups.ts     by id, by the shelters' own ids, categories, an approved application
//   writes.ts      creating and changing animals with their records
//   age-groups.ts  the stored age groups' freshness and their daily refresh

export type { NearWalk } from "@/lib/organizations/geo";
export * from "@/lib/pets/queries/rows";
export * from "@/lib/pets/queries/filters";
export * from "@/lib/pets/queries/pages";
export * from "@/lib/pets/queries/near";
export * from "@/lib/pets/queries/lookups";
export * from "@/lib/pets/queries/writes";
export * from "@/lib/pets/queries/age-groups";
