"use client";

import { useCallback, useEffect, useRef } from "react";
import { filterFields, WITHIN_FIELD } from "@/components/pets/filter-fields";
import { browseHref, parseBrowseQuery, type BrowseQuery } from "@/components/pets/browse-query";

/**
 * The view the filter form shows: its fields over `query`'s searches and
 * status, from the first page (any change starts the list again). The
 * form is read whole, as a GET form sends it, by the same parser as the URL.
 */
function queryFromForm(form: HTMLFormElement, query: BrowseQuery): BrowseQuery {
  const data = new FormData(form);
  const shown = parseBrowseQuery((name) => data.getAll(name).map(String));
  const { category, sex, specialNeeds, age, size, goodWith, houseTrained, limit } = shown;
  return { ...query, category, sex, specialNeeds, age, size, goodWith, houseTrained, limit, within: query.near ? shown.within : undefined, cursor: undefined };
}

/** Sets every field from the view (Back, a status tab, Clear all changed it elsewhere); Within shows while a place is set. */
function showView(form: HTMLFormElement, query: BrowseQuery): void {
  const fields: Partial<Record<string, readonly string[]>> = filterFields(query);
  for (const field of Array.from(form.elements)) {
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
    const values = fields[field.name] ?? [];
    if (field instanceof HTMLInputElement && field.type === "checkbox") field.checked = values.includes(field.value);
    else field.value = values[0] ?? "";
    if (field.type === "hidden") field.disabled = values.length === 0;
  }
  const within = form.querySelector<HTMLElement>(`[${WITHIN_FIELD}]`);
  if (within) within.hidden = !query.near;
  form.querySelector<HTMLSelectElement>("select[name=within]")?.toggleAttribute("disabled", !query.near);
}

/**
 * Makes a filter form (browse-filters.tsx, markup only) work: `around` is an
 * element around it, and the change handler returned goes on that element. A change of any field applies the
 * whole form at once; a view changed elsewhere is shown in the fields. A
 * choice made on the server's form before the page's code ran is applied
 * when it runs, rather than lost.
 */
export function useFilterForm(around: React.RefObject<HTMLElement | null>, query: BrowseQuery, onNavigate: (next: BrowseQuery) => void) {
  const mounted = useRef(false);
  useEffect(() => {
    const element = around.current?.querySelector("form");
    if (!element) return;
    if (mounted.current) return showView(element, query);
    // After the effects of the whole page: Next's router follows history.pushState only once its own have run.
    const timer = setTimeout(() => {
      mounted.current = true;
      const shown = queryFromForm(element, query);
      if (browseHref({ ...shown, cursor: query.cursor }) !== browseHref(query)) onNavigate(shown);
    });
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new view sets the fields; a new onNavigate is not one
  }, [query]);
  return useCallback(
    (event: React.FormEvent) => {
      const element = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement ? event.target.form : null;
      if (element) onNavigate(queryFromForm(element, query));
    },
    [query, onNavigate],
  );
}
