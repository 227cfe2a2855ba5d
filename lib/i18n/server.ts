import "server-only";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { getLocale } from "next-intl/server";
import { PATHNAME_HEADER } from "@/lib/core/socket-address";
import { DEFAULT_LOCALE, isLocale, LOCALES, localePath, ORIGIN_HEADER, type Locale } from "@/lib/i18n/locales";

/** The page's language (from proxy.ts's header, through next-intl). */
export async function pageLocale(): Promise<Locale> {
  const locale = await getLocale();
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/**
 * The page's canonical URL and its hreflang alternates: the same path in
 * each language, English as x-default. Absolute, on the origin the visitor
 * used (the site answers to several names: e2e/ui/any-host.spec.ts).
 */
export async function languageAlternates(): Promise<Pick<Metadata, "metadataBase" | "alternates">> {
  const incoming = await headers();
  const origin = incoming.get(ORIGIN_HEADER);
  const path = incoming.get(PATHNAME_HEADER) ?? "/";
  const locale = await pageLocale();
  return {
    ...(origin ? { metadataBase: new URL(origin) } : {}),
    alternates: {
      canonical: localePath(locale, path),
      languages: {
        ...Object.fromEntries(LOCALES.map((l) => [l, localePath(l, path)])),
        "x-default": localePath(DEFAULT_LOCALE, path),
      },
    },
  };
}
