// The adopters' site's languages and their addresses (no React, no Next:
// the proxy, the pages, the mail and the tests share it).
// English keeps today's URLs; every other language lives under its own
// prefix ("/es/pets/12"), which the proxy strips and hands to the pages as a
// request header, so one set of pages serves every language
// (docs/decisions/020-spanish.md). A third language is its code here and a
// messages/<code>.json file.

export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The name of each language in itself, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", es: "Español" };

/** Set by proxy.ts on every page request: the page's language. */
export const LOCALE_HEADER = "x-petstore-locale";
/** Set by proxy.ts: the origin the visitor used, for canonical and hreflang URLs. */
export const ORIGIN_HEADER = "x-petstore-origin";
/** Remembers the language last used, so Accept-Language only decides the first visit. */
export const LOCALE_COOKIE = "petstore_locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** "/es/pets/12" → { locale: "es", path: "/pets/12" }; "/pets/12" → English. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (match && isLocale(match[1]) && match[1] !== DEFAULT_LOCALE) return { locale: match[1], path: match[2] || "/" };
  return { locale: DEFAULT_LOCALE, path: pathname };
}

/** The address of a site path in a language: "/pets/12" → "/es/pets/12"; "/?q=x" → "/es?q=x". */
export function localePath(locale: Locale, path: string): string {
  if (locale === DEFAULT_LOCALE) return path;
  if (path === "/" || path.startsWith("/?") || path.startsWith("/#")) return `/${locale}${path.slice(1)}`;
  return `/${locale}${path}`;
}

/**
 * The language an Accept-Language header prefers among ours, by its q
 * values ("es-US,es;q=0.9,en;q=0.8" → "es"); English when none is ours.
 */
export function preferredLocale(acceptLanguage: string | null | undefined): Locale {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { base: (tag ?? "").trim().toLowerCase().split("-")[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.base && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLocale) ?? DEFAULT_LOCALE;
}
