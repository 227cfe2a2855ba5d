"use client";

import { useTranslations } from "@/lib/i18n/client-translator";
import { lazy, Suspense, useState } from "react";
import type { Category } from "@/lib/pets/schemas/pet";
import { activeFilterCount, type BrowseQuery } from "@/components/pets/browse-query";
import { buttonClass } from "@/components/pets/styles";

// The sheet's code loads when it is first opened: a wide screen never opens
// it, and a phone's first page (its JavaScript budget,
// e2e/ui/page-weight.spec.ts) needs only the button. Unreachable, it says so
// beside the button, as the alert's form does.
type DialogProps = React.ComponentProps<(typeof import("@/components/pets/filter-sheet-dialog"))["FilterSheetDialog"]>;
const FilterSheetDialog = lazy<React.ComponentType<DialogProps>>(() =>
  import("@/components/pets/filter-sheet-dialog").then(
    (m) => ({ default: m.FilterSheetDialog }),
    () => ({
      default: function FilterSheetUnreachable() {
        const common = useTranslations("Common");
        return (
          <p role="alert" className="text-sm text-red-900">
            {common("genericError")}
          </p>
        );
      },
    }),
  ),
);

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
 * It is rendered only while it is open (filter-sheet-dialog.tsx): the wide
 * screen's filter row is the page's one copy of those controls otherwise
 * (no duplicate labels), and the first page carries no extra markup.
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
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(query);
  const t = useTranslations("Filters");

  return (
    <>
      <button
        id={FILTERS_BUTTON_ID}
        type="button"
        aria-haspopup="dialog"
        // Named "Filters (2)" as one phrase (the badge alone would read "Filters 2").
        aria-label={active > 0 ? t("filtersCount", { count: active }) : undefined}
        className={`${buttonClass} shrink-0 sm:hidden`}
        onClick={() => setOpen(true)}
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
      {open && (
        <Suspense>
          <FilterSheetDialog query={query} categories={categories} onNavigate={onNavigate} count={count} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
