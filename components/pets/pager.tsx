"use client";

import { useLocalePath, useTranslations } from "@/lib/i18n/client-translator";
import { browseHref, type BrowseQuery } from "@/components/pets/browse-query";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { buttonClass, disabledButtonClass } from "@/components/pets/styles";

interface PagerProps {
  query: BrowseQuery;
  /** Cursors from the current page's Link header; absent at either end. */
  prev: string | undefined;
  next: string | undefined;
  /** Another page is on its way: its cursors are not known yet. */
  busy: boolean;
  onNavigate: (next: BrowseQuery) => void;
}

/**
 * Previous and Next, as links to the neighbouring pages (openable in a new
 * tab, and working without JavaScript). While a page loads they stay in
 * place and focusable, but ignore clicks: the cursors shown are the old page's.
 */
export function Pager({ query, prev, next, busy, onNavigate }: PagerProps) {
  const t = useTranslations("Browse");
  const to = useLocalePath();
  const item = (which: "previous" | "next", cursor: string | undefined) => {
    const label = t(which);
    const arrow = <span aria-hidden="true">{which === "previous" ? "←" : "→"}</span>;
    const content = which === "previous" ? [arrow, " ", label] : [label, " ", arrow];
    if (cursor === undefined) {
      return (
        <a role="link" aria-disabled="true" className={disabledButtonClass}>
          {content}
        </a>
      );
    }
    const target: BrowseQuery = { ...query, cursor };
    return (
      <a
        href={to(browseHref(target))}
        aria-disabled={busy || undefined}
        className={`${buttonClass} ${busy ? "cursor-wait opacity-70" : ""}`}
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          if (!busy) onNavigate(target);
        }}
      >
        {content}
      </a>
    );
  };
  return (
    <nav aria-label={t("pages")} className="flex items-center justify-between gap-4">
      {item("previous", prev)}
      {item("next", next)}
    </nav>
  );
}
