"use client";

import { AGE_GROUPS, type AgeGroup } from "@/lib/pets/age";
import { AGE_HINTS, AGE_LABELS, GOOD_WITH, GOOD_WITH_LABELS, PET_SIZES, SIZE_LABELS } from "@/lib/pets/profile";
import type { Category } from "@/lib/pets/schemas";
import { PAGE_SIZES, type BrowseQuery } from "@/components/pets/browse-query";
import { primaryButtonClass, selectClass } from "@/components/pets/styles";

type ListFilter = "size" | "age" | "goodWith";

/** Ticking a box: the list in its canonical order, or no filter when none is left. */
function toggled<T extends string>(choices: readonly T[], current: readonly T[] | undefined, value: T, on: boolean): T[] | undefined {
  const next = choices.filter((choice) => (choice === value ? on : (current ?? []).includes(choice)));
  return next.length > 0 ? next : undefined;
}

/** A row of boxes shown as chips; each is a real checkbox, so keyboard and screen readers work as for any. */
function ChoiceGroup<T extends string>({
  name,
  legend,
  choices,
  labels,
  hints,
  selected,
  onChange,
}: {
  name: ListFilter;
  legend: string;
  choices: readonly T[];
  labels: Record<T, string>;
  hints?: Record<T, string>;
  selected: readonly T[] | undefined;
  onChange: (next: T[] | undefined) => void;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-semibold text-stone-800">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {choices.map((choice) => (
          <label
            key={choice}
            className="inline-flex cursor-pointer items-center gap-1.5 rounded-full border border-stone-400 bg-white px-3 py-1.5 text-sm text-stone-800 has-checked:border-emerald-700 has-checked:bg-emerald-50 has-checked:text-emerald-900 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-emerald-700"
          >
            <input
              type="checkbox"
              name={name}
              value={choice}
              checked={selected?.includes(choice) ?? false}
              onChange={(event) => onChange(toggled(choices, selected, choice, event.target.checked))}
              className="size-4 accent-emerald-700 focus-visible:outline-none"
            />
            {labels[choice]}
            {hints && <span className="sr-only">({hints[choice]})</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Category, sex, age, size, good with, and page size. A change applies at
 * once and starts again from the first page. It is a real GET form too, so
 * without JavaScript "Apply" does the same through a page load.
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
      <div className="w-full min-w-0 sm:w-40">
        <label htmlFor="filter-sex" className="block text-sm font-semibold text-stone-800">
          Sex
        </label>
        <select
          id="filter-sex"
          name="sex"
          className={selectClass}
          value={query.sex ?? ""}
          onChange={(event) => onNavigate({ ...query, sex: event.target.value === "female" || event.target.value === "male" ? event.target.value : undefined, cursor: undefined })}
        >
          <option value="">Any</option>
          <option value="female">Female</option>
          <option value="male">Male</option>
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
      <div className="flex w-full flex-wrap gap-x-8 gap-y-4">
        <ChoiceGroup
          name="age"
          legend="Age"
          choices={AGE_GROUPS}
          labels={AGE_LABELS}
          hints={AGE_HINTS as Record<AgeGroup, string>}
          selected={query.age}
          onChange={(age) => onNavigate({ ...query, age, cursor: undefined })}
        />
        <ChoiceGroup name="size" legend="Size" choices={PET_SIZES} labels={SIZE_LABELS} selected={query.size} onChange={(size) => onNavigate({ ...query, size, cursor: undefined })} />
        <ChoiceGroup
          name="goodWith"
          legend="Good with"
          choices={GOOD_WITH}
          labels={GOOD_WITH_LABELS}
          selected={query.goodWith}
          onChange={(goodWith) => onNavigate({ ...query, goodWith, cursor: undefined })}
        />
      </div>
      <noscript>
        <button type="submit" className={primaryButtonClass}>
          Apply
        </button>
      </noscript>
    </form>
  );
}
