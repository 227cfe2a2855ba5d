"use client";

import { NextIntlClientProvider } from "next-intl";
import { useClientMessages } from "@/lib/i18n/client-translator";

/**
 * next-intl for the browse page's parts that load later (the cards of
 * another page, shared with the server's render, the empty state, the
 * sheet, the alert's form): its provider over the page's own messages
 * (lib/i18n/client-translator.tsx), so its runtime comes with them, not
 * with the first page.
 */
export function NextIntlBridge({ children }: { children: React.ReactNode }) {
  const { locale, messages } = useClientMessages();
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}

/** A component of a chunk that loads later, under the bridge. */
export function withNextIntl<P extends object>(Component: React.ComponentType<P>): React.ComponentType<P> {
  return function WithNextIntl(props: P) {
    return (
      <NextIntlBridge>
        <Component {...props} />
      </NextIntlBridge>
    );
  };
}
