"use client";

import { useLocalePath, useTranslations } from "@/lib/i18n/client-translator";
import { BROWSE_STATUSES, browseHref, type BrowseQuery, type BrowseStatus } from "@/components/pets/browse-query";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { focusRing } from "@/components/pets/styles";

// Available first: it is the page's default, what adopters come for; All last.
const TABS: BrowseStatus[] = [...BROWSE_STATUSES, "all"];

const LOOKS = {
  // A row of tabs above the filters (from 640 px up).
  tabs: {
    list: "flex flex-wrap gap-1 border-b border-stone-300",
    link: (current: boolean) =>
      `-mb-px inline-block rounded-t-md border-b-4 px-4 py-2 text-sm font-semibold ${
        current ? "border-emerald-700 bg-white text-emerald-900" : "border-transparent text-stone-700 hover:border-stone-400 hover:bg-stone-100"
      }`,
  },
  // One segmented control across the Filters sheet's width (phones).
  segmented: {
    list: "grid grid-cols-4 gap-1 rounded-lg bg-stone-100 p-1",
    link: (current: boolean) =>
      `block rounded-md px-2 py-2 text-center text-sm font-semibold ${
        current ? "bg-white text-emerald-900 shadow-sm ring-1 ring-emerald-700" : "text-stone-700 hover:bg-stone-200"
      }`,
  },
};

/**
 * The status filter as a nav of links (each view is a URL: shareable, opens
 * in a new tab, works without JavaScript), the current one marked with
 * aria-current. A plain click switches in place, keeping the other filters.
 */
export function StatusTabs({ query, onNavigate, look = "tabs" }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void; look?: keyof typeof LOOKS }) {
  const { list, link } = LOOKS[look];
  const t = useTranslations("Browse");
  const words = useTranslations("Words");
  const to = useLocalePath();
  return (
    <nav aria-label={t("statusNav")}>
      <ul className={list}>
        {TABS.map((status) => {
          const label = status === "all" ? t("all") : words(`status.${status}`);
          const next: BrowseQuery = { ...query, status, cursor: undefined };
          const current = query.status === status;
          return (
            <li key={status}>
              <a
                href={to(browseHref(next))}
                aria-current={current ? "page" : undefined}
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  onNavigate(next);
                }}
                className={`${link(current)} ${focusRing}`}
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
