import { db } from "@/lib/db";
import { ApiError } from "@/lib/core/errors";
import * as queries from "@/lib/events/queries";
import { presentFields, presentPet, withOrganization, type PetView, type StoredPet } from "@/lib/pets/present";
import type { PetField } from "@/lib/pets/schemas/pet";
import type { Stay } from "@/lib/stays/schemas";
import { EVENT_RETENTION_DAYS, eventIdOf, type ListEventsQuery, type PetEvent } from "@/lib/events/schemas";
import { forbidden } from "@/lib/organizations/tenancy";
import { assertMayReadFeed, feedCondition, feedPageView, type FeedView, type Viewer } from "@/lib/visibility/policy";

// The change feed. Every change to an animal writes its audit record, and
// its commit writes the event from that record (a deferred trigger on
// pet_audit): nothing is announced that did not commit, and nothing commits
// unannounced. Readers get every event exactly once and in order by passing
// back the last id they saw (docs/decisions/005).

/**
 * An event as the feed serves it and webhooks deliver it: the one rendering
 * both use. The animal is kept as its audit record holds it, and shown like
 * every Pet (ageGroup on the day of the answer, photo URLs on `view`'s origin).
 * `seen` is how the reader sees the event's organisation (lib/visibility/policy.ts
 * feedViewOf): as written, or as the public sees it (its public type, never a
 * stay; null when the public is shown nothing of it).
 */
export function toEvent(row: queries.EventRow, view: PetView, seen: FeedView): PetEvent | null {
  const data = row.data as unknown as { pet: StoredPet; previous?: Partial<Record<PetField, unknown>>; stay?: Stay };
  const organizationId = Number(row.organizationId);
  const type = seen === "records" ? row.type : row.publicType;
  if (type === null) return null;
  const base = { id: eventIdOf(row.position), type, organizationId, createdAt: row.createdAt.toISOString() };
  if (type === "pet.unlisted") return { ...base, data: { pet: { id: Number(data.pet.id), organizationId } } } as PetEvent;
  // Records written before organisations existed lack it in the animal: the event's own says where it was.
  const pet = presentPet(withOrganization(data.pet, organizationId), view);
  if (type === "pet.created" || type === "pet.listed") return { ...base, data: { pet } } as PetEvent;
  const previous = presentFields(data.previous ?? {}, view);
  if (seen === "listing") return { ...base, data: { pet, previous } } as PetEvent;
  return { ...base, data: { pet, ...(data.previous ? { previous } : {}), ...(data.stay ? { stay: data.stay } : {}) } } as PetEvent;
}

export interface EventPage {
  events: PetEvent[];
  /** The cursor for the next page (the last event's id) when more events are waiting. */
  next?: string;
}

export function cursorExpired(after: bigint, sweptThrough: bigint): ApiError {
  return new ApiError(
    410,
    "cursor_expired",
    `Events after ${eventIdOf(after)} are no longer kept (events are kept ${EVENT_RETENTION_DAYS} days; the oldest kept comes after ${eventIdOf(sweptThrough)}). Start again without \`after\` and reconcile with GET /v1/pets.`,
  );
}

/**
 * Whose events a viewer reads: an organisation's key or staff only its own
 * organisation's (naming another is refused); a platform's every one's, or
 * those it names. What it sees of each is the policy's (lib/visibility).
 */
function feedOrganizations(viewer: Viewer, asked: number[] | undefined): number[] | undefined {
  if (viewer.tenancy.kind !== "organization") return asked;
  const own = viewer.tenancy.organizationId;
  if (asked && asked.some((id) => id !== own)) throw forbidden(`Your key or account reads only organisation ${own}'s events.`);
  return [own];
}

/** A page of the feed, oldest first, after the given event, as this viewer sees it. */
export async function listEvents(query: ListEventsQuery, view: PetView, viewer: Viewer): Promise<EventPage> {
  assertMayReadFeed(viewer);
  const organizations = feedOrganizations(viewer, query.organizationId);
  const seen = feedPageView(viewer);
  const after = query.after ?? 0n;
  if (query.after !== undefined) {
    const [swept, issued] = await Promise.all([queries.readMark("swept"), queries.lastIssuedPosition()]);
    // Events after `after` were deleted: reading on would skip them silently.
    if (after < swept) throw cursorExpired(after, swept);
    if (after > issued) {
      throw new ApiError(400, "invalid_cursor", `There is no event ${eventIdOf(after)}: pass the id of an event you received.`, [
        { field: "after", issue: "names no event" },
      ]);
    }
  }
  const rows = await queries.findEventsAfter(after, query.limit + 1, feedCondition(seen, query.type), organizations);
  const events = rows.slice(0, query.limit).map((row) => toEvent(row, view, seen)!);
  return { events, ...(rows.length > query.limit ? { next: events.at(-1)!.id } : {}) };
}

const SWEEP_BATCH = 5_000;

/**
 * Deletes events older than the retention period (and, with them, their
 * deliveries and attempts), then records how far it got, so that a cursor
 * from before then answers 410 instead of silently skipping.
 */
export async function sweepEvents(now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  const through = await queries.lastPositionBefore(cutoff);
  if (through === null) return 0;
  let total = 0;
  for (;;) {
    // The mark moves first, in the same transaction: a reader can never find
    // an event gone without its cursor being refused.
    const deleted = await db().$transaction(async (tx) => {
      await queries.advanceMark(tx, "swept", through);
      return queries.deleteEventsThrough(tx, through, SWEEP_BATCH);
    });
    total += deleted;
    if (deleted < SWEEP_BATCH) return total;
  }
}
