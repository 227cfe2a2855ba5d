"use client";

import type { Category } from "@/lib/pets/schemas";
import { PAGE_SIZES, type BrowseQuery } from "@/components/pets/browse-query";
import { primaryButtonClass, selectClass } from "@/components/pets/styles";

/**
 * Category and page size. A change applies at once and starts again from the
 * first page. It is a real GET form too, so without JavaScript "Apply" does
 * the same through a page load.
 */
export function BrowseFilters({
  query,
  categories,
  onNavigate,
}: {
  query: BrowseQuery;
  categories: Category[] | undefined;
  onNavigate: (next: BrowseQuery) => void;
}) {
  // A category from a shared link that no longer exists still shows as chosen.
  const unknownCategory = query.category !== undefined && categories && !categories.some((c) => c.id === query.category);
  return (
    <form method="get" action="/" className="flex flex-wrap items-end gap-4" onSubmit={(event) => event.preventDefault()}>
      {query.q && <input type="hidden" name="q" value={query.q} />}
      {query.status && <input type="hidden" name="status" value={query.status} />}
      <div className="w-full min-w-0 sm:w-56">
        <label htmlFor="filter-category" className="block text-sm font-semibold text-stone-800">
          Category
        </label>
        <select
          id="filter-category"
          name="category"
          className={selectClass}
          value={query.category === undefined ? "" : String(query.category)}
          onChange={(event) => onNavigate({ ...query, category: event.target.value ? Number(event.target.value) : undefined, cursor: undefined })}
        >
          <option value="">All categories</option>
          {categories?.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {category.name}
            </option>
          ))}
          {(unknownCategory || (query.category !== undefined && !categories)) && (
            <option value={String(query.category)}>Category {query.category}</option>
          )}
        </select>
      </div>
      <div className="w-32">
        <label htmlFor="filter-limit" className="block text-sm font-semibold text-stone-800">
          Per page
        </label>
        <select
          id="filter-limit"
          name="limit"
          className={selectClass}
          value={String(query.limit)}
          onChange={(event) => onNavigate({ ...query, limit: Number(event.target.value), cursor: undefined })}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <noscript>
        <button type="submit" className={primaryButtonClass}>
          Apply
        </button>
      </noscript>
    </form>
  );
}
