import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { Providers } from "@/components/providers";
import { clientMessages } from "@/lib/i18n/client-messages";

// Staff tools are not for search engines.
export const metadata: Metadata = { robots: { index: false, follow: false } };

// The site's shared client words (the pager's Previous and Next, the cards' facts) for the staff pages'
// client components: the root layout no longer gives every page next-intl's provider (issue 51).
export default async function StaffLayout({ children }: { children: React.ReactNode }) {
  const messages = await getMessages();
  return (
    <NextIntlClientProvider messages={clientMessages(messages)}>
      <Providers>{children}</Providers>
    </NextIntlClientProvider>
  );
}
