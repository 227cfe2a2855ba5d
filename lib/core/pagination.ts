import { z } from "zod";
import { ApiError } from "@/lib/core/errors";

// Keyset paging. A cursor names the last (or first) id of the page the
// client saw and the direction to walk; it is base64url JSON so clients treat
// it as opaque and we can change its contents later (hence the version "v").
// A list in another order than by id carries its sort key too: `k`, the
// distance (as the database measures it) of a search near a place; `s`, the
// name of a list in name order.

const cursorSchema = z.strictObject({
  v: z.literal(1),
  /** "after": older than id (the next page); "before": newer than id (the previous page). */
  d: z.enum(["after", "before"]),
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  k: z.number().min(0).max(1e8).optional(),
  s: z.string().max(400).optional(),
});
export type Cursor = z.infer<typeof cursorSchema>;

export function encodeCursor(cursor: Omit<Cursor, "v">): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString("base64url");
}

export function decodeCursor(raw: string): Cursor {
  const invalid = () =>
    new ApiError(400, "invalid_cursor", "The cursor is malformed. Use the URL from the previous response's Link header as it is.", [
      { field: "cursor", issue: "is not a cursor this API issued" },
    ]);
  if (!/^[A-Za-z0-9_-]{1,800}$/.test(raw)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success) throw invalid();
  return result.data;
}

/** A cursor of another list's order (a near search's without `near`, say) is as malformed as a made-up one. */
export function invalidCursorFor(what: string): ApiError {
  return new ApiError(400, "invalid_cursor", `This cursor belongs to ${what}. Use the URL from the previous response's Link header as it is.`, [
    { field: "cursor", issue: "does not belong to this search" },
  ]);
}

/**
 * Where a near search's cursor stands: its distance `k` (a chord, as the
 * database measures it) and id. Every page's cursors lie within the search's
 * radius, so one beyond it was not issued for this search: refused, as it
 * would make a previous page read every place nearer than a made-up distance
 * (all of them) and answer what lies outside `within`.
 */
export function nearPosition(cursor: Cursor, maxChord: number): { k: number; id: number } {
  if (cursor.k === undefined) throw invalidCursorFor("a list in another order, not this search near a place");
  if (cursor.k > maxChord) throw invalidCursorFor("a search reaching farther than this `within`: start again from the first page");
  return { k: cursor.k, id: cursor.id };
}

export interface PageLinks {
  next?: string;
  prev?: string;
}

/**
 * A keyset page from the `limit + 1` rows read in the cursor's direction
 * (backwards for a "before" cursor): the page in list order, and the cursors
 * of its neighbours, each naming the position (`at`: sort key and id) of the
 * row at its edge. A page reached by a cursor always has the page it came
 * from on its other side.
 */
export function keysetPage<R>(
  rows: R[],
  limit: number,
  cursor: Cursor | undefined,
  at: (row: R) => Omit<Cursor, "v" | "d">,
): { page: R[]; cursors: PageLinks } {
  const backwards = cursor?.d === "before";
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const cursors: PageLinks = {};
  if (backwards) {
    if (more && first) cursors.prev = encodeCursor({ d: "before", ...at(first) });
    if (last) cursors.next = encodeCursor({ d: "after", ...at(last) });
  } else {
    if (more && last) cursors.next = encodeCursor({ d: "after", ...at(last) });
    if (cursor && first) cursors.prev = encodeCursor({ d: "before", ...at(first) });
  }
  return { page, cursors };
}

/** An RFC 8288 Link header value; undefined when there is no other page. */
export function linkHeader(links: PageLinks): string | undefined {
  const parts = Object.entries(links)
    .filter(([, url]) => url)
    .map(([rel, url]) => `<${url}>; rel="${rel}"`);
  return parts.length ? parts.join(", ") : undefined;
}

/** The same URL with the cursor replaced (filters and limit carried over). */
export function withCursor(url: URL, cursor: string): string {
  const next = new URL(url);
  next.searchParams.set("cursor", cursor);
  return next.toString();
}

/** The same URL with one query parameter set (the change feed's `after`). */
export function withParam(url: URL, name: string, value: string): string {
  const next = new URL(url);
  next.searchParams.set(name, value);
  return next.toString();
}

/**
 * A page of a list in a time order whose query also says whether anything
 * lies on the cursor's other side (`otherSide`, the cursor's own position
 * included): an animal's stays and its placements. `rows` are `limit + 1`
 * read from the cursor on (nearest first when walking back). On an empty page
 * the cursor's own position is the boundary, one id past it, so that the
 * neighbour page holds the row the cursor names (as GET /v1/pets does).
 */
export function pageAroundCursor<R, P extends { id: bigint }>(
  rows: R[],
  otherSide: boolean,
  limit: number,
  cursor: { d: "after" | "before"; at: P } | undefined,
  positionOf: (row: R) => P,
  encode: (d: "after" | "before", at: P) => string,
): { page: R[]; cursors: PageLinks } {
  const backwards = cursor?.d === "before";
  const moreAhead = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();
  const hasNext = backwards ? otherSide : moreAhead;
  const hasPrev = backwards ? moreAhead : cursor !== undefined && otherSide;
  const first = page[0] ? positionOf(page[0]) : cursor && { ...cursor.at, id: cursor.at.id + 1n };
  const last = page.at(-1) ? positionOf(page.at(-1)!) : cursor && { ...cursor.at, id: cursor.at.id > 0n ? cursor.at.id - 1n : 0n };
  const cursors: PageLinks = {};
  if (hasNext && last) cursors.next = encode("after", last);
  if (hasPrev && first) cursors.prev = encode("before", first);
  return { page, cursors };
}
