"use client";

import type { PetStatus } from "@/lib/pets/schemas";
import { BROWSE_STATUSES, STATUS_LABELS, browseHref, type BrowseQuery } from "@/components/pets/browse-query";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { focusRing } from "@/components/pets/styles";

const TABS: { status: PetStatus | undefined; label: string }[] = [
  { status: undefined, label: "All" },
  ...BROWSE_STATUSES.map((status) => ({ status, label: STATUS_LABELS[status] })),
];

/**
 * The status filter as a nav of links (each view is a URL: shareable, opens
 * in a new tab, works without JavaScript), the current one marked with
 * aria-current. A plain click switches in place, keeping category and page size.
 */
export function StatusTabs({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void }) {
  return (
    <nav aria-label="Status">
      <ul className="flex flex-wrap gap-1 border-b border-stone-300">
        {TABS.map(({ status, label }) => {
          const next: BrowseQuery = { ...query, status, cursor: undefined };
          const current = query.status === status;
          return (
            <li key={label}>
              <a
                href={browseHref(next)}
                aria-current={current ? "page" : undefined}
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  onNavigate(next);
                }}
                className={`-mb-px inline-block rounded-t-md border-b-4 px-4 py-2 text-sm font-semibold ${focusRing} ${
                  current ? "border-emerald-700 bg-white text-emerald-900" : "border-transparent text-stone-700 hover:border-stone-400 hover:bg-stone-100"
                }`}
              >
                {label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
