"use client";

import { useTranslations } from "next-intl";
import { countArgs } from "@/lib/i18n/numbers";
import { useLocalePath, usePageLocale } from "@/lib/i18n/paths";
import { useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { Category } from "@/lib/pets/schemas/pet";
import { activeFilterCount, browseHref, withoutFilters, type BrowseQuery } from "@/components/pets/browse-query";
import { BrowseFilters } from "@/components/pets/browse-filters";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { StatusTabs } from "@/components/pets/status-tabs";
import { buttonClass, disabledButtonClass, focusRing, primaryButtonClass } from "@/components/pets/styles";

/** The id of the button that opens the sheet: the page's no-JavaScript style hides it (pet-browser.tsx). */
export const FILTERS_BUTTON_ID = "filters-button";

/**
 * Phones (under 640 px): the status, category, sex, age, size, good-with and
 * page-size filters live in a sheet that a "Filters (N)" button opens, so the
 * animals come first on the screen. The sheet is a native modal <dialog>:
 * the browser moves focus into it and back to the button, closes it on
 * Escape, and makes the page behind it inert (globals.css also stops that
 * page scrolling). Its choices apply at once, each a new URL as on a wide
 * screen, so the list behind it, Back and sharing work as they always did;
 * "Show N animals" only closes it.
 *
 * Its body is rendered only while it is open: the wide screen's filter row
 * is the page's one copy of those controls otherwise (no duplicate labels),
 * and the first page carries no extra markup.
 */
export function FilterSheet({
  query,
  categories,
  onNavigate,
  count,
}: {
  query: BrowseQuery;
  categories: Category[] | undefined;
  onNavigate: (next: BrowseQuery) => void;
  /** How many animals the current choice shows, when the page already tells (it fits on one page); undefined when unknown. */
  count: number | undefined;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(query);
  const cleared = withoutFilters(query);
  const t = useTranslations("Filters");
  const common = useTranslations("Common");
  const to = useLocalePath();
  const locale = usePageLocale();
  const show = count === undefined ? t("showAnimals") : t("showCount", countArgs(count, locale));

  return (
    <>
      <button
        id={FILTERS_BUTTON_ID}
        type="button"
        aria-haspopup="dialog"
        // Named "Filters (2)" as one phrase (the badge alone would read "Filters 2").
        aria-label={active > 0 ? t("filtersCount", { count: active }) : undefined}
        className={`${buttonClass} shrink-0 sm:hidden`}
        onClick={() => {
          // The body first, so the browser's dialog focusing finds its controls.
          flushSync(() => setOpen(true));
          dialog.current?.showModal();
        }}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M3 5h8.2a2.5 2.5 0 0 1 4.6 0H17v1.5h-1.2a2.5 2.5 0 0 1-4.6 0H3zm10.5.75a1 1 0 1 0 0 .01zM3 13.5h1.2a2.5 2.5 0 0 1 4.6 0H17V15H8.8a2.5 2.5 0 0 1-4.6 0H3zm3.5.75a1 1 0 1 0 0 .01z" />
        </svg>
        {t("filters")}
        {active > 0 && (
          <span aria-hidden="true" className="-my-0.5 inline-flex min-w-5 justify-center rounded-full bg-emerald-700 px-1.5 text-xs/5 font-bold text-white">
            {active}
          </span>
        )}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="filter-sheet-title"
        // A tap on the dimmed page closes it too.
        closedby="any"
        onClose={() => setOpen(false)}
        className="fixed inset-x-0 top-auto bottom-0 m-0 max-h-[88dvh] w-full max-w-none rounded-t-2xl bg-white p-0 text-stone-900 shadow-2xl backdrop:bg-stone-950/50 open:flex open:flex-col"
      >
        <div className="flex items-center justify-between gap-4 border-b border-stone-200 py-2 pr-2 pl-4">
          <h2 id="filter-sheet-title" className="text-lg font-bold">
            {t("filters")}
          </h2>
          <button type="button" aria-label={common("close")} className={`rounded-md p-2 text-stone-700 hover:bg-stone-100 ${focusRing}`} onClick={() => dialog.current?.close()}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
              <path d="M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7z" />
            </svg>
          </button>
        </div>
        {open && (
          <>
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
          </>
        )}
      </dialog>
    </>
  );
}
