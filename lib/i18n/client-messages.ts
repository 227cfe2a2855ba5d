import type { AbstractIntlMessages } from "next-intl";

/**
 * The namespaces client components use: only these travel to the browser
 * (in the server render's payload), so a page's weight grows with what its
 * interactive parts say, not with the whole messages file. Server components
 * read every namespace on the server.
 */
export const CLIENT_NAMESPACES = ["Common", "Nav", "Words", "Browse", "Filters", "Empty"] as const;

export function clientMessages(messages: AbstractIntlMessages): AbstractIntlMessages {
  return Object.fromEntries(CLIENT_NAMESPACES.filter((n) => n in messages).map((n) => [n, messages[n]!]));
}
