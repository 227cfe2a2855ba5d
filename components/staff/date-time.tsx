const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * A moment in the reader's own time zone. Rendered in the browser only
 * (the keys list is fetched there), so server and client never disagree.
 */
export function DateTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{format.format(new Date(iso))}</time>;
}
