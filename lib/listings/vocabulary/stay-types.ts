// The national Basic Data Matrix's intake and outcome categories (issue 42,
// decision 023): the values of the database's IntakeType and OutcomeType
// enums, without zod or Prisma so the import's readers and pages can use
// them. lib/stays holds the rules; these are only the words.

export const INTAKE_TYPES = ["stray", "relinquishedByOwner", "ownerIntendedEuthanasia", "transferredIn", "otherIntake"] as const;
export type IntakeType = (typeof INTAKE_TYPES)[number];

export const OUTCOME_TYPES = [
  "adoption",
  "returnedToOwner",
  "transferredOut",
  "returnedToField",
  "otherLiveOutcome",
  "diedInCare",
  "lostInCare",
  "shelterEuthanasia",
  "ownerIntendedEuthanasia",
] as const;
export type OutcomeType = (typeof OUTCOME_TYPES)[number];

/** One of ours, whatever its case: "STRAY" is stray, "Transferred In" is not (map it). */
export function ourWord<T extends string>(words: readonly T[], cell: string): T | undefined {
  const key = cell.trim().toLowerCase();
  return words.find((w) => w.toLowerCase() === key);
}
