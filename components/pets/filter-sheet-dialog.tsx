"use client";

import { useLocalePath, usePageLocale, useTranslations } from "@/lib/i18n/client-translator";
import { countArgs } from "@/lib/i18n/numbers";
import { useLayoutEffect, useRef } from "react";
import type { Category } from "@/lib/pets/schemas/pet";
import { activeFilterCount, browseHref, withoutFilters, type BrowseQuery } from "@/components/pets/browse-query";
import { BrowseFilters } from "@/components/pets/browse-filters";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { StatusTabs } from "@/components/pets/status-tabs";
import { buttonClass, disabledButtonClass, focusRing, primaryButtonClass } from "@/components/pets/styles";

/**
 * The Filters sheet itself (filter-sheet.tsx has the button): loaded when it
 * is first opened, mounted while it is open, and opened as a modal at once,
 * its body already there for the browser's dialog focusing to find.
 */
export function FilterSheetDialog({
  query,
  categories,
  onNavigate,
  count,
  onClose,
}: {
  query: BrowseQuery;
  categories: Category[] | undefined;
  onNavigate: (next: BrowseQuery) => void;
  count: number | undefined;
  /** The dialog closed (Escape, a tap outside, Close or "Show N animals"). */
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const active = activeFilterCount(query);
  const cleared = withoutFilters(query);
  const t = useTranslations("Filters");
  const common = useTranslations("Common");
  const to = useLocalePath();
  const locale = usePageLocale();
  const show = count === undefined ? t("showAnimals") : t("showCount", countArgs(count, locale));
  useLayoutEffect(() => {
    dialog.current?.showModal();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="filter-sheet-title"
      // A tap on the dimmed page closes it too.
      closedby="any"
      onClose={onClose}
      className="fixed inset-x-0 top-auto bottom-0 m-0 max-h-[88dvh] w-full max-w-none rounded-t-2xl bg-white p-0 text-stone-900 shadow-2xl backdrop:bg-stone-950/50 open:flex open:flex-col"
    >
      <div className="flex items-center justify-between gap-4 border-b border-stone-200 py-2 pr-2 pl-4">
        <h2 id="filter-sheet-title" className="text-lg font-bold">
          {t("filters")}
        </h2>
        <button
          type="button"
          aria-label={common("close")}
          className={`rounded-md p-2 text-stone-700 hover:bg-stone-100 ${focusRing}`}
          onClick={() => dialog.current?.close()}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
            <path d="M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7z" />
          </svg>
        </button>
      </div>
      <div className="min-h-0 flex-1 space-y-6 overflow-y-auto overscroll-contain px-4 py-5">
        <StatusTabs query={query} onNavigate={onNavigate} look="segmented" />
        <BrowseFilters query={query} categories={categories} onNavigate={onNavigate} idPrefix="sheet" look="sheet" />
      </div>
      <div className="flex items-center gap-3 border-t border-stone-200 px-4 py-3">
        {active > 0 ? (
          <a
            href={to(browseHref(cleared))}
            className={buttonClass}
            onClick={(event) => {
              if (!isPlainClick(event)) return;
              event.preventDefault();
              onNavigate(cleared);
            }}
          >
            {t("clearAll")}
          </a>
        ) : (
          <a role="link" aria-disabled="true" className={disabledButtonClass}>
            {t("clearAll")}
          </a>
        )}
        <button type="button" className={`${primaryButtonClass} flex-1`} onClick={() => dialog.current?.close()}>
          {show}
        </button>
        {/* The page behind is inert while the sheet is open: its own status line is not announced. */}
        <p role="status" className="sr-only">
          {count === undefined ? "" : t("countMatch", countArgs(count, locale))}
        </p>
      </div>
    </dialog>
  );
}
