"use client";

import { useLocalePath, useTranslations } from "@/lib/i18n/client-translator";
import { categoryLabel } from "@/lib/i18n/words";
import { AGE_GROUPS } from "@/lib/pets/age";
import { GOOD_WITH, PET_SIZES } from "@/lib/pets/profile";
import type { Category } from "@/lib/pets/schemas/pet";
import { useEffect, useRef } from "react";
import { DEFAULT_STATUS, PAGE_SIZES, parseBrowseQuery, sameQuery, type BrowseQuery } from "@/components/pets/browse-query";
import { DEFAULT_WITHIN_MI, WITHIN_CHOICES_MI } from "@/lib/core/units";
import { primaryButtonClass, selectClass } from "@/components/pets/styles";

type ListFilter = "size" | "age" | "goodWith" | "houseTrained";

/** House-trained as a one-chip group: ticked sends houseTrained=true. */
const HOUSE_TRAINED = ["true"] as const;

/** Ticking a box: the list in its canonical order, or no filter when none is left. */
function toggled<T extends string>(choices: readonly T[], current: readonly T[] | undefined, value: T, on: boolean): T[] | undefined {
  const next = choices.filter((choice) => (choice === value ? on : (current ?? []).includes(choice)));
  return next.length > 0 ? next : undefined;
}

/**
 * The filters the form shows, over `query`'s searches and status, from the
 * first page: the form read whole, as a GET form sends it, by the URL's own parser.
 */
function filtersShown(form: HTMLFormElement, query: BrowseQuery): BrowseQuery {
  const data = new FormData(form);
  const { category, sex, specialNeeds, age, size, goodWith, houseTrained, limit, within } = parseBrowseQuery((name) => data.getAll(name).map(String));
  return { ...query, category, sex, specialNeeds, age, size, goodWith, houseTrained, limit, within, cursor: undefined };
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

const LOOKS = {
  // One row of menus, then the chips (from 640 px up).
  row: {
    form: "flex flex-wrap items-end gap-4",
    category: "w-full min-w-0 sm:w-56",
    sex: "w-full min-w-0 sm:w-40",
    needs: "w-full min-w-0 sm:w-52",
    within: "w-full min-w-0 sm:w-36",
    limit: "w-32",
    chips: "flex w-full flex-wrap gap-x-8 gap-y-4",
  },
  // Stacked in the Filters sheet's column (phones): the menus two by two, each chip group on its own, the page size last.
  sheet: {
    form: "grid grid-cols-2 gap-x-3 gap-y-5",
    category: "min-w-0",
    sex: "min-w-0",
    needs: "min-w-0",
    within: "min-w-0",
    limit: "col-span-2 w-32",
    chips: "col-span-2 grid gap-5",
  },
};

/** The strings of the care filters (the others' words are the profile's: lib/pets/profile.ts). */

/**
 * Category, sex, special needs, age, size, good with, house-trained, and page size. A change applies at
 * once and starts again from the first page. It is a real GET form too, so
 * without JavaScript "Apply" does the same through a page load.
 *
 * Drawn twice on a page: in the filter row from 640 px up, and in the
 * Filters sheet on phones (components/pets/filter-sheet.tsx), where only the
 * open sheet's copy is rendered; `idPrefix` keeps their ids apart. Within
 * (how far from the Near box's place) is here, after Sex, while a place is set.
 */
export function BrowseFilters({
  query,
  categories,
  onNavigate,
  idPrefix = "filter",
  look = "row",
}: {
  query: BrowseQuery;
  categories: Category[] | undefined;
  onNavigate: (next: BrowseQuery) => void;
  idPrefix?: string;
  look?: keyof typeof LOOKS;
}) {
  // A category from a shared link that no longer exists still shows as chosen.
  const t = useTranslations("Filters");
  const words = useTranslations("Words");
  const common = useTranslations("Common");
  const to = useLocalePath();
  // A box ticked or a menu changed on the server's form before this code ran
  // stays so in the page (React does not set it back, nor replay the change):
  // the view follows it once the page's code runs, as it would have then. After
  // the effects of the whole page, since Next's router follows
  // history.pushState only once its own have run.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      const shown = form.current && filtersShown(form.current, query);
      if (shown && !sameQuery({ ...shown, cursor: query.cursor }, query)) onNavigate(shown);
    });
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the form the server drew
  }, []);
  const labelsOf = <T extends string>(group: string, choices: readonly T[]) =>
    Object.fromEntries(choices.map((choice) => [choice, words(`${group}.${choice}` as string)])) as Record<T, string>;
  const unknownCategory = query.category !== undefined && categories && !categories.some((c) => c.id === query.category);
  const css = LOOKS[look];
  // A display preference rather than a filter: last in the sheet.
  const pageSize = (
    <div className={css.limit}>
      <label htmlFor={`${idPrefix}-limit`} className="block text-sm font-semibold text-stone-800">
        {t("perPage")}
      </label>
      <select
        id={`${idPrefix}-limit`}
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
  );
  return (
    <form ref={form} method="get" action={to("/")} className={css.form} onSubmit={(event) => event.preventDefault()}>
      {query.q && <input type="hidden" name="q" value={query.q} />}
      {query.status !== DEFAULT_STATUS && <input type="hidden" name="status" value={query.status} />}
      <div className={css.category}>
        <label htmlFor={`${idPrefix}-category`} className="block text-sm font-semibold text-stone-800">
          {t("category")}
        </label>
        <select
          id={`${idPrefix}-category`}
          name="category"
          className={selectClass}
          value={query.category === undefined ? "" : String(query.category)}
          onChange={(event) => onNavigate({ ...query, category: event.target.value ? Number(event.target.value) : undefined, cursor: undefined })}
        >
          <option value="">{t("allCategories")}</option>
          {categories?.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {categoryLabel(words, category.name)}
            </option>
          ))}
          {(unknownCategory || (query.category !== undefined && !categories)) && (
            <option value={String(query.category)}>{t("categoryNumber", { id: query.category! })}</option>
          )}
        </select>
      </div>
      <div className={css.sex}>
        <label htmlFor={`${idPrefix}-sex`} className="block text-sm font-semibold text-stone-800">
          {t("sex")}
        </label>
        <select
          id={`${idPrefix}-sex`}
          name="sex"
          className={selectClass}
          value={query.sex ?? ""}
          onChange={(event) =>
            onNavigate({ ...query, sex: event.target.value === "female" || event.target.value === "male" ? event.target.value : undefined, cursor: undefined })
          }
        >
          <option value="">{common("any")}</option>
          <option value="female">{words("sex.female")}</option>
          <option value="male">{words("sex.male")}</option>
        </select>
      </div>
      <div className={css.needs}>
        <label htmlFor={`${idPrefix}-special-needs`} className="block text-sm font-semibold text-stone-800">
          {t("specialNeeds")}
        </label>
        <select
          id={`${idPrefix}-special-needs`}
          name="specialNeeds"
          className={selectClass}
          value={query.specialNeeds === undefined ? "" : String(query.specialNeeds)}
          onChange={(event) => onNavigate({ ...query, specialNeeds: event.target.value === "" ? undefined : event.target.value === "true", cursor: undefined })}
        >
          <option value="">{common("any")}</option>
          <option value="true">{t("specialNeedsYes")}</option>
          <option value="false">{t("specialNeedsNo")}</option>
        </select>
      </div>
      {query.near && (
        <div className={css.within}>
          <input type="hidden" name="near" value={query.near} />
          <label htmlFor={`${idPrefix}-within`} className="block text-sm font-semibold text-stone-800">
            {t("within")}
          </label>
          <select
            id={`${idPrefix}-within`}
            name="within"
            className={selectClass}
            value={`${query.within ?? DEFAULT_WITHIN_MI}mi`}
            onChange={(event) => onNavigate({ ...query, within: WITHIN_CHOICES_MI.find((m) => `${m}mi` === event.target.value), cursor: undefined })}
          >
            {WITHIN_CHOICES_MI.map((miles) => (
              <option key={miles} value={`${miles}mi`}>
                {t("miles", { miles })}
              </option>
            ))}
          </select>
        </div>
      )}
      {look === "row" && pageSize}
      <div className={css.chips}>
        <ChoiceGroup
          name="age"
          legend={t("age")}
          choices={AGE_GROUPS}
          labels={labelsOf("age", AGE_GROUPS)}
          hints={labelsOf("ageHint", AGE_GROUPS)}
          selected={query.age}
          onChange={(age) => onNavigate({ ...query, age, cursor: undefined })}
        />
        <ChoiceGroup
          name="size"
          legend={t("size")}
          choices={PET_SIZES}
          labels={labelsOf("size", PET_SIZES)}
          selected={query.size}
          onChange={(size) => onNavigate({ ...query, size, cursor: undefined })}
        />
        <ChoiceGroup
          name="goodWith"
          legend={t("goodWith")}
          choices={GOOD_WITH}
          labels={labelsOf("goodWith", GOOD_WITH)}
          selected={query.goodWith}
          onChange={(goodWith) => onNavigate({ ...query, goodWith, cursor: undefined })}
        />
        <ChoiceGroup
          name="houseTrained"
          legend={t("care")}
          choices={HOUSE_TRAINED}
          labels={{ true: t("houseTrained") }}
          selected={query.houseTrained ? HOUSE_TRAINED : undefined}
          onChange={(chosen) => onNavigate({ ...query, houseTrained: chosen ? true : undefined, cursor: undefined })}
        />
      </div>
      {look === "sheet" && pageSize}
      <noscript>
        <button type="submit" className={primaryButtonClass}>
          {common("apply")}
        </button>
      </noscript>
    </form>
  );
}
