import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";

// The applicant's page: the words of its client parts (the status and
// Withdraw, the load-failed box) on top of every page's.
export default async function ApplicationLayout({ children }: { children: React.ReactNode }) {
  const messages = await getMessages();
  return <NextIntlClientProvider messages={clientMessages(messages, ["Pet", "Application"])}>{children}</NextIntlClientProvider>;
}
