import { ApiError, type ErrorCode } from "@/lib/core/errors";
import { forbidden } from "@/lib/organizations/tenancy";
import * as queries from "@/lib/placements/queries";
import type { Placement } from "@/lib/placements/schemas";
import type { StayRow } from "@/lib/stays/queries";

// Who may take an animal, and what a stay's change does to its placements
// (docs/decisions/028), worked out under the animal's lock (lib/pets/service.ts
// changePet). No imports of the pets service: it calls these.

const iso = (d: Date) => d.toISOString();
const dayOf = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** A placement as the API (and the audit record) shows it: the foster by id only. */
export function toPlacement(row: queries.PlacementRow): Placement {
  return {
    id: Number(row.id),
    personId: row.personId === null ? null : Number(row.personId),
    stayId: Number(row.stayId),
    startAt: iso(row.startAt),
    endAt: row.endAt ? iso(row.endAt) : null,
    endReason: row.endReason,
    expectedEndOn: dayOf(row.expectedEndOn),
    note: row.note,
    capacityOverridden: row.capacityOverridden,
  };
}

/** A foster's blackouts as stored: `[{ from, to }]` days, both included; anything else is ignored. */
function blackoutsOf(raw: unknown): { from: string; to: string }[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((b): b is { from: string; to: string } => typeof b === "object" && b !== null && typeof b.from === "string" && typeof b.to === "string");
}

const conflict = (code: ErrorCode, message: string, field: string, issue: string) => new ApiError(409, code, message, [{ field, issue }]);

/**
 * Whether the foster may take the animal on `foster.day` (the placement's
 * start, in the organisation's zone): an active foster, not in a blackout,
 * who takes the animal's species, with room. Staff may place past the capacity (`override`); a key may not.
 * Says whether the capacity was overridden (recorded on the placement).
 */
export function fosterTakes(foster: queries.FosterRow, field: string, override: { asked: boolean; byStaff: boolean }): { capacityOverridden: boolean } {
  const who = `Person ${foster.id}`;
  if (foster.status !== "active") {
    const status = foster.status === null ? "they have no foster role" : `their foster status is ${foster.status}`;
    throw conflict("foster_not_active", `${who} cannot take an animal: ${status}. Only an active foster can.`, field, `is not an active foster (${status})`);
  }
  const blackout = blackoutsOf(foster.blackouts).find((b) => b.from <= foster.day && foster.day <= b.to);
  if (blackout) {
    const span = `from ${blackout.from} to ${blackout.to}`;
    throw conflict(
      "foster_in_blackout",
      `${who} takes no animals ${span} (a blackout), and the placement would start on ${foster.day}.`,
      field,
      `is in a blackout ${span}`,
    );
  }
  // No override: a foster said which animals their home suits (a cat-only
  // flat, a dog-shy household); staff who know better change the list first.
  if (foster.species.length > 0 && !foster.species.includes(foster.animalSpecies)) {
    const takes = foster.species.join(" and ");
    throw conflict(
      "foster_species",
      `${who} takes ${takes} only, and the animal is ${foster.animalSpecies === "other" ? "neither" : `a ${foster.animalSpecies}`}. Change their species first if they will take it.`,
      field,
      `takes ${takes} only (the animal: ${foster.animalSpecies})`,
    );
  }
  const capacity = foster.capacity ?? 0;
  if (foster.placed < capacity) return { capacityOverridden: false };
  if (override.asked && override.byStaff) return { capacityOverridden: true };
  throw conflict(
    "foster_full",
    `${who} has room for ${capacity} animal${capacity === 1 ? "" : "s"} and has ${foster.placed} placed now: no room left.${override.byStaff ? " Staff may place anyway with overrideCapacity: true." : ""}`,
    field,
    `has no room (capacity ${capacity}, ${foster.placed} placed)`,
  );
}

/** 403: only staff place past a foster's capacity (a partner's system should not decide it). */
export function overrideRefused(): ApiError {
  return forbidden("overrideCapacity is for signed-in staff only: an API key cannot place an animal past a foster's capacity.");
}

/** 403: `intake.fosterId` on a new animal needs records:write (a key with pets:write alone lists animals, it does not place them). */
export function fosterNeedsRecords(): ApiError {
  return forbidden("intake.fosterId places the animal with a foster, a write of the organisation's records: it needs the records:write scope.");
}

/** 409 no_open_stay: a placement lies inside a stay, and the animal has none open. */
export function noOpenStay(petId: number, field: string, last: StayRow | null): ApiError {
  const why = last ? `its last stay ended on ${iso(last.outcomeAt!)} (${last.outcomeType})` : "it has no stay";
  return conflict(
    "no_open_stay",
    `Animal ${petId} is not in the shelter's care (${why}): record an intake (POST /v1/pets/${petId}/stays) before placing it with a foster.`,
    field,
    "the animal has no open stay",
  );
}

/** 409 placement_overlap, naming the other placement's dates. */
export function overlapping(field: string, other: queries.PlacementRow): ApiError {
  const theirs = `placement ${other.id} (${iso(other.startAt)} to ${other.endAt ? iso(other.endAt) : "now, still open"})`;
  return conflict("placement_overlap", `The placement would overlap ${theirs}: an animal's placements never overlap.`, field, `overlaps ${theirs}`);
}

/** 409 placement_outside_stay: a placement lies inside its stay. */
export function outsideStay(field: string, stay: { intakeAt: Date; outcomeAt: Date | null }, detail?: string): ApiError {
  const span = `${iso(stay.intakeAt)} to ${stay.outcomeAt ? iso(stay.outcomeAt) : "now (open)"}`;
  return conflict(
    "placement_outside_stay",
    `A placement lies inside its stay (${span})${detail ? `: ${detail}` : ""}.`,
    field,
    `must lie inside the stay (${span})`,
  );
}

/**
 * What the database refusing a placement's write means for the caller (its
 * constraints hold whatever the path, the stay's side checked at commit):
 * a 409 that says which rule; anything else as it was.
 */
export function placementRefusal(error: unknown): unknown {
  const which = queries.placementConstraintOf(error);
  if (which === "overlap")
    return new ApiError(409, "placement_overlap", "The placement would overlap another placement of the animal: an animal's placements never overlap.");
  if (which === "one_open") return new ApiError(409, "placement_open", "The animal already has an open placement: end it first, or move the animal.");
  if (which === "inside_stay")
    return new ApiError(
      409,
      "placement_outside_stay",
      "The change would leave a placement outside its stay: a placement starts at or after its stay's intake and ends by its outcome. Correct the placement first.",
    );
  if (which === "order")
    return new ApiError(409, "placement_outside_stay", "A placement would end before it starts (its stay's outcome is before the placement's start).");
  return error;
}

/**
 * What a write of the animal's stays does to its placements, in the same
 * transaction under its lock: an outcome (recorded, a sale, a correction of
 * one) ends the open placement at the outcome's instant as `stayEnded`, and
 * moves the end of one an outcome ended; a taken-back adoption reopens it;
 * an import's stays end the open one if they ended its stay. Returns the
 * placements changed, for the change's audit record.
 */
export async function followStays(
  tx: queries.Db,
  was: { openPlacementId: bigint | null },
  written: { stay: StayRow | null; reopened: boolean; staysWritten: boolean; corrected: boolean },
): Promise<queries.PlacementRow[]> {
  if (written.stay && written.reopened) return queries.reopenWithStay(tx, written.stay.id);
  if (written.stay?.outcomeAt && (was.openPlacementId !== null || written.corrected)) return queries.endWithStay(tx, written.stay.id);
  if (written.staysWritten && was.openPlacementId !== null) return queries.endIfStayEnded(tx, was.openPlacementId);
  return [];
}

/** 404 naming the field: the person is not one of the organisation's (or was erased). */
export function noSuchPerson(personId: number, field: string): ApiError {
  return new ApiError(404, "not_found", `There is no person with id ${personId} in the animal's organisation.`, [
    { field, issue: "does not name a person of the animal's organisation" },
  ]);
}

/**
 * The foster `personId` takes the animal from `at` (their row locked until
 * the commit, so two placements cannot both take the last place): refused
 * with a 409 naming `field` otherwise. Returns whether staff placed past the
 * foster's capacity.
 */
export async function fosterFor(
  tx: queries.Db,
  p: { petId: number; organizationId: number; personId: number; at: Date; field: string; overrideCapacity: boolean; byStaff: boolean },
): Promise<{ capacityOverridden: boolean }> {
  const foster = await queries.lockFoster(tx, p.personId, p.organizationId, p.at, p.petId);
  if (!foster) throw noSuchPerson(p.personId, p.field);
  return fosterTakes(foster, p.field, { asked: p.overrideCapacity, byStaff: p.byStaff });
}

/**
 * An intake straight into a foster home (`intake.fosterId`): the foster
 * checked now, under the animal's lock; the placement written with the stay
 * it lies in, starting at its intake, in the same transaction.
 */
export async function placeAtIntake(
  tx: queries.Db,
  p: { petId: number; organizationId: number; personId: number; at: Date; byStaff: boolean },
): Promise<(tx: queries.Db, stayId: bigint) => Promise<queries.PlacementRow[]>> {
  await fosterFor(tx, { ...p, field: "intake.fosterId", overrideCapacity: false });
  return async (tx, stayId) => [await queries.insertPlacement(tx, { ...p, stayId, startAt: p.at, expectedEndOn: null, note: null, capacityOverridden: false })];
}
