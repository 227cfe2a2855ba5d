import type { BrowseQuery } from "@/components/pets/browse-query";
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from "@/lib/pets/profile-labels";
import { DEFAULT_WITHIN_MI } from "@/lib/core/units";
import type { AgeGroup } from "@/lib/pets/age";
import type { GoodWithKind, PetSize } from "@/lib/pets/profile";

// What an alert watches, taken from the browse page's view: the same
// filters, spelled as POST /v1/alerts takes them (lib/alerts/schemas.ts
// alertFiltersSchema). The status is never one of them: an alert always
// means animals that become available. No zod here: the browse page loads
// this only with the alert's form, but it is pure and tested on its own.

export interface AlertFiltersInput {
  categoryId?: number;
  sex?: "female" | "male";
  size?: PetSize;
  ageGroup?: AgeGroup;
  goodWith?: GoodWithKind[];
  q?: string;
  near?: string;
  within?: string;
}

/**
 * The alert's filters for a view, and the view's filters an alert cannot
 * keep: an alert watches one size and one age group, so a view with several
 * of either watches every one; it does not watch the care filters
 * (house-trained, special needs) at all. Both are said on the form, never
 * dropped in silence.
 */
export function alertFiltersOf(query: BrowseQuery): {
  filters: AlertFiltersInput;
  widened: ("size" | "age")[];
  unwatched: ("houseTrained" | "specialNeeds")[];
} {
  const filters: AlertFiltersInput = {};
  const widened: ("size" | "age")[] = [];
  const unwatched: ("houseTrained" | "specialNeeds")[] = [];
  if (query.houseTrained) unwatched.push("houseTrained");
  if (query.specialNeeds !== undefined) unwatched.push("specialNeeds");
  if (query.category !== undefined) filters.categoryId = query.category;
  if (query.sex) filters.sex = query.sex;
  if (query.size?.length === 1) filters.size = query.size[0];
  else if (query.size) widened.push("size");
  if (query.age?.length === 1) filters.ageGroup = query.age[0];
  else if (query.age) widened.push("age");
  if (query.goodWith?.length) filters.goodWith = query.goodWith;
  if (query.q) filters.q = query.q;
  if (query.near) {
    filters.near = query.near;
    filters.within = `${query.within ?? DEFAULT_WITHIN_MI}mi`;
  }
  return { filters, widened, unwatched };
}

/**
 * "Dogs · small · good with children · named like “bis” · within 50 mi of 60601":
 * the filters in words for the form, as the alert's page and emails will say
 * them (lib/alerts/service.ts describeFilters), except that a point is "your location".
 */
export function alertFilterWords(
  filters: AlertFiltersInput,
  categoryName?: string,
  /** Another language than English: its words (messages' "AlertForm" and "Words"). */
  other?: { locale: string; t: (key: string, values?: Record<string, string>) => string; words: (key: string) => string },
): string {
  if (other) {
    const { locale, t, words } = other;
    const lower = (word: string) => word.toLocaleLowerCase(locale);
    const parts: string[] = [filters.categoryId !== undefined ? (categoryName ?? t("oneCategory")) : t("allAnimals")];
    if (filters.sex) parts.push(lower(words(`sex.${filters.sex}`)));
    if (filters.size) parts.push(lower(words(`size.${filters.size}`)));
    if (filters.ageGroup) parts.push(lower(words(`age.${filters.ageGroup}`)));
    if (filters.goodWith?.length)
      parts.push(
        t("goodWith", { kinds: new Intl.ListFormat(locale, { type: "conjunction" }).format(filters.goodWith.map((g) => lower(words(`goodWith.${g}`)))) }),
      );
    if (filters.q) parts.push(t("namedLike", { q: filters.q }));
    if (filters.near) {
      const distance = filters.within?.replace(/mi$/, " mi") ?? `${DEFAULT_WITHIN_MI} mi`;
      parts.push(t("withinOf", { distance, place: filters.near.includes(",") ? t("yourLocation") : filters.near }));
    }
    return parts.join(" · ");
  }
  const words: string[] = [filters.categoryId !== undefined ? (categoryName ?? "One category") : "All animals"];
  if (filters.sex) words.push(SEX_LABELS[filters.sex].toLowerCase());
  if (filters.size) words.push(SIZE_LABELS[filters.size].toLowerCase());
  if (filters.ageGroup) words.push(AGE_LABELS[filters.ageGroup].toLowerCase());
  if (filters.goodWith?.length) words.push(`good with ${filters.goodWith.join(" and ")}`);
  if (filters.q) words.push(`named like “${filters.q}”`);
  if (filters.near)
    words.push(
      `within ${filters.within?.replace(/mi$/, " mi") ?? `${DEFAULT_WITHIN_MI} mi`} of ${filters.near.includes(",") ? "your location" : filters.near}`,
    );
  return words.join(" · ");
}

/** The browser's time zone, for the daily digest at 08:00 local time; UTC when the browser will not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
