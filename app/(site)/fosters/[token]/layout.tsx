import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";

// The foster's page: the words of its client parts on top of every page's.
export default async function FosterLayout({ children }: { children: React.ReactNode }) {
  const messages = await getMessages();
  return <NextIntlClientProvider messages={clientMessages(messages, ["Foster"])}>{children}</NextIntlClientProvider>;
}
