import type { Prisma } from "@/lib/generated/prisma/client";
import * as queries from "@/lib/audit/queries";
import type { AuditAction, WriteContext } from "@/lib/audit/schemas";
import type { Stay } from "@/lib/stays/schemas";

// The audit trail's rules. Records are written by the pets service inside the
// transaction of the change they describe (so there is never a change without
// its record, nor a record of a change that rolled back), and read as an
// animal's history by lib/pets/history.ts. Below the pets: a record holds an
// animal, but this module need not know its shape.

export interface ChangeRecord {
  /** created/updated, or a change of the animal's stays (lib/stays): each has its event type (migration 20261203100000). */
  action: AuditAction;
  /** The stay after a stay change: kept in the record and carried by its event as `data.stay`. */
  stay?: Stay;
  /**
   * The placements the change wrote (an ended one first, then the one it
   * started), kept in the record and never carried by its event: a
   * placement names its foster by id, and the feed carries no person.
   * Their shape is lib/placements' (above the audit: this module need not know it).
   */
  placements?: readonly object[];
  /** The animal after the change, as records keep it (photos by file, no ageGroup: the pets' StoredPet). */
  pet: { id: number; version: number };
  /** The changed fields' previous values (as stored); null for a creation. */
  before: Partial<Record<string, unknown>> | null;
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
    placements: change.placements?.length ? (change.placements as unknown as Prisma.InputJsonArray) : undefined,
  });
}
