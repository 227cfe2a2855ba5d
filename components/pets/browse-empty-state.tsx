"use client";

import { DEFAULT_STATUS, browseHref, nearWords, type BrowseQuery } from "@/components/pets/browse-query";
import { DEFAULT_WITHIN_MI, WITHIN_CHOICES_MI } from "@/lib/organizations/units";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { Picture } from "@/components/pets/pet-picture";
import { buttonClass } from "@/components/pets/styles";

/**
 * Nothing to show for this view, what was asked for, and the way out: the
 * filters cleared, or, when even the plain view (Available) is empty, every
 * animal whatever its status.
 */
export function BrowseEmptyState({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void }) {
  const profile = describeProfileFilters(query);
  // The status counts as a filter only when it is not the page's own default.
  const statusOrCategory = query.status !== DEFAULT_STATUS || query.category !== undefined;
  const filtered = query.q !== undefined || statusOrCategory || query.cursor !== undefined || profile !== "";
  const cleared: BrowseQuery = { status: DEFAULT_STATUS, limit: query.limit };
  const everyStatus: BrowseQuery = { status: "all", limit: query.limit };
  const withoutSearch: BrowseQuery = { ...query, q: undefined, cursor: undefined };
  const withoutProfile: BrowseQuery = { ...query, sex: undefined, size: undefined, age: undefined, goodWith: undefined, houseTrained: undefined, specialNeeds: undefined, cursor: undefined };
  const filteredBesidesSearch = statusOrCategory || profile !== "";
  const where = [statusOrCategory ? "with this status and category" : "", profile ? `that is ${profile}` : ""].filter(Boolean).join(" and ");
  // Near a place: the way out is a wider search first (the next distance up), then anywhere.
  const near = nearWords(query);
  const wider = query.near ? WITHIN_CHOICES_MI.find((miles) => miles > (query.within ?? DEFAULT_WITHIN_MI)) : undefined;
  const heading = near && !filtered
    ? `No animals ${near}`
    : query.q ? `No animals match “${query.q}”` : filtered ? "No animals match" : query.status === "all" ? "No animals yet" : "No animals are available right now";
  const text = near && !filtered
    ? `No shelter ${near} has ${query.status === "all" ? "animals listed" : "animals available"} right now.${wider ? " Try a wider distance." : ""}`
    : query.q
    ? `No animal${where ? ` ${where}` : ""} has a name containing “${query.q}”. Check the spelling, or try part of the name.`
    : profile
      ? `No animal${statusOrCategory ? " with this status and category" : ""} is ${profile} right now. Try fewer filters.`
      : filtered
        ? "No animal has this status in this category right now."
        : query.status === "all"
          ? "The shelter has not listed any animals yet. Please come back soon."
          : "Every animal listed has found a home or is on its way to one. Please come back soon.";
  const link = (target: BrowseQuery, label: string, className: string) => (
    <a
      href={browseHref(target)}
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
          {wider && link({ ...query, within: wider, cursor: undefined }, `Search within ${wider} mi`, buttonClass)}
          {link({ ...query, near: undefined, within: undefined, cursor: undefined }, "Search everywhere", buttonClass)}
        </div>
      ) : filtered ? (
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          {query.q && filteredBesidesSearch && link(withoutSearch, "Clear search", buttonClass)}
          {profile && (query.q || statusOrCategory) && link(withoutProfile, `Clear ${[query.sex, query.size, query.age, query.goodWith, query.houseTrained, query.specialNeeds !== undefined].filter(Boolean).length === 1 ? "the animal filter" : "the animal filters"}`, buttonClass)}
          {link(cleared, query.q && !filteredBesidesSearch ? "Clear search" : "Clear filters", buttonClass)}
        </div>
      ) : (
        query.status !== "all" && <div className="mt-4 flex justify-center">{link(everyStatus, "See all animals", buttonClass)}</div>
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
export function describeProfileFilters(query: BrowseQuery): string {
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
