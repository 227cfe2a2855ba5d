import { decodeCursor, encodeCursor, invalidCursorFor } from "@/lib/core/pagination";
import * as queries from "@/lib/placements/queries";
import type { CustodyEntry, CustodyQuery } from "@/lib/placements/schemas";
import type { CustodyView } from "@/lib/visibility/policy";

// Where each of an organisation's animals in care is (issue 50): the staff's
// custody list. Which foster is personal data: the name only for readers of
// the organisation's people (lib/visibility/policy.ts custodyViewOf).

export interface CustodyPage {
  entries: CustodyEntry[];
  cursors: { next?: string; prev?: string };
}

function entryOf(row: queries.CustodyRow, view: CustodyView): CustodyEntry {
  const pet = { petId: Number(row.petId), name: row.name, categoryId: Number(row.categoryId) };
  if (row.placementId === null) return { ...pet, custody: { kind: "shelter" } };
  return {
    ...pet,
    custody: {
      kind: "foster",
      placementId: Number(row.placementId),
      personId: row.personId === null ? null : Number(row.personId),
      personName: view === "people" ? row.personName : null,
      since: row.since!.toISOString(),
      expectedEndOn: row.expectedEndOn ? row.expectedEndOn.toISOString().slice(0, 10) : null,
      overdue: row.overdue,
    },
  };
}

/** A page of the organisation's animals in care, by id, paged by cursor (`rel="next"`, `rel="prev"`). The route has checked the caller is the organisation's. */
export async function listCustody(organizationId: number, query: CustodyQuery, view: CustodyView): Promise<CustodyPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && (cursor.s !== undefined || cursor.k !== undefined)) throw invalidCursorFor("another list, not the custody list");
  const backwards = cursor?.d === "before";
  const rows = await queries.findCustodyPage(
    organizationId,
    { where: query.where, personId: query.personId, overdue: query.overdue },
    { afterId: cursor?.d === "after" ? cursor.id : undefined, beforeId: backwards ? cursor.id : undefined, take: query.limit + 1 },
  );
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const cursors: CustodyPage["cursors"] = {};
  const first = page[0];
  const last = page.at(-1);
  if (last && (backwards || more)) cursors.next = encodeCursor({ d: "after", id: Number(last.petId) });
  if (first && (backwards ? more : cursor !== undefined)) cursors.prev = encodeCursor({ d: "before", id: Number(first.petId) });
  return { entries: page.map((row) => entryOf(row, view)), cursors };
}
