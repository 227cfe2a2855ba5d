import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/errors";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import * as queries from "@/lib/audit/queries";
import type { AuditAction, HistoryActor, HistoryEntry, HistoryQuery, WriteContext } from "@/lib/audit/schemas";
import type { Stay } from "@/lib/stays/schemas";
import { presentFields, presentPet, withOrganization, type PetView, type StoredPet } from "@/lib/pets/present";
import type { PetField } from "@/lib/pets/schemas";

// The audit trail's rules. Records are written by the pets service inside the
// transaction of the change they describe (so there is never a change without
// its record, nor a record of a change that rolled back), and only read here.

export interface ChangeRecord {
  /** created/updated, or a change of the animal's stays (lib/stays): each has its event type (migration 20261203100000). */
  action: AuditAction;
  /** The stay after a stay change: kept in the record and carried by its event as `data.stay`. */
  stay?: Stay;
  /** The animal after the change, as records keep it (photos by file, no ageGroup). */
  pet: StoredPet;
  /** The changed fields' previous values (as stored); null for a creation. */
  before: Partial<Record<PetField, unknown>> | null;
}

/**
 * Appends the record of one change. It keeps the whole animal after the
 * change and the changed fields before it: enough to rebuild "what changed"
 * for people here, and `{ pet, previous }` events for a change feed later.
 */
export async function recordChange(tx: Prisma.TransactionClient, change: ChangeRecord, context: WriteContext): Promise<void> {
  const { actor } = context;
  let actorName: string;
  if (actor.kind === "staff") actorName = actor.email;
  else {
    const name = await queries.apiKeyName(tx, actor.id);
    // The key authenticated this very request, so it exists; a missing one is a bug, not a user error.
    if (name === null) throw new Error(`audit: API key ${actor.id} not found`);
    actorName = name;
  }
  await queries.insertAuditRecord(tx, {
    petId: BigInt(change.pet.id),
    action: change.action,
    version: change.pet.version,
    actorKind: actor.kind,
    actorId: BigInt(actor.id),
    actorName,
    requestId: context.requestId,
    before: change.before as Prisma.InputJsonObject | null,
    after: { ...change.pet } as unknown as Prisma.InputJsonObject,
    stay: change.stay as unknown as Prisma.InputJsonObject | undefined,
  });
}

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
    before: row.before && typeof row.before === "object" ? (presentFields(row.before as Partial<Record<PetField, unknown>>, view) as HistoryEntry["before"]) : null,
    // Records from before organisations lack it: the animal's own (animals never move).
    after: presentPet(withOrganization(row.after as unknown as StoredPet, organizationId), view),
    ...(row.stay && typeof row.stay === "object" ? { stay: row.stay as unknown as Stay } : {}),
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
