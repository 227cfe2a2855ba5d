import { ApiError } from "@/lib/core/errors";
import { decodeCursor, encodeCursor } from "@/lib/core/pagination";
import * as queries from "@/lib/audit/queries";
import type { HistoryActor, HistoryQuery } from "@/lib/audit/schemas";
import { presentFields, presentPet, withOrganization, type PetView, type StoredPet } from "@/lib/pets/present";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import type { PetField } from "@/lib/pets/schemas/pet";
import type { Placement } from "@/lib/placements/schemas";
import type { Stay } from "@/lib/stays/schemas";

// An animal's history: its audit records (lib/audit) read back and shown as
// the animal they describe.

function toEntry(row: queries.AuditRow, view: PetView, organizationId: number): HistoryEntry {
  const actor: HistoryActor =
    row.actorKind === "staff"
      ? { kind: "staff", id: Number(row.actorId), email: row.actorName }
      : { kind: "api_key", id: Number(row.actorId), name: row.actorName };
  return {
    id: Number(row.id),
    action: row.action,
    at: row.createdAt.toISOString(),
    version: row.version,
    requestId: row.requestId,
    actor,
    before:
      row.before && typeof row.before === "object" ? (presentFields(row.before as Partial<Record<PetField, unknown>>, view) as HistoryEntry["before"]) : null,
    // Records from before organisations lack it: the animal's own (animals never move).
    after: presentPet(withOrganization(row.after as unknown as StoredPet, organizationId), view),
    ...(row.stay && typeof row.stay === "object" ? { stay: row.stay as unknown as Stay } : {}),
    ...(Array.isArray(row.placements) ? { placements: row.placements as unknown as Placement[] } : {}),
  };
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Cursor of the next (older) page, when there is one. */
  next?: string;
}

/** One animal's changes, newest first, paged by cursor. The caller has checked the animal exists, and says where it is. */
export async function listHistory(petId: number, query: HistoryQuery, view: PetView, organizationId: number): Promise<HistoryPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && cursor.d !== "after") {
    throw new ApiError(400, "invalid_cursor", "The cursor is malformed. Use the URL from the previous response's Link header as it is.", [
      { field: "cursor", issue: "is not a cursor this API issued" },
    ]);
  }
  const rows = await queries.findAuditPage(petId, { beforeId: cursor?.id, take: query.limit + 1 });
  const entries = rows.slice(0, query.limit).map((row) => toEntry(row, view, organizationId));
  const oldest = entries.at(-1);
  return { entries, ...(rows.length > query.limit && oldest ? { next: encodeCursor({ d: "after", id: oldest.id }) } : {}) };
}
