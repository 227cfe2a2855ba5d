import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE, isLocale, LOCALE_HEADER } from "@/lib/i18n/locales";

// next-intl's per-request configuration (found by its plugin in
// next.config.mjs): the language is the one proxy.ts read from the address
// ("/es/…"), not a [locale] route segment, so English keeps today's URLs and
// one set of pages serves both languages (docs/decisions/020-spanish.md).
export default getRequestConfig(async ({ locale: asked }) => {
  const fromHeader = (await headers()).get(LOCALE_HEADER);
  const locale = isLocale(asked) ? asked : isLocale(fromHeader) ? fromHeader : DEFAULT_LOCALE;
  return {
    locale,
    messages: (await import(`../messages/${locale}.json`)).default,
    // Dates are calendar days stored at midnight UTC (as the pages already
    // show them); the server and the browser must agree, or hydration differs.
    timeZone: "UTC",
  };
});
