// The listing sites' fields of an animal that has none of them (issue 34):
// what an old client's answers gain. Spelled out (not taken from the schema),
// so a test fails when the defaults change. No database here: unit tests of
// pure code use it too.
export const LISTING_UNKNOWN = {
  externalId: null,
  secondaryBreed: null,
  mixedBreed: null,
  colors: [],
  coatLength: null,
  spayedNeutered: null,
  houseTrained: null,
  declawed: null,
  shotsCurrent: null,
  specialNeeds: null,
  specialNeedsNotes: null,
  adoptionFee: null,
  intakeDate: null,
  videoUrl: null,
  tags: [],
  listOnOtherSites: true,
} as const;

// Where an animal lives, as every answer says it (issue 50): with the shelter,
// in no foster home. An old client's answers gain these two as well.
export const IN_THE_SHELTER = {
  inFosterHome: false,
  fosterHome: null,
} as const;
