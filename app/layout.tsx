import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { getTranslations } from "next-intl/server";
import { SiteHeader } from "@/components/site-header";
import { languageAlternates, pageLocale } from "@/lib/i18n/server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Meta");
  return {
    title: { default: t("title"), template: t("titleTemplate", { title: "%s" }) },
    description: t("description"),
    // Each page's own canonical URL and its hreflang alternates (en, es,
    // x-default); pages setting only a title inherit them.
    ...(await languageAlternates()),
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#065f46" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: the CSP nonce (proxy.ts) differs each
  // time, and Next can only stamp it on its scripts in a dynamic render.
  await connection();
  const [locale, t] = await Promise.all([pageLocale(), getTranslations("Layout")]);
  return (
    <html lang={locale}>
      <body className="min-h-screen bg-stone-50 text-stone-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-emerald-900 focus:shadow"
        >
          {t("skipToContent")}
        </a>
        {/* No react-query provider here, nor next-intl's: the browse page
            does without both (its first load's JavaScript budget: it says
            its words through lib/i18n/client-translator.tsx). The pages
            that use them have them in their own layout
            (components/providers.tsx; NextIntlClientProvider with only the
            messages their client components use, lib/i18n/client-messages.ts);
            the header is the server's, and staff pages are English only. */}
        <SiteHeader />
        <main id="main" className="mx-auto max-w-6xl px-4 py-6">
          {children}
        </main>
      </body>
    </html>
  );
}
