import type { AbstractIntlMessages } from "next-intl";

/**
 * The namespaces client components use on every page: only these travel to
 * the browser (in the server render's payload, never as JavaScript), so a
 * page's weight grows with what its interactive parts say, not with the
 * whole messages file. A route whose client components say more adds its
 * own namespaces in its layout (app/(site)/pets/[id]/layout.tsx); server
 * components read every namespace on the server.
 */
export const CLIENT_NAMESPACES = ["Common", "Nav", "Words", "Browse", "Filters", "Empty", "AlertForm"] as const;

export function clientMessages(messages: AbstractIntlMessages, extra: readonly string[] = []): AbstractIntlMessages {
  return Object.fromEntries([...CLIENT_NAMESPACES, ...extra].filter((n) => n in messages).map((n) => [n, messages[n]!]));
}
