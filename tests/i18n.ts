import { createTranslator } from "next-intl";
import en from "@/messages/en.json";
import es from "@/messages/es.json";

// The site's messages outside Next (vitest): next-intl's own translator over
// messages/<locale>.json, as the pages get it from i18n/request.ts.

export const MESSAGES = { en, es } as const;

/** next-intl's `t` for a namespace ("Browse", "Words"…) in a language. */
export function translator(locale: keyof typeof MESSAGES, namespace: string) {
  const t = createTranslator({ locale, messages: MESSAGES[locale] as Record<string, unknown>, namespace: namespace as never, timeZone: "UTC" });
  return t as unknown as ((key: string, values?: Record<string, string | number>) => string) & { has(key: string): boolean };
}

/** A stand-in for next-intl/server's getTranslations (English), for pages rendered in tests. */
export const nextIntlServerMock = () => ({
  getTranslations: async (namespace: string) => translator("en", namespace),
  getLocale: async () => "en",
  getMessages: async () => MESSAGES.en,
});
