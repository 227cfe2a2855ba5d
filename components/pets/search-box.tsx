"use client";

import { useLocalePath, useTranslations } from "@/lib/i18n/client-translator";
import { useEffect, useState } from "react";
import { DEFAULT_STATUS, SEARCH_MAX, normaliseSearch, type BrowseQuery } from "@/components/pets/browse-query";
import { buttonClass, selectClass } from "@/components/pets/styles";

/** How long typing must pause before the list follows it. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Name search. The text lives in the URL like the other filters (?q=), so a
 * search can be shared and Back undoes it; the list follows the typing once
 * it pauses (debounced), or at once on Enter. Without JavaScript it is a
 * plain GET form that keeps the other filters.
 */
export function SearchBox({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery, options?: { replace?: boolean }) => void }) {
  const t = useTranslations("Browse");
  const common = useTranslations("Common");
  const to = useLocalePath();
  const [text, setText] = useState(query.q ?? "");
  // When the URL's q changes from outside (Back, a link, "Clear search"),
  // the box follows, unless it already says the same (trailing spaces being typed).
  const [urlQ, setUrlQ] = useState(query.q);
  if (query.q !== urlQ) {
    setUrlQ(query.q);
    if (normaliseSearch(text) !== query.q) setText(query.q ?? "");
  }

  useEffect(() => {
    const wanted = normaliseSearch(text);
    if (wanted === query.q) return;
    const refining = query.q !== undefined && wanted !== undefined;
    const timer = setTimeout(() => onNavigate({ ...query, q: wanted, cursor: undefined }, { replace: refining }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, query, onNavigate]);

  return (
    <form
      role="search"
      method="get"
      action={to("/")}
      className="flex w-full max-w-md items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const wanted = normaliseSearch(text);
        if (wanted !== query.q) onNavigate({ ...query, q: wanted, cursor: undefined });
      }}
    >
      {query.status !== DEFAULT_STATUS && <input type="hidden" name="status" value={query.status} />}
      {query.category !== undefined && <input type="hidden" name="category" value={String(query.category)} />}
      {query.near && <input type="hidden" name="near" value={query.near} />}
      <div className="min-w-0 flex-1">
        <label htmlFor="search-name" className="block text-sm font-semibold text-stone-800">
          {t("searchLabel")}
        </label>
        <input
          id="search-name"
          name="q"
          type="search"
          value={text}
          maxLength={SEARCH_MAX * 2}
          autoComplete="off"
          spellCheck={false}
          placeholder={t("searchPlaceholder")}
          onChange={(event) => setText(event.target.value)}
          className={selectClass}
        />
      </div>
      <noscript>
        <button type="submit" className={buttonClass}>
          {common("search")}
        </button>
      </noscript>
    </form>
  );
}
