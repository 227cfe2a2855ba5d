import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { wholeNumber } from "@/lib/i18n/numbers";
import { KM_PER_MILE } from "@/lib/core/units";

// The fixed words of data, in the page's language. `t` is next-intl's
// translator for the "Words" namespace (useTranslations or getTranslations:
// these run on both sides).
type WordsT = (key: string, values?: Record<string, string | number>) => string;

/** The seed's and the shelters' usual categories, by their stored (English) name. */
const CATEGORY_KEYS: Record<string, string> = {
  dogs: "dogs",
  cats: "cats",
  rabbits: "rabbits",
  birds: "birds",
  reptiles: "reptiles",
  "small mammals": "smallMammals",
};

/** "Perros" for the category stored as "Dogs"; a category a shelter named itself is shown as written. */
export function categoryLabel(t: WordsT, name: string | undefined): string {
  if (name === undefined) return t("unknownCategory");
  const key = CATEGORY_KEYS[name.trim().toLowerCase()];
  return key ? t(`category.${key}`) : name;
}

/** "12 mi away" / "a 12 mi", "Less than a mile away": a distance in km as adopters read it. */
export function milesAwayLabel(t: WordsT, km: number, locale: string): string {
  const miles = km / KM_PER_MILE;
  if (miles < 1) return t("lessThanAMile");
  return t("milesAway", { miles: wholeNumber(Math.round(miles), isLocale(locale) ? locale : DEFAULT_LOCALE) });
}
