import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { categoryName } from "@/lib/alerts/queries";
import { describeFilters } from "@/lib/alerts/service";
import { clientMessages } from "@/lib/i18n/client-messages";
import type { Locale } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GET as alertGET } from "@/app/v1/alerts/[token]/route";
import type { ErrorBody } from "@/lib/core/errors";
import { serverApi } from "@/lib/site/server-api";
import { AlertManager } from "@/components/alerts/alert-manager";
import type { AlertView } from "@/components/alerts/alerts-api";

type Params = Promise<{ token: string }>;

// A private page: the link is the only key to it, so it is never indexed.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("AlertPage"))("title"), robots: { index: false, follow: false } };
}

/** What the alert watches in the page's language: the API describes it in English (for developers). */
async function describedIn(locale: Locale, alert: AlertView): Promise<string | undefined> {
  if (locale === "en") return undefined;
  const category = alert.filters.categoryId === undefined ? null : await categoryName(BigInt(alert.filters.categoryId));
  return describeFilters(alert.filters, category, { locale });
}

// /alerts/<token> - an adopter's "email me new matches" alert. The server
// only reads it (GET, as a mail scanner following the link would: that
// confirms nothing); the page confirms it from the browser, then offers
// Pause/Resume and Delete. An alert that is gone is a 404.
export default async function AlertPage({ params }: { params: Params }) {
  const { token } = await params;
  const res = await serverApi<AlertView | ErrorBody>(alertGET, `/v1/alerts/${encodeURIComponent(token)}`, { token });
  if (res.status === 404 || res.status === 400) notFound();
  // Anything else (a 429, a 503): the browser asks again, and says why if it fails too.
  const initial = res.status === 200 ? (res.body as AlertView) : undefined;
  const [messages, description] = await Promise.all([getMessages(), initial ? describedIn(await pageLocale(), initial) : undefined]);
  return (
    <NextIntlClientProvider messages={clientMessages(messages, ["AlertPage"])}>
      <AlertManager token={token} initial={initial} description={description} />
    </NextIntlClientProvider>
  );
}
