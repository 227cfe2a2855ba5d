import { useLocale } from "next-intl";
import { useCallback } from "react";
import { DEFAULT_LOCALE, isLocale, localePath, type Locale } from "@/lib/i18n/locales";

/** The page's language, in components that render on either side. */
export function usePageLocale(): Locale {
  const locale = useLocale();
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/** Site paths in the page's language: `to("/pets/12")` is "/es/pets/12" on a Spanish page. */
export function useLocalePath(): (path: string) => string {
  const locale = usePageLocale();
  return useCallback((path: string) => localePath(locale, path), [locale]);
}
