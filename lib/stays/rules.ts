import { ApiError } from "@/lib/core/errors";
import * as queries from "@/lib/stays/queries";
import type { Stay } from "@/lib/stays/schemas";

// What a stay means for its animal, and what an animal's status means for its
// stays (docs/decisions/023), as steps inside the transaction of a change to
// the animal (lib/pets/service.ts changePet holds the animal's row locked).
// No imports of the pets service: it calls these.

/** A stay as the API (and the audit record, and its event) shows it. */
export function toStay(row: queries.StayRow): Stay {
  return {
    id: Number(row.id),
    intake: { at: row.intakeAt.toISOString(), type: row.intakeType, subtype: row.intakeSubtype },
    outcome: row.outcomeAt && row.outcomeType ? { at: row.outcomeAt.toISOString(), type: row.outcomeType, subtype: row.outcomeSubtype } : null,
  };
}

/** What a change of status did to the stays: the stay it ended with an adoption, or the one whose adoption it undid. */
export interface StatusFollowed {
  ended?: Stay;
  reopened?: Stay;
}

/**
 * An animal's status changed (by hand, by the adoption workflow, by an
 * import): its stays follow. Becoming `sold` ends the open stay with
 * `adoption` at that moment. Leaving `sold` by hand is a correction: the
 * adoption it undoes is taken back, so the stay it ended is open again (a
 * return after an adoption is a new intake instead: POST …/stays). With no
 * open stay to end (an import that brought its own stays) or no adoption to
 * undo, the stays stay as they are; an animal out of care cannot become
 * sold (409 stay_ended: a new intake first).
 */
export async function followStatus(tx: queries.Db, petId: number, from: string, to: string, at: Date): Promise<StatusFollowed> {
  if (to === "sold" && from !== "sold") {
    const open = await queries.findOpenStay(tx, petId);
    if (!open) {
      // Out of care, it left some other way: an adoption now would contradict its records.
      if (!(await queries.inCareOf(tx, petId))) {
        throw new ApiError(409, "stay_ended", "The animal is out of care: its last stay ended other than by adoption. Record a new intake (POST …/stays) before it can be adopted.");
      }
      return {};
    }
    const outcomeAt = at < open.intakeAt ? open.intakeAt : at;
    return { ended: toStay(await queries.updateStay(tx, open.id, { outcomeAt, outcomeType: "adoption", outcomeSubtype: null })) };
  }
  if (from === "sold" && to !== "sold") {
    const last = await queries.findLastStay(tx, petId);
    if (!last || last.outcomeType !== "adoption") return {};
    await queries.setInCare(tx, petId, true);
    return { reopened: toStay(await queries.updateStay(tx, last.id, { outcomeAt: null, outcomeType: null, outcomeSubtype: null })) };
  }
  return {};
}

const day = (d: Date) => d.toISOString();

/** 409: another stay of the animal covers part of this one (the exclusion constraint's rule, said with both stays' dates). */
export function overlapping(field: string, mine: { from: Date; to: Date | null }, other: queries.StayRow): ApiError {
  const theirs = `stay ${other.id} (${day(other.intakeAt)} to ${other.outcomeAt ? day(other.outcomeAt) : "now, still open"})`;
  const message = `A stay from ${day(mine.from)} to ${mine.to ? day(mine.to) : "now (open)"} would overlap ${theirs}: an animal's stays never overlap.`;
  return new ApiError(409, "stay_overlap", message, [{ field, issue: `overlaps ${theirs}` }]);
}

/** 400: an outcome before its intake, with both dates named. */
export function outcomeBeforeIntake(field: string, intakeAt: Date, outcomeAt: Date): ApiError {
  return new ApiError(400, "invalid_body", `The outcome (${day(outcomeAt)}) would be before the intake (${day(intakeAt)}).`, [
    { field, issue: `must not be before the intake (${day(intakeAt)}); the outcome is ${day(outcomeAt)}` },
  ]);
}
