import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { Providers } from "@/components/providers";
import { clientMessages } from "@/lib/i18n/client-messages";

// The animal's page: react-query for its live data, and the words of its
// client parts (the profile, the apply form) on top of every page's.
export default async function PetLayout({ children }: { children: React.ReactNode }) {
  const messages = await getMessages();
  return (
    <NextIntlClientProvider messages={clientMessages(messages, ["Pet", "Apply"])}>
      <Providers>{children}</Providers>
    </NextIntlClientProvider>
  );
}
