"use client";

import Link from "next/link";
import { browseHref, type BrowseQuery } from "@/components/pets/browse-query";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { PawPicture } from "@/components/pets/paw-picture";
import { buttonClass } from "@/components/pets/styles";

/** Nothing to show for this view, and the way back to every animal. */
export function BrowseEmptyState({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void }) {
  const filtered = query.status !== undefined || query.category !== undefined || query.cursor !== undefined;
  const cleared: BrowseQuery = { limit: query.limit };
  return (
    <div className="rounded-xl border border-dashed border-stone-400 bg-white px-6 py-10 text-center">
      <PawPicture className="mx-auto h-24 w-32 rounded-lg" />
      <h3 className="mt-4 text-lg font-semibold text-stone-900">{filtered ? "No animals match" : "No animals yet"}</h3>
      <p className="mt-1 text-stone-700">
        {filtered ? "No animal has this status in this category right now." : "The shelter has not listed any animals yet. Please come back soon."}
      </p>
      {filtered && (
        <Link
          href={browseHref(cleared)}
          prefetch={false}
          scroll={false}
          className={`${buttonClass} mt-4`}
          onClick={(event) => {
            if (!isPlainClick(event)) return;
            event.preventDefault();
            onNavigate(cleared);
          }}
        >
          Clear filters
        </Link>
      )}
    </div>
  );
}
