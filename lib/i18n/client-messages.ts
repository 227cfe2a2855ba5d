import type { AbstractIntlMessages } from "next-intl";

/**
 * The namespaces the site's client components share: only these travel to
 * the browser (in the server render's payload, never as JavaScript), so a
 * page's weight grows with what its interactive parts say, not with the
 * whole messages file. The browse page hands them to its own translator
 * (components/pets/pet-browser.tsx); a route whose client components use
 * next-intl gives them, with its own namespaces, to NextIntlClientProvider
 * in its layout (app/(site)/pets/[id]/layout.tsx). Server components read
 * every namespace on the server.
 */
export const CLIENT_NAMESPACES = ["Common", "Nav", "Words", "Browse", "Filters", "Empty", "AlertForm"] as const;

export function clientMessages(messages: AbstractIntlMessages, extra: readonly string[] = []): AbstractIntlMessages {
  return Object.fromEntries([...CLIENT_NAMESPACES, ...extra].filter((n) => n in messages).map((n) => [n, messages[n]!]));
}
