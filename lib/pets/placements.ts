import { now as clockNow } from "@/lib/clock";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, encodeCursor, invalidCursorFor, pageAroundCursor } from "@/lib/core/pagination";
import { changePetAndStay, type ChangeContext, type UpdateOptions } from "@/lib/pets/service";
import { findPetById } from "@/lib/pets/queries/lookups";
import type { StoredPet } from "@/lib/pets/present";
import * as queries from "@/lib/placements/queries";
import { fosterFor, noOpenStay, outsideStay, overlapping, overrideRefused, toPlacement } from "@/lib/placements/rules";
import type { ListPlacementsQuery, NewPlacement, Placement, PlacementEnd, PlacementPatch } from "@/lib/placements/schemas";
import { findStay } from "@/lib/stays/queries";
import { resolveTime } from "@/lib/stays/rules";

// Changing where an animal lives (issue 50, docs/decisions/028). Here, in the
// pets, because a placement is a change of the animal, as a stay is
// (lib/pets/stays.ts): lib/placements below holds their shapes, rules and
// rows. Every change goes through changePetAndStay (lib/pets/service.ts): one
// transaction with the animal's row locked (and so its placements: every
// writer of them takes that lock first), If-Match honoured, the version
// bumped, the audit record written with the placements the change wrote,
// and the event (`pet.updated`, which carries no person) announced from it
// at commit. The foster's row is locked too while their room is counted.
// The database refuses what would break the placements' shape whatever the
// path; the checks here come first to say which rule, with the dates.

export interface PlacementResult {
  placement: Placement;
  pet: StoredPet;
}

export interface PlacementPage {
  placements: Placement[];
  cursors: { next?: string; prev?: string };
}

function noSuchPlacement(petId: number, placementId: number): ApiError {
  return new ApiError(404, "not_found", `Animal ${petId} has no placement with id ${placementId}.`);
}

function endBeforeStart(field: string, startAt: Date, endAt: Date): ApiError {
  return new ApiError(400, "invalid_body", `The placement would end (${endAt.toISOString()}) before it starts (${startAt.toISOString()}).`, [
    { field, issue: `must not be before the placement's start (${startAt.toISOString()})` },
  ]);
}

/** Runs a placement's change of the animal and answers the placement it wrote last (the one it started, or the one it changed). */
async function changePlacement(
  petId: number,
  options: UpdateOptions,
  plan: (tx: Prisma.TransactionClient, was: StoredPet, context: ChangeContext) => Promise<PlannedPlacement>,
): Promise<PlacementResult> {
  let last: queries.PlacementRow | undefined;
  const { pet } = await changePetAndStay(petId, options, async (tx, was, context) => {
    const planned = await plan(tx, was, context);
    return {
      before: {},
      placementChange: {
        action: planned.action,
        write: async (tx) => {
          const rows = await planned.write(tx);
          last = rows.at(-1);
          return rows;
        },
      },
    };
  });
  return { placement: toPlacement(last!), pet };
}

interface PlannedPlacement {
  action: "placement_started" | "placement_ended" | "placement_corrected";
  write: (tx: Prisma.TransactionClient) => Promise<queries.PlacementRow[]>;
}

/**
 * POST /v1/pets/{id}/placements: the animal goes to a foster. With another
 * foster now, it moves: that placement ends (`movedToAnotherFoster`) and this
 * one starts at the same instant, in one change.
 */
export function placeAnimal(petId: number, input: NewPlacement, options: UpdateOptions): Promise<PlacementResult> {
  const byStaff = options.actor.kind === "staff";
  if (input.overrideCapacity && !byStaff) throw overrideRefused();
  return changePlacement(petId, options, async (tx, was, context) => {
    const stay = context.lastStay;
    if (!stay || stay.outcomeAt) throw noOpenStay(petId, "personId", stay);
    const at = await resolveTime(tx, was.organizationId, input.at, "at", clockNow());
    if (at < stay.intakeAt) throw outsideStay("at", stay, `it would start at ${at.toISOString()}, before the animal's intake`);
    const open = context.openPlacementId === null ? null : await queries.findOpenPlacement(tx, petId);
    if (open && open.personId === BigInt(input.personId)) {
      throw new ApiError(
        409,
        "placement_open",
        `Animal ${petId} is already with person ${input.personId} (placement ${open.id}, since ${open.startAt.toISOString()}).`,
        [{ field: "personId", issue: "the animal is already placed with this person" }],
      );
    }
    // A move starts where the open placement ends: not before it began.
    if (open && at < open.startAt) throw overlapping("at", open);
    const other = await queries.findOverlappingPlacement(tx, petId, at, null, open?.id);
    if (other) throw overlapping("at", other);
    const { capacityOverridden } = await fosterFor(tx, {
      petId,
      organizationId: was.organizationId,
      personId: input.personId,
      at,
      field: "personId",
      overrideCapacity: input.overrideCapacity === true,
      byStaff,
    });
    return {
      action: "placement_started",
      write: async (tx) => [
        ...(open ? [await queries.updatePlacement(tx, open.id, { endAt: at, endReason: "movedToAnotherFoster" })] : []),
        await queries.insertPlacement(tx, {
          petId,
          organizationId: was.organizationId,
          stayId: stay.id,
          personId: input.personId,
          startAt: at,
          expectedEndOn: input.expectedEndOn ?? null,
          note: input.note ?? null,
          capacityOverridden,
        }),
      ],
    };
  });
}

/** POST /v1/pets/{id}/placements/{placementId}/end: the animal comes back (409 placement_ended when it has ended). */
export function endPlacement(petId: number, placementId: number, input: PlacementEnd, options: UpdateOptions): Promise<PlacementResult> {
  return changePlacement(petId, options, async (tx, was) => {
    const row = await queries.findPlacement(tx, petId, placementId);
    if (!row) throw noSuchPlacement(petId, placementId);
    if (row.endAt) {
      throw new ApiError(
        409,
        "placement_ended",
        `Placement ${placementId} already ended on ${row.endAt.toISOString()} (${row.endReason}). Correct it with PATCH /v1/pets/${petId}/placements/${placementId}.`,
      );
    }
    const at = await resolveTime(tx, was.organizationId, input.at, "at", clockNow());
    if (at < row.startAt) throw endBeforeStart("at", row.startAt, at);
    return { action: "placement_ended", write: async (tx) => [await queries.updatePlacement(tx, row.id, { endAt: at, endReason: input.reason })] };
  });
}

/**
 * PATCH /v1/pets/{id}/placements/{placementId}: corrects its dates, expected
 * end or note. It must stay inside its stay and overlap no other placement
 * (409 placement_outside_stay / placement_overlap, naming the dates).
 */
export function correctPlacement(petId: number, placementId: number, patch: PlacementPatch, options: UpdateOptions): Promise<PlacementResult> {
  return changePlacement(petId, options, async (tx, was) => {
    const row = await queries.findPlacement(tx, petId, placementId);
    if (!row) throw noSuchPlacement(petId, placementId);
    if (patch.endAt !== undefined && !row.endAt) {
      throw new ApiError(
        409,
        "placement_open",
        `Placement ${placementId} has not ended, so it has no end to correct: end it with POST /v1/pets/${petId}/placements/${placementId}/end.`,
        [{ field: "endAt", issue: "the placement is still open" }],
      );
    }
    const now = clockNow();
    const columns: queries.PlacementColumns = {};
    if (patch.startAt !== undefined) columns.startAt = await resolveTime(tx, was.organizationId, patch.startAt, "startAt", now);
    if (patch.endAt !== undefined) columns.endAt = await resolveTime(tx, was.organizationId, patch.endAt, "endAt", now);
    if (patch.expectedEndOn !== undefined) columns.expectedEndOn = patch.expectedEndOn;
    if (patch.note !== undefined) columns.note = patch.note;
    const from = columns.startAt ?? row.startAt;
    const to = columns.endAt ?? row.endAt;
    const field = patch.startAt !== undefined ? "startAt" : "endAt";
    if (to && to < from) throw endBeforeStart(field, from, to);
    if (columns.startAt !== undefined || columns.endAt !== undefined) {
      const stay = (await findStay(tx, petId, Number(row.stayId)))!;
      if (from < stay.intakeAt) throw outsideStay("startAt", stay, `it would start at ${from.toISOString()}, before the stay's intake`);
      if (stay.outcomeAt && to && to > stay.outcomeAt) throw outsideStay("endAt", stay, `it would end at ${to.toISOString()}, after the stay's outcome`);
      const other = await queries.findOverlappingPlacement(tx, petId, from, to, row.id);
      if (other) throw overlapping(field, other);
    }
    return { action: "placement_corrected", write: async (tx) => [await queries.updatePlacement(tx, row.id, columns)] };
  });
}

/** A cursor's position among the placements: its start (`s`) and id. */
function positionOfCursor(raw: string): { d: "after" | "before"; at: queries.PlacementPosition } {
  const cursor = decodeCursor(raw);
  const startAt = cursor.s === undefined ? new Date(Number.NaN) : new Date(cursor.s);
  if (Number.isNaN(startAt.getTime()) || cursor.k !== undefined) throw invalidCursorFor("another list, not an animal's placements");
  return { d: cursor.d, at: { startAt, id: BigInt(cursor.id) } };
}

const cursorAt = (d: "after" | "before", at: queries.PlacementPosition) => encodeCursor({ d, s: at.startAt.toISOString(), id: Number(at.id) });

/** GET /v1/pets/{id}/placements: oldest first, paged by cursor as the stays are. The route has checked the caller may see the animal. */
export async function listPlacements(petId: number, query: ListPlacementsQuery): Promise<PlacementPage> {
  const cursor = query.cursor === undefined ? undefined : positionOfCursor(query.cursor);
  const { rows, otherSide } = await queries.findPlacementPage(petId, {
    after: cursor?.d === "after" ? cursor.at : undefined,
    before: cursor?.d === "before" ? cursor.at : undefined,
    take: query.limit + 1,
  });
  if (!cursor && !rows.length && !(await findPetById(petId))) throw notFound("animal", petId);
  const { page, cursors } = pageAroundCursor(rows, otherSide, query.limit, cursor, (row) => ({ startAt: row.startAt, id: row.id }), cursorAt);
  return { placements: page.map(toPlacement), cursors };
}
