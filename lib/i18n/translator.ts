import { createTranslator } from "use-intl/core";
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n/locales";
import en from "@/messages/en.json";
import es from "@/messages/es.json";

// The messages outside a page: the emails, written by jobs in the language
// stored with the application or alert (next-intl's own translator, over the
// same files as the pages).

const MESSAGES: Record<Locale, typeof en> = { en, es };

/** "es", or English for anything else (rows from before issue 36 say "en"). */
export function mailLocale(value: string | null | undefined): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** A translator for a namespace of the messages, in a language. */
export function translatorFor(locale: Locale, namespace: "Mail" | "AlertMail" | "Words" | "Shelters" | "FosterMail") {
  const t = createTranslator({ locale, messages: MESSAGES[locale] as Record<string, unknown>, namespace: namespace as never, timeZone: "UTC" });
  return t as unknown as (key: string, values?: Record<string, string | number>) => string;
}
