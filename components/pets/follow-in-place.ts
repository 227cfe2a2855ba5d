import type { MouseEvent } from "react";

/**
 * Whether a click on a link should be handled by the page itself: a plain
 * left click. Ctrl/Cmd/Shift/middle clicks keep their browser meaning (open
 * in a new tab or window), which is why the views are real links.
 */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
