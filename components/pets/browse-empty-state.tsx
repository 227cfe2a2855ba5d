"use client";

import { useLocale, useTranslations } from "next-intl";
import { useLocalePath } from "@/lib/i18n/paths";
import { DEFAULT_STATUS, browseHref, nearWords, type BrowseQuery } from "@/components/pets/browse-query";
import { DEFAULT_WITHIN_MI, WITHIN_CHOICES_MI } from "@/lib/core/units";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { Picture } from "@/components/pets/pet-picture";
import { buttonClass } from "@/components/pets/styles";

/**
 * Nothing to show for this view, what was asked for, and the way out: the
 * filters cleared, or, when even the plain view (Available) is empty, every
 * animal whatever its status.
 */
export function BrowseEmptyState({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void }) {
  const t = useTranslations("Empty");
  const browse = useTranslations("Browse");
  const words = useTranslations("Words");
  const locale = useLocale();
  const to = useLocalePath();
  const profile = describeProfileFilters(query, locale === "en" ? undefined : { locale, words, t });
  // The status counts as a filter only when it is not the page's own default.
  const statusOrCategory = query.status !== DEFAULT_STATUS || query.category !== undefined;
  const filtered = query.q !== undefined || statusOrCategory || query.cursor !== undefined || profile !== "";
  const cleared: BrowseQuery = { status: DEFAULT_STATUS, limit: query.limit };
  const everyStatus: BrowseQuery = { status: "all", limit: query.limit };
  const withoutSearch: BrowseQuery = { ...query, q: undefined, cursor: undefined };
  const withoutProfile: BrowseQuery = {
    ...query,
    sex: undefined,
    size: undefined,
    age: undefined,
    goodWith: undefined,
    houseTrained: undefined,
    specialNeeds: undefined,
    cursor: undefined,
  };
  const filteredBesidesSearch = statusOrCategory || profile !== "";
  // Near a place: the way out is a wider search first (the next distance up), then anywhere.
  const near = nearWords(query, browse);
  const wider = query.near ? WITHIN_CHOICES_MI.find((miles) => miles > (query.within ?? DEFAULT_WITHIN_MI)) : undefined;
  const heading =
    near && !filtered
      ? t("nearHeading", { near })
      : query.q
        ? t("matchHeading", { q: query.q })
        : filtered
          ? t("filteredHeading")
          : query.status === "all"
            ? t("noneYet")
            : t("noneAvailable");
  const nameText = statusOrCategory ? (profile ? "nameTextBoth" : "nameTextStatus") : profile ? "nameTextProfile" : "nameText";
  const text =
    near && !filtered
      ? t(wider ? "nearTextWider" : "nearText", { near, status: query.status })
      : query.q
        ? t(nameText, { q: query.q, profile })
        : profile
          ? t(statusOrCategory ? "profileTextStatus" : "profileText", { profile })
          : filtered
            ? t("statusCategoryText")
            : query.status === "all"
              ? t("noneListedText")
              : t("allAdoptedText");
  const link = (target: BrowseQuery, label: string, className: string) => (
    <a
      href={to(browseHref(target))}
      className={className}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        onNavigate(target);
      }}
    >
      {label}
    </a>
  );
  return (
    <div className="rounded-xl border border-dashed border-stone-400 bg-white px-6 py-10 text-center">
      <Picture name="paw" className="mx-auto h-24 w-32 rounded-lg" />
      <h3 className="mt-4 text-lg font-semibold text-stone-900 wrap-anywhere">{heading}</h3>
      <p className="mt-1 text-stone-700 wrap-anywhere">{text}</p>
      {near && !filtered ? (
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          {wider && link({ ...query, within: wider, cursor: undefined }, t("searchWithin", { miles: wider }), buttonClass)}
          {link({ ...query, near: undefined, within: undefined, cursor: undefined }, t("searchEverywhere"), buttonClass)}
        </div>
      ) : filtered ? (
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          {query.q && filteredBesidesSearch && link(withoutSearch, t("clearSearch"), buttonClass)}
          {profile &&
            (query.q || statusOrCategory) &&
            link(
              withoutProfile,
              t("clearAnimalFilters", {
                count: [query.sex, query.size, query.age, query.goodWith, query.houseTrained, query.specialNeeds !== undefined].filter(Boolean).length,
              }),
              buttonClass,
            )}
          {link(cleared, query.q && !filteredBesidesSearch ? t("clearSearch") : t("clearFilters"), buttonClass)}
        </div>
      ) : (
        query.status !== "all" && <div className="mt-4 flex justify-center">{link(everyStatus, t("seeAll"), buttonClass)}</div>
      )}
    </div>
  );
}

// Here, not in browse-query.ts: this module loads only when a view is empty,
// and the first page's JavaScript stays within its budget.
/**
 * The profile filters in words, for the empty state: "female, small or
 * medium, baby, good with children and cats, house-trained, with special
 * needs". Empty when none is set.
 */
export function describeProfileFilters(
  query: BrowseQuery,
  /** Another language than English: its words (messages' "Words" and "Empty") and Intl's lists. */
  other?: { locale: string; words: (key: string) => string; t: (key: string, values?: Record<string, string>) => string },
): string {
  if (other) {
    const { locale, words, t } = other;
    const or = new Intl.ListFormat(locale, { type: "disjunction" });
    const and = new Intl.ListFormat(locale, { type: "conjunction" });
    const lower = (word: string) => word.toLocaleLowerCase(locale);
    const parts: string[] = [];
    if (query.sex) parts.push(lower(words(`sex.${query.sex}`)));
    if (query.size) parts.push(or.format(query.size.map((s) => lower(words(`size.${s}`)))));
    if (query.age) parts.push(or.format(query.age.map((a) => lower(words(`age.${a}`)))));
    if (query.goodWith) parts.push(t("goodWith", { kinds: and.format(query.goodWith.map((g) => lower(words(`goodWith.${g}`)))) }));
    if (query.houseTrained) parts.push(lower(words("houseTrained")));
    if (query.specialNeeds !== undefined) parts.push(t(query.specialNeeds ? "withSpecialNeeds" : "withoutSpecialNeeds"));
    return parts.join(", ");
  }
  const parts: string[] = [];
  if (query.sex) parts.push(query.sex);
  if (query.size) parts.push(orList(query.size.map((s) => (s === "xlarge" ? "extra large" : s))));
  if (query.age) parts.push(orList(query.age));
  if (query.goodWith) parts.push(`good with ${query.goodWith.join(query.goodWith.length > 2 ? ", " : " and ").replace(/, ([^,]*)$/, " and $1")}`);
  if (query.houseTrained) parts.push("house-trained");
  if (query.specialNeeds !== undefined) parts.push(query.specialNeeds ? "with special needs" : "without special needs");
  return parts.join(", ");
}

function orList(words: string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}
