import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";

// The shelters' pages: the words of the directory's search form (a client
// component) on top of every page's, only here.
export default async function SheltersLayout({ children }: { children: React.ReactNode }) {
  const messages = await getMessages();
  return <NextIntlClientProvider messages={clientMessages(messages, ["ShelterSearch", "FosterApply"])}>{children}</NextIntlClientProvider>;
}
