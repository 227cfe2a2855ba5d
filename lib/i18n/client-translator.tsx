"use client";

import format, { type CompiledMessage } from "icu-minify/format";
import type { AbstractIntlMessages } from "next-intl";
import { createContext, Fragment, isValidElement, useCallback, useContext, useMemo } from "react";
import { localePath, type Locale } from "@/lib/i18n/locales";

// The browse page's translator: its first page's controls say their words
// through this instead of next-intl's client runtime (use-intl, 3.5 kB of
// gzip that every page loaded from the root layout). The messages are
// next-intl's own, precompiled by its plugin (next.config.mjs), so one
// formatter does (icu-minify's, 0.8 kB: plurals, selects, arguments, tags).
// The rest of the site keeps next-intl in the layouts of the pages whose
// client components use it; the browse page's parts that load later (cards
// of another page, the empty state, the sheet, the alert's form) get a
// NextIntlClientProvider over these same messages
// (lib/i18n/next-intl-bridge.tsx). docs/decisions/012-phone-first-browse.md.

type Values = Record<string, string | number | Date>;
type RichValues = Record<string, string | number | Date | ((chunks: React.ReactNode[]) => React.ReactNode)>;

export interface ClientTranslator {
  (key: string, values?: Values): string;
  /** A message with tags (`<sr>…</sr>`), each given as a function of its contents. */
  rich(key: string, values: RichValues): React.ReactNode;
}

interface ClientMessagesValue {
  locale: Locale;
  messages: AbstractIntlMessages;
}

const ClientMessagesContext = createContext<ClientMessagesValue | null>(null);

/** The page's language and the messages its client components use (lib/i18n/client-messages.ts). */
export function ClientMessages({ locale, messages, children }: ClientMessagesValue & { children: React.ReactNode }) {
  const value = useMemo(() => ({ locale, messages }), [locale, messages]);
  return <ClientMessagesContext value={value}>{children}</ClientMessagesContext>;
}

/** The language and messages of the page (for the bridge to next-intl). */
export function useClientMessages(): ClientMessagesValue {
  const value = useContext(ClientMessagesContext);
  if (!value) throw new Error("ClientMessages is missing above this component");
  return value;
}

// Plural rules are kept per language (a page says "20 animals" at every
// view); the client messages use no number or date arguments, so those are
// made as asked.
const pluralRules = new Map<string, Intl.PluralRules>();
const formatters = {
  getPluralRules(locale?: Intl.LocalesArgument, options?: Intl.PluralRulesOptions) {
    const key = `${String(locale)} ${options?.type}`;
    let rules = pluralRules.get(key);
    if (!rules) pluralRules.set(key, (rules = new Intl.PluralRules(locale, options)));
    return rules;
  },
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
};

function lookUp(messages: AbstractIntlMessages, path: string): CompiledMessage | undefined {
  let node: unknown = messages;
  for (const part of path.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  return node === undefined || (typeof node === "object" && !Array.isArray(node)) ? undefined : (node as CompiledMessage);
}

/** Like next-intl's useTranslations, for plain messages and tags: `t("key", { count })`, `t.rich("key", { b: (c) => <b>{c}</b> })`. */
export function useTranslations(namespace: string): ClientTranslator {
  const { locale, messages } = useClientMessages();
  return useMemo(() => {
    const run = (key: string, values: RichValues | undefined) => {
      const message = lookUp(messages, `${namespace}.${key}`);
      // As next-intl shows a missing message: its key.
      if (message === undefined) return `${namespace}.${key}`;
      return format<React.ReactNode>(message, locale, values, { formatters, timeZone: "UTC" });
    };
    const rich = (key: string, values: RichValues) => {
      const out = run(key, values);
      // Elements from tags, side by side, need keys as next-intl gives them.
      return Array.isArray(out) ? out.map((part, i) => (isValidElement(part) ? <Fragment key={i}>{part}</Fragment> : part)) : out;
    };
    return Object.assign((key: string, values?: Values) => String(run(key, values)), { rich });
  }, [locale, messages, namespace]);
}

/** The page's language. */
export function usePageLocale(): Locale {
  return useClientMessages().locale;
}

/** Site paths in the page's language: `to("/pets/12")` is "/es/pets/12" on a Spanish page. */
export function useLocalePath(): (path: string) => string {
  const locale = usePageLocale();
  return useCallback((path: string) => localePath(locale, path), [locale]);
}
