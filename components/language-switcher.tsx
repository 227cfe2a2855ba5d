"use client";

import { useSearchParams } from "next/navigation";
import { LOCALE_NAMES, LOCALES, localePath, type Locale } from "@/lib/i18n/locales";

/**
 * "English" / "Español": the same page in the other language, with the
 * current query (the browse page changes its filters without a page load,
 * so the query is read here, where Next keeps it in step with the address).
 * A whole-page load: proxy.ts remembers the language chosen in a cookie.
 * Each name is in its own language, marked with lang and hreflang.
 */
export function LanguageSwitcher({ locale, path, label }: { locale: Locale; path: string; label: string }) {
  const search = useSearchParams()?.toString();
  return (
    <ul aria-label={label} className="flex items-center gap-0.5">
      {LOCALES.filter((other) => other !== locale).map((other) => (
        <li key={other}>
          <a
            href={localePath(other, search ? `${path}?${search}` : path)}
            hrefLang={other}
            lang={other}
            className="rounded-md px-2 py-2 text-sm font-medium text-stone-700 underline underline-offset-2 hover:bg-stone-100 sm:px-3 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
          >
            {LOCALE_NAMES[other]}
          </a>
        </li>
      ))}
    </ul>
  );
}
