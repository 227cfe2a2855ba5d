import { ApiError } from "@/lib/core/errors";
import * as queries from "@/lib/stays/queries";
import { stayTimeOf, type OutcomeType, type Stay } from "@/lib/stays/schemas";

// What a stay means for its animal, and what an animal's status means for its
// stays (docs/decisions/023), worked out from the animal as read under its
// lock (lib/pets/service.ts changePet), and written with its update. No
// imports of the pets service: it calls these.

/** An animal's status, as the stays' rules see it (lib/pets/schemas PetStatus, which lies above). */
type Status = "available" | "pending" | "sold";

/**
 * Decision 023, written once: what an animal's status and care become when
 * its last stay ends with `outcome` (null: the stay is open). An adoption
 * sells it (adopted animals stay listed, as sold); any other outcome takes it
 * out of care, its status as it was unless it was sold (it was not adopted);
 * an open stay (a new intake) brings it back, in care and not sold. The
 * stays' service (lib/pets/stays.ts) and the history import
 * (lib/imports/history.ts) both ask this.
 */
export function afterLastStay<S extends Status>(outcome: OutcomeType | null, status: S): { status: S | "available" | "sold"; inCare: boolean } {
  if (outcome === "adoption") return { status: "sold", inCare: true };
  return { status: status === "sold" ? "available" : status, inCare: outcome === null };
}

/** A stay as the API (and the audit record, and its event) shows it. */
export function toStay(row: queries.StayRow): Stay {
  return {
    id: Number(row.id),
    intake: { at: row.intakeAt.toISOString(), type: row.intakeType, subtype: row.intakeSubtype },
    outcome: row.outcomeAt && row.outcomeType ? { at: row.outcomeAt.toISOString(), type: row.outcomeType, subtype: row.outcomeSubtype } : null,
  };
}

/**
 * What a change of status does to the stays: the stay it ends with an
 * adoption, or the one whose adoption it takes back (then the animal is in
 * care again). Written in the animal's own update (lib/pets/service.ts).
 */
export interface StatusFollows {
  action: "ended" | "reopened";
  write: queries.StayWrite;
  inCare?: boolean;
}

/**
 * An animal's status changes (by hand, by the adoption workflow, by an
 * import): its stays follow. Becoming `sold` ends the open stay with
 * `adoption` at that moment. Leaving `sold` by hand is a correction: the
 * adoption it undoes is taken back, so the stay it ended is open again (a
 * return after an adoption is a new intake instead: POST …/stays). With no
 * open stay to end (an import that brought its own stays) or no adoption to
 * undo, the stays stay as they are (null); an animal out of care cannot
 * become sold (409 stay_ended: a new intake first). `lastStay` and `inCare`
 * are the animal's as read under its lock.
 */
export function followStatus(animal: { lastStay: queries.StayRow | null; inCare: boolean }, from: string, to: string, at: Date): StatusFollows | null {
  const last = animal.lastStay;
  if (to === "sold" && from !== "sold") {
    if (!last || last.outcomeAt) {
      // Out of care, it left some other way: an adoption now would contradict its records.
      if (!animal.inCare) {
        throw new ApiError(
          409,
          "stay_ended",
          "The animal is out of care: its last stay ended other than by adoption. Record a new intake (POST …/stays) before it can be adopted.",
        );
      }
      return null;
    }
    const outcomeAt = at < last.intakeAt ? last.intakeAt : at;
    return { action: "ended", write: { kind: "change", id: last.id, columns: { outcomeAt, outcomeType: "adoption", outcomeSubtype: null } } };
  }
  if (from === "sold" && to !== "sold") {
    if (!last || last.outcomeType !== "adoption") return null;
    return { action: "reopened", inCare: true, write: { kind: "change", id: last.id, columns: { outcomeAt: null, outcomeType: null, outcomeSubtype: null } } };
  }
  return null;
}

/**
 * Whether two stays of an animal meet, as the database's exclusion
 * constraints see them (pet_stay_span, migration 20261204120000): a stay of
 * no length is its instant, a stay that lasts its open interval from intake
 * to outcome (open: for ever). So two lasting stays meet when their half-open
 * ranges overlap (a re-intake at the last outcome's instant does not), a stay
 * of no length may stand at another's edge but not inside it, and two of no
 * length never meet. For the checks that plan before the database sees a
 * write (imports).
 */
export function staysMeet(a: { intakeAt: Date; outcomeAt: Date | null }, b: { intakeAt: Date; outcomeAt: Date | null }): boolean {
  const from = (s: typeof a) => s.intakeAt.getTime();
  const to = (s: typeof a) => s.outcomeAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const instant = (s: typeof a) => to(s) === from(s);
  if (instant(a) && instant(b)) return false;
  if (instant(a)) return from(b) < from(a) && from(a) < to(b);
  if (instant(b)) return from(a) < from(b) && from(b) < to(a);
  return from(a) < to(b) && from(b) < to(a);
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

function inFuture(field: string, what: string): ApiError {
  return new ApiError(400, "invalid_body", `The request body is invalid. ${field}: must not be in the future (${what}).`, [
    { field, issue: `must not be in the future (${what})` },
  ]);
}

/** A StayTime as an instant: a day is midnight in the organisation's zone. Never in the future. */
export async function resolveTime(tx: queries.Db, organizationId: number, time: string | undefined, field: string, now: Date): Promise<Date> {
  if (time === undefined) return now;
  const parsed = stayTimeOf(time);
  if ("instant" in parsed) {
    if (parsed.instant.getTime() > now.getTime()) throw inFuture(field, `now is ${now.toISOString()}`);
    return parsed.instant;
  }
  const local = await queries.midnightIn(organizationId, parsed.day, tx);
  if (!local) throw new Error(`stays: organisation ${organizationId} not found`);
  if (parsed.day > local.today) throw inFuture(field, `today is ${local.today} in the organisation's time zone`);
  return local.at > now ? now : local.at;
}
