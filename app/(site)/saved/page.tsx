import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";
import type { Metadata } from "next";
import { Providers } from "@/components/providers";
import { SavedList } from "@/components/saved/saved-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("Saved"))("title") };
}

// /saved - the animals saved in this browser (localStorage), each fetched fresh
// from /v1/pets so that one adopted meanwhile says so. Nothing to render on the
// server: only the browser knows what it saved.
export default async function SavedPage() {
  const [t, messages] = await Promise.all([getTranslations("Saved"), getMessages()]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">{t("title")}</h1>
        <p className="mt-1 text-stone-700">{t("intro")}</p>
      </div>
      <NextIntlClientProvider messages={clientMessages(messages, ["Saved"])}>
        <Providers>
          <SavedList />
        </Providers>
      </NextIntlClientProvider>
    </div>
  );
}
