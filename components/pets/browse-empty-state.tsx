"use client";

import { browseHref, type BrowseQuery } from "@/components/pets/browse-query";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { Picture } from "@/components/pets/pet-picture";
import { buttonClass } from "@/components/pets/styles";

/** Nothing to show for this view, what was asked for, and the way back to every animal. */
export function BrowseEmptyState({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void }) {
  const filtered = query.q !== undefined || query.status !== undefined || query.category !== undefined || query.cursor !== undefined;
  const cleared: BrowseQuery = { limit: query.limit };
  const withoutSearch: BrowseQuery = { ...query, q: undefined, cursor: undefined };
  const filteredBesidesSearch = query.status !== undefined || query.category !== undefined;
  const heading = query.q ? `No animals match “${query.q}”` : filtered ? "No animals match" : "No animals yet";
  const text = query.q
    ? `No animal${filteredBesidesSearch ? " with this status and category" : ""} has a name containing “${query.q}”. Check the spelling, or try part of the name.`
    : filtered
      ? "No animal has this status in this category right now."
      : "The shelter has not listed any animals yet. Please come back soon.";
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
      {filtered && (
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          {query.q && filteredBesidesSearch && link(withoutSearch, "Clear search", buttonClass)}
          {link(cleared, query.q && !filteredBesidesSearch ? "Clear search" : "Clear filters", buttonClass)}
        </div>
      )}
    </div>
  );
}
