import { categoryLabel } from "@/lib/i18n/words";
import { AGE_GROUPS } from "@/lib/pets/age";
import { GOOD_WITH, PET_SIZES } from "@/lib/pets/profile";
import type { Category } from "@/lib/pets/schemas/pet";
import { PAGE_SIZES, type BrowseQuery, type BrowseT } from "@/components/pets/browse-query";
import { filterFields, HOUSE_TRAINED, WITHIN_FIELD, type ListFilter } from "@/components/pets/filter-fields";
import { WITHIN_CHOICES_MI } from "@/lib/core/units";
import { primaryButtonClass, selectClass } from "@/components/pets/styles";

/** A row of boxes shown as chips; each is a real checkbox, so keyboard and screen readers work as for any. */
function ChoiceGroup<T extends string>({
  name,
  legend,
  choices,
  labels,
  hints,
  selected,
}: {
  name: ListFilter;
  legend: string;
  choices: readonly T[];
  labels: Record<T, string>;
  hints?: Record<T, string>;
  selected: readonly string[];
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
              defaultChecked={selected.includes(choice)}
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

/** The translators the form's words come from: next-intl's on the server, the page's own in the browser. */
export interface FilterWords {
  /** "Filters" messages. */
  t: BrowseT;
  /** "Words" messages: the profile's fixed words. */
  words: BrowseT;
  /** "Common" messages. */
  common: BrowseT;
}

/**
 * Category, sex, special needs, age, size, good with, house-trained, and page
 * size: a real GET form, so without JavaScript "Apply" loads the view. It is
 * markup only, with no handler and no state: the browse page draws it on the
 * server, and its JavaScript never ships with the first page (its weight,
 * e2e/ui/page-weight.spec.ts). In the browser one change handler reads the
 * whole form and the view follows (use-filter-form.ts: a change applies at
 * once and starts again from the first page), and when the view changes
 * elsewhere (Back, a status tab, Clear all) the fields are set from it again.
 *
 * Drawn twice on a page: in the filter row from 640 px up (by the server),
 * and in the Filters sheet on phones (components/pets/filter-sheet-dialog.tsx,
 * in the browser), where only the open sheet's copy exists; `idPrefix` keeps
 * their ids apart. Within (how far from the Near box's place) is here, after
 * Sex, shown while a place is set.
 */
export function BrowseFilters({
  query,
  categories,
  words: { t, words, common },
  action,
  idPrefix = "filter",
  look = "row",
}: {
  query: BrowseQuery;
  categories: Category[] | undefined;
  words: FilterWords;
  /** The page's own address in its language ("/" or "/es"). */
  action: string;
  idPrefix?: string;
  look?: keyof typeof LOOKS;
}) {
  const labelsOf = <T extends string>(group: string, choices: readonly T[]) =>
    Object.fromEntries(choices.map((choice) => [choice, words(`${group}.${choice}` as string)])) as Record<T, string>;
  // A category from a shared link that no longer exists still shows as chosen.
  const unknownCategory = query.category !== undefined && !categories?.some((c) => c.id === query.category);
  const fields = filterFields(query);
  const css = LOOKS[look];
  // A display preference rather than a filter: last in the sheet.
  const pageSize = (
    <div className={css.limit}>
      <label htmlFor={`${idPrefix}-limit`} className="block text-sm font-semibold text-stone-800">
        {t("perPage")}
      </label>
      <select id={`${idPrefix}-limit`} name="limit" className={selectClass} defaultValue={fields.limit[0]}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={String(size)}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    // autoComplete off: a page brought back from history shows its URL's view, not the form as it was left.
    <form method="get" action={action} autoComplete="off" className={css.form}>
      {(["q", "status", "near"] as const).map((name) => (
        <input key={name} type="hidden" name={name} defaultValue={fields[name][0]} disabled={fields[name].length === 0} />
      ))}
      <div className={css.category}>
        <label htmlFor={`${idPrefix}-category`} className="block text-sm font-semibold text-stone-800">
          {t("category")}
        </label>
        <select id={`${idPrefix}-category`} name="category" className={selectClass} defaultValue={fields.category[0] ?? ""}>
          <option value="">{t("allCategories")}</option>
          {categories?.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {categoryLabel(words, category.name)}
            </option>
          ))}
          {unknownCategory && <option value={String(query.category)}>{t("categoryNumber", { id: query.category! })}</option>}
        </select>
      </div>
      <div className={css.sex}>
        <label htmlFor={`${idPrefix}-sex`} className="block text-sm font-semibold text-stone-800">
          {t("sex")}
        </label>
        <select id={`${idPrefix}-sex`} name="sex" className={selectClass} defaultValue={fields.sex[0] ?? ""}>
          <option value="">{common("any")}</option>
          <option value="female">{words("sex.female")}</option>
          <option value="male">{words("sex.male")}</option>
        </select>
      </div>
      <div className={css.needs}>
        <label htmlFor={`${idPrefix}-special-needs`} className="block text-sm font-semibold text-stone-800">
          {t("specialNeeds")}
        </label>
        <select id={`${idPrefix}-special-needs`} name="specialNeeds" className={selectClass} defaultValue={fields.specialNeeds[0] ?? ""}>
          <option value="">{common("any")}</option>
          <option value="true">{t("specialNeedsYes")}</option>
          <option value="false">{t("specialNeedsNo")}</option>
        </select>
      </div>
      {/* Drawn even without a place (hidden, and not sent), so that it can appear when one is set. */}
      <div className={css.within} {...{ [WITHIN_FIELD]: "" }} hidden={!query.near}>
        <label htmlFor={`${idPrefix}-within`} className="block text-sm font-semibold text-stone-800">
          {t("within")}
        </label>
        <select id={`${idPrefix}-within`} name="within" className={selectClass} defaultValue={fields.within[0]} disabled={!query.near}>
          {WITHIN_CHOICES_MI.map((miles) => (
            <option key={miles} value={`${miles}mi`}>
              {t("miles", { miles })}
            </option>
          ))}
        </select>
      </div>
      {look === "row" && pageSize}
      <div className={css.chips}>
        <ChoiceGroup
          name="age"
          legend={t("age")}
          choices={AGE_GROUPS}
          labels={labelsOf("age", AGE_GROUPS)}
          hints={labelsOf("ageHint", AGE_GROUPS)}
          selected={fields.age}
        />
        <ChoiceGroup name="size" legend={t("size")} choices={PET_SIZES} labels={labelsOf("size", PET_SIZES)} selected={fields.size} />
        <ChoiceGroup name="goodWith" legend={t("goodWith")} choices={GOOD_WITH} labels={labelsOf("goodWith", GOOD_WITH)} selected={fields.goodWith} />
        <ChoiceGroup name="houseTrained" legend={t("care")} choices={HOUSE_TRAINED} labels={{ true: t("houseTrained") }} selected={fields.houseTrained} />
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
