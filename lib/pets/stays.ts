import { now as clockNow } from "@/lib/clock";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, encodeCursor, invalidCursorFor, pageAroundCursor } from "@/lib/core/pagination";
import { adoptionInProgress, changePetAndStay, type ChangeContext, type LeavingCare, type UpdateOptions } from "@/lib/pets/service";
import { findPetById } from "@/lib/pets/queries/lookups";
import type { StoredPet } from "@/lib/pets/present";
import type { PetField } from "@/lib/pets/schemas/pet";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import { placeAtIntake } from "@/lib/placements/rules";
import * as queries from "@/lib/stays/queries";
import { afterLastStay, detailMismatch, outcomeBeforeIntake, overlapping, resolveTime, toStay } from "@/lib/stays/rules";
import {
  STAYS_PER_ANIMAL_MAX,
  intakeDetailFits,
  outcomeDetailFits,
  type IntakeInput,
  type ListStaysQuery,
  type OutcomeInput,
  type OutcomeType,
  type Stay,
  type StayPatch,
} from "@/lib/stays/schemas";

// Changing an animal's stays (issue 42, docs/decisions/023). Here, in the
// pets, because a stay change is a change of the animal: lib/stays below holds
// the stays' shapes, rules and rows, which the pets' own write path uses too
// (a sale ends the open stay). Every change
// goes through changePet (lib/pets/service.ts): one transaction with the
// animal's row locked (and so its stays: every writer of them takes that
// lock first), If-Match honoured, the version bumped, the audit record
// written with the stay, and the event announced from it at commit
// (pet.stay.started, pet.stay.ended; a correction is pet.updated). The
// stay is written in the same statement as the animal's own update, with
// what follows for the animal:
//   - a new intake: in care again, `available`;
//   - an outcome `adoption`: `sold` (in care: adopted animals stay listed as sold);
//   - any other outcome: out of care (off every public list), status as it was
//     unless it was sold (then `available`: it was not adopted);
//   - a correction of the last stay's outcome type re-derives both.
// The database refuses what would break the stays' shape whatever the path;
// the checks here come first only to name both dates in the answer.

export interface StayResult {
  stay: Stay;
  pet: StoredPet;
}

export interface StayPage {
  stays: Stay[];
  /** Cursors for the neighbouring pages; absent when there is no such page. */
  cursors: { next?: string; prev?: string };
}

/** A cursor's position among the stays: its intake (`s`), whether the stay lasts (`k`: 1, or 0 for in and out at one instant), its id. */
function positionOfCursor(raw: string): { d: "after" | "before"; at: queries.StayPosition } {
  const cursor = decodeCursor(raw);
  const intakeAt = cursor.s === undefined ? new Date(Number.NaN) : new Date(cursor.s);
  if (Number.isNaN(intakeAt.getTime()) || (cursor.k !== 0 && cursor.k !== 1)) throw invalidCursorFor("another list, not an animal's stays");
  return { d: cursor.d, at: { intakeAt, lasts: cursor.k === 1, id: BigInt(cursor.id) } };
}

const cursorAt = (d: "after" | "before", at: queries.StayPosition) => encodeCursor({ d, s: at.intakeAt.toISOString(), k: at.lasts ? 1 : 0, id: Number(at.id) });

/**
 * A page of an animal's stays, oldest first (queries.StayPosition's order),
 * paged by cursor as every list is (GET /v1/pets: `limit`, `rel="next"` and
 * `rel="prev"`). The route has checked the caller may see the animal.
 */
export async function listStays(petId: number, query: ListStaysQuery): Promise<StayPage> {
  const cursor = query.cursor === undefined ? undefined : positionOfCursor(query.cursor);
  const { rows, otherSide } = await queries.findStayPage(petId, {
    after: cursor?.d === "after" ? cursor.at : undefined,
    before: cursor?.d === "before" ? cursor.at : undefined,
    take: query.limit + 1,
  });
  if (!cursor && !rows.length && !(await findPetById(petId))) throw notFound("animal", petId);
  const { page, cursors } = pageAroundCursor(rows, otherSide, query.limit, cursor, queries.positionOf, cursorAt);
  return { stays: page.map(toStay), cursors };
}

function noSuchStay(petId: number, stayId: number): ApiError {
  return notFound(`Animal ${petId} has no stay with id ${stayId}.`);
}

/**
 * `follow`, for a change that may take the animal out of care: then its
 * applications are closed first (leavingCare), and an animal pending on the
 * approved one that was cancelled is `available` again, as cancelling it
 * makes it.
 */
async function followLeaving(
  tx: Prisma.TransactionClient,
  was: StoredPet,
  context: ChangeContext,
  want: { status: PetStatus; inCare: boolean },
  leavingCare: LeavingCare,
  options: UpdateOptions,
) {
  if (!context.inCare || want.inCare) return follow(was, context, want);
  const { approvedCancelled } = await leavingCare(tx, was.id, { actor: options.actor, requestId: options.requestId });
  if (!approvedCancelled && context.approvedApplication === null) return follow(was, context, want);
  return follow(was, { ...context, approvedApplication: null }, { ...want, status: want.status === "pending" ? "available" : want.status });
}

/** The animal's change as derived: in care or not, and its status with the status's old value for the record when it changes. */
function follow(was: StoredPet, context: ChangeContext, want: { status: PetStatus; inCare: boolean }) {
  if (want.status === was.status) return { before: {}, columns: {}, inCare: want.inCare };
  // The status an approved adoption holds is not changed by anything but that adoption (as PATCH refuses).
  if (context.approvedApplication !== null) throw adoptionInProgress(was.name, context.approvedApplication, "change_status");
  return { before: { status: was.status } as Partial<Record<PetField, unknown>>, columns: { status: want.status }, inCare: want.inCare };
}

/** What the database refusing a stay's write means (its constraints hold whatever the path), for the request's `field`. */
function refusedAs(field: string) {
  return (error: unknown): never => {
    const which = queries.stayConstraintOf(error);
    if (which === "overlap")
      throw new ApiError(409, "stay_overlap", "The stay would overlap another stay of the animal: an animal's stays never overlap.", [
        { field, issue: "overlaps another stay" },
      ]);
    if (which === "one_open")
      throw new ApiError(409, "stay_open", "The animal already has an open stay: record its outcome first.", [{ field, issue: "another stay is open" }]);
    if (which === "order")
      throw new ApiError(400, "invalid_body", "The outcome would be before the intake.", [{ field, issue: "must not be before the intake" }]);
    throw error;
  };
}

/** The stay `stayId` of the animal: its latest (read with it under the lock), or another, looked up. */
async function stayOf(tx: Prisma.TransactionClient, petId: number, stayId: number, context: ChangeContext): Promise<queries.StayRow> {
  const row = context.lastStay && Number(context.lastStay.id) === stayId ? context.lastStay : await queries.findStay(tx, petId, stayId);
  if (!row) throw noSuchStay(petId, stayId);
  return row;
}

/**
 * The animal's latest stay once `row` is corrected to `now` (its span and
 * outcome), when the correction concerns it: `row` itself, or the stay that
 * becomes the latest as `row` moves back; null when the latest is another
 * stay and stays so (then nothing follows for the animal). Checked for
 * overlaps first: the stays are one time line (queries.StayPosition).
 */
async function latestAfter(
  tx: Prisma.TransactionClient,
  petId: number,
  last: queries.StayRow | null,
  row: queries.StayRow,
  now: { from: Date; to: Date | null; outcomeType: OutcomeType | null },
): Promise<{ outcomeType: OutcomeType | null } | null> {
  const moved = queries.positionOf({ intakeAt: now.from, outcomeAt: now.to, id: row.id });
  if (last && last.id !== row.id) return queries.isAfter(moved, queries.positionOf(last)) ? now : null;
  const datesChanged = now.from.getTime() !== row.intakeAt.getTime() || (now.to?.getTime() ?? null) !== (row.outcomeAt?.getTime() ?? null);
  const other = datesChanged ? await queries.findLatestStayBut(tx, petId, row.id) : null;
  return other && queries.isAfter(queries.positionOf(other), moved) ? { outcomeType: other.outcomeAt ? other.outcomeType : null } : now;
}

/** POST /v1/pets/{id}/stays: a new intake (409 stay_open while one is open). */
export async function openStay(petId: number, intake: IntakeInput, options: UpdateOptions): Promise<StayResult> {
  const { pet, stay } = await changePetAndStay(petId, options, async (tx, was, context) => {
    const last = context.lastStay;
    if (last && !last.outcomeAt) {
      throw new ApiError(
        409,
        "stay_open",
        `Stay ${last.id}, since ${last.intakeAt.toISOString()}, is still open: record its outcome (POST /v1/pets/${petId}/stays/${last.id}/outcome) before a new intake.`,
      );
    }
    if (context.stayCount >= STAYS_PER_ANIMAL_MAX) {
      throw new ApiError(
        409,
        "too_many_stays",
        `Animal ${petId} has ${context.stayCount} stays, the most an animal keeps (${STAYS_PER_ANIMAL_MAX}): no new intake can be recorded.`,
      );
    }
    const at = await resolveTime(tx, was.organizationId, intake.at, "intake.at", clockNow());
    // Every stay has ended by the latest one's outcome: an intake from then on meets none, without a look.
    if (last && at < last.outcomeAt!) {
      const other = await queries.findOverlapping(tx, petId, at, null);
      if (other) throw overlapping("intake.at", { from: at, to: null }, other);
    }
    // Straight into a foster home: the foster checked now, the placement written with the stay (or neither).
    const place =
      intake.fosterId === undefined
        ? undefined
        : await placeAtIntake(tx, {
            petId,
            organizationId: was.organizationId,
            personId: intake.fosterId,
            at,
            byStaff: options.actor.kind === "staff",
          });
    return {
      ...follow(was, context, afterLastStay(null, was.status)),
      stayChange: {
        action: "stay_started",
        write: { kind: "open", intakeAt: at, intakeType: intake.type, intakeSubtype: intake.subtype ?? null, intakeDetail: intake.detail ?? null },
        refused: refusedAs("intake.at"),
      },
      ...(place && { placementChange: { write: (tx: Prisma.TransactionClient, stay: queries.StayRow | null) => place(tx, stay!.id) } }),
    };
  });
  return { stay: stay!, pet };
}

/** POST /v1/pets/{id}/stays/{stayId}/outcome: ends the stay (409 stay_ended when it has ended). */
export async function endStay(petId: number, stayId: number, outcome: OutcomeInput, options: UpdateOptions, leavingCare: LeavingCare): Promise<StayResult> {
  const { pet, stay } = await changePetAndStay(petId, options, async (tx, was, context) => {
    const row = await stayOf(tx, petId, stayId, context);
    if (row.outcomeAt) {
      throw new ApiError(
        409,
        "stay_ended",
        `Stay ${stayId} already ended on ${row.outcomeAt.toISOString()} (${row.outcomeType}). Correct it with PATCH /v1/pets/${petId}/stays/${stayId}, or record a new intake.`,
      );
    }
    const at = await resolveTime(tx, was.organizationId, outcome.at, "at", clockNow());
    if (at < row.intakeAt) throw outcomeBeforeIntake("at", row.intakeAt, at);
    // The open stay is always the last: the animal follows its outcome.
    return {
      ...(await followLeaving(tx, was, context, afterLastStay(outcome.type, was.status), leavingCare, options)),
      stayChange: {
        action: "stay_ended",
        write: {
          kind: "change",
          id: row.id,
          columns: { outcomeAt: at, outcomeType: outcome.type, outcomeSubtype: outcome.subtype ?? null, outcomeDetail: outcome.detail ?? null },
        },
        refused: refusedAs("at"),
      },
    };
  });
  return { stay: stay!, pet };
}

/**
 * PATCH /v1/pets/{id}/stays/{stayId}: corrects a date, type or subtype. The
 * stay must keep its shape (no overlap, outcome not before intake: 409/400
 * naming both dates); correcting the last stay's outcome type re-derives the
 * animal's status and whether it is in care.
 */
export async function correctStay(petId: number, stayId: number, patch: StayPatch, options: UpdateOptions, leavingCare: LeavingCare): Promise<StayResult> {
  const { pet, stay } = await changePetAndStay(petId, options, async (tx, was, context) => {
    const row = await stayOf(tx, petId, stayId, context);
    if (patch.outcome && !row.outcomeAt) {
      throw new ApiError(
        409,
        "stay_open",
        `Stay ${stayId} has not ended, so it has no outcome to correct: record one with POST /v1/pets/${petId}/stays/${stayId}/outcome.`,
      );
    }
    const now = clockNow();
    const columns: queries.StayColumns = {};
    if (patch.intake?.at !== undefined) columns.intakeAt = await resolveTime(tx, was.organizationId, patch.intake.at, "intake.at", now);
    if (patch.intake?.type !== undefined) columns.intakeType = patch.intake.type;
    if (patch.intake?.subtype !== undefined) columns.intakeSubtype = patch.intake.subtype;
    if (patch.outcome?.at !== undefined) columns.outcomeAt = await resolveTime(tx, was.organizationId, patch.outcome.at, "outcome.at", now);
    if (patch.outcome?.type !== undefined) columns.outcomeType = patch.outcome.type;
    if (patch.outcome?.subtype !== undefined) columns.outcomeSubtype = patch.outcome.subtype;
    // The 2021 details (issue 50): given, they must go with the type the stay will have; a new type its detail does not go with clears it.
    const intakeType = columns.intakeType ?? row.intakeType;
    const intakeDetail = patch.intake?.detail !== undefined ? patch.intake.detail : row.intakeDetail;
    if (!intakeDetailFits(intakeType, intakeDetail)) {
      if (patch.intake?.detail) throw detailMismatch("intake.detail");
      columns.intakeDetail = null;
    } else if (patch.intake?.detail !== undefined) columns.intakeDetail = patch.intake.detail;
    const outcomeType = columns.outcomeType ?? row.outcomeType;
    const outcomeDetail = patch.outcome?.detail !== undefined ? patch.outcome.detail : row.outcomeDetail;
    if (!outcomeDetailFits(outcomeType, outcomeDetail)) {
      if (patch.outcome?.detail) throw detailMismatch("outcome.detail");
      columns.outcomeDetail = null;
    } else if (patch.outcome?.detail !== undefined) columns.outcomeDetail = patch.outcome.detail;

    const from = columns.intakeAt ?? row.intakeAt;
    const to = columns.outcomeAt !== undefined ? columns.outcomeAt : row.outcomeAt;
    const field = patch.outcome?.at !== undefined ? "outcome.at" : "intake.at";
    if (to && to < from) throw outcomeBeforeIntake(field, from, to);
    if (columns.intakeAt !== undefined || columns.outcomeAt !== undefined) {
      const other = await queries.findOverlapping(tx, petId, from, to, row.id);
      if (other) throw overlapping(field, { from, to }, other);
    }
    // The latest stay speaks for the animal, and a correction of dates can
    // change which one that is (a stay moved past the last, the last moved
    // back before another): the animal follows the latest as it will be.
    const latest = await latestAfter(tx, petId, context.lastStay, row, { from, to, outcomeType: to ? (columns.outcomeType ?? row.outcomeType) : null });
    const follows = latest
      ? await followLeaving(tx, was, context, afterLastStay(latest.outcomeType, was.status), leavingCare, options)
      : { before: {}, columns: {} };
    return { ...follows, stayChange: { action: "stay_corrected", write: { kind: "change", id: row.id, columns }, refused: refusedAs(field) } };
  });
  return { stay: stay!, pet };
}
