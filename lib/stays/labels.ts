import type { IntakeDetail, IntakeType, OutcomeType } from "@/lib/stays/schemas";

// The Basic Data Matrix's categories as staff pages word them (staff pages
// are in English for now).

export const INTAKE_LABELS: Record<IntakeType, string> = {
  stray: "Stray",
  relinquishedByOwner: "Relinquished by owner (returns included)",
  ownerIntendedEuthanasia: "Owner-intended euthanasia",
  transferredIn: "Transferred in",
  otherIntake: "Other intake",
};

export const OUTCOME_LABELS: Record<OutcomeType, string> = {
  adoption: "Adoption",
  returnedToOwner: "Returned to owner",
  transferredOut: "Transferred out",
  returnedToField: "Returned to field",
  otherLiveOutcome: "Other live outcome",
  diedInCare: "Died in care",
  lostInCare: "Lost in care",
  shelterEuthanasia: "Shelter euthanasia",
  ownerIntendedEuthanasia: "Owner-intended euthanasia",
};

/** The matrix's 2021 details (the outcome's distances are the intake's, without seizedOrImpounded). */
export const DETAIL_LABELS: Record<IntakeDetail, string> = {
  seizedOrImpounded: "Seized or impounded",
  inState: "In state",
  outOfState: "Out of state",
  international: "International",
};

/** What an audit record's action says on the history (lib/audit/schemas.ts AUDIT_ACTIONS). */
export const ACTION_LABELS: Record<string, string> = {
  created: "Added",
  updated: "Changed",
  stay_started: "New intake recorded",
  stay_ended: "Outcome recorded",
  stay_corrected: "Stay corrected",
  placement_started: "Placed in a foster home",
  placement_ended: "Back from a foster home",
  placement_corrected: "Placement corrected",
};
