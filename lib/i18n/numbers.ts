import type { Locale } from "@/lib/i18n/locales";

// Whole numbers as the page's language writes them ("20", "1,200"), without
// Intl where Intl would change nothing.
//
// Why not ICU's "#" or toLocaleString: in the browser, the first
// Intl.NumberFormat of a page (toLocaleString makes one) loads the
// language's number data: 13-28 ms of main thread in Debian's Chromium on
// this machine, unthrottled, which Lighthouse's phone slowdown turns into
// about 150 ms of blocking time while "/" hydrates, for the "20" of "Showing
// 20 animals". A whole number below 1,000 has no separator, and every
// language in LOCALES writes Western digits, so its digits are the text.
// Larger ones (and a language with other digits, when one is added) go
// through Intl. The messages that client components render therefore take
// a formatted `{shown}` argument beside the plural's `count` instead of "#"
// (tests/site/i18n.test.ts holds them to it).

/** The Intl locale of each language: the site's adopters are in the US ("es-US" groups 1,200 as US Spanish does). */
export const INTL_LOCALE: Record<Locale, string> = { en: "en-US", es: "es-US" };

/** The languages whose numbers are written in the digits 0-9. */
const WESTERN_DIGITS: ReadonlySet<Locale> = new Set<Locale>(["en", "es"]);

const formats = new Map<Locale, Intl.NumberFormat>();

export function wholeNumber(n: number, locale: Locale): string {
  if (Number.isInteger(n) && Math.abs(n) < 1000 && WESTERN_DIGITS.has(locale)) return String(n);
  let format = formats.get(locale);
  if (!format) formats.set(locale, (format = new Intl.NumberFormat(INTL_LOCALE[locale], { maximumFractionDigits: 0 })));
  return format.format(n);
}

/** The arguments of a counting message: `count` chooses the plural, `shown` is the number as written. */
export function countArgs(count: number, locale: Locale): { count: number; shown: string } {
  return { count, shown: wholeNumber(count, locale) };
}
