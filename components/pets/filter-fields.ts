import { DEFAULT_STATUS, type BrowseQuery } from "@/components/pets/browse-query";
import { DEFAULT_WITHIN_MI } from "@/lib/core/units";

// The filter form's fields (browse-filters.tsx), apart from its markup: the
// browser needs these on the first page (use-filter-form.ts) and the markup
// only in the Filters sheet.

export type ListFilter = "size" | "age" | "goodWith" | "houseTrained";

/** House-trained as a one-chip group: ticked sends houseTrained=true. */
export const HOUSE_TRAINED = ["true"] as const;

/** The form's fields, as it sends them. */
type FilterField = ListFilter | "category" | "sex" | "specialNeeds" | "within" | "limit" | "q" | "status" | "near";

/**
 * What each field of the form holds for a view, as the form sends it: what
 * the server draws, and what the browser puts back when the view changes
 * (use-filter-form.ts). The searches and the status ride along as hidden
 * fields, so that the form sent without JavaScript keeps them.
 */
export function filterFields(query: BrowseQuery): Record<FilterField, readonly string[]> {
  const one = (value: string | number | boolean | undefined) => (value === undefined ? [] : [String(value)]);
  return {
    q: one(query.q),
    status: one(query.status === DEFAULT_STATUS ? undefined : query.status),
    near: one(query.near),
    category: one(query.category),
    sex: one(query.sex),
    specialNeeds: one(query.specialNeeds),
    within: [`${query.within ?? DEFAULT_WITHIN_MI}mi`],
    limit: [String(query.limit)],
    age: query.age ?? [],
    size: query.size ?? [],
    goodWith: query.goodWith ?? [],
    houseTrained: HOUSE_TRAINED.filter(() => query.houseTrained),
  };
}

/** The element holding Within (with its label): shown while a place is set (use-filter-form.ts). */
export const WITHIN_FIELD = "data-within";
