import { INTAKE_TYPES, OUTCOME_TYPES } from "@/lib/stays/schemas";

// The national Basic Data Matrix's intake and outcome categories (issue 42,
// decision 023) as a file's words are matched against them: the categories
// themselves are lib/stays' (lib/stays/schemas.ts, the database's enums), listed once.

/** One of ours, whatever its case: "STRAY" is stray, "Transferred In" is not (map it). */
export function ourWord<T extends string>(words: readonly T[], cell: string): T | undefined {
  const key = cell.trim().toLowerCase();
  return words.find((w) => w.toLowerCase() === key);
}

/**
 * What a history's value map may send a word to besides the matrix's categories (issue 50,
 * docs/decisions/028): an outcome that is a trip to a foster home (the stay goes on, a placement
 * begins) and an intake that is the return from one (the placement ends). Neither is a category:
 * a placement is never an intake or an outcome.
 */
export const FOSTER_OUTCOME = "foster";
export const FOSTER_RETURN = "returnFromFoster";
/**
 * The matrix's 2021 rows a value map may name (issue 50): each is a type with its detail, so the
 * stay keeps today's type (a seized animal is otherIntake, a transfer transferredIn/transferredOut).
 */
export const DETAIL_WORDS = {
  seizedOrImpounded: { type: "otherIntake", detail: "seizedOrImpounded" },
  transferredInInState: { type: "transferredIn", detail: "inState" },
  transferredInOutOfState: { type: "transferredIn", detail: "outOfState" },
  transferredInInternational: { type: "transferredIn", detail: "international" },
  transferredOutInState: { type: "transferredOut", detail: "inState" },
  transferredOutOutOfState: { type: "transferredOut", detail: "outOfState" },
  transferredOutInternational: { type: "transferredOut", detail: "international" },
} as const;
export const IMPORT_INTAKE_WORDS = [
  ...INTAKE_TYPES,
  FOSTER_RETURN,
  "seizedOrImpounded",
  "transferredInInState",
  "transferredInOutOfState",
  "transferredInInternational",
] as const;
export const IMPORT_OUTCOME_WORDS = [
  ...OUTCOME_TYPES,
  FOSTER_OUTCOME,
  "transferredOutInState",
  "transferredOutOutOfState",
  "transferredOutInternational",
] as const;
