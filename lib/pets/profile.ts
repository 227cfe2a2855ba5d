// The profile's fixed choices, with no zod import: the browse page's filters
// and cards use them, and everything they import ships in its first
// JavaScript (e2e/ui/page-weight.spec.ts). The schemas (lib/pets/schemas/fields.ts)
// build on these same lists; the English words for them are in
// profile-labels.ts.

export const PET_SEXES = ["female", "male", "unknown"] as const;
export type PetSex = (typeof PET_SEXES)[number];

export const PET_SIZES = ["small", "medium", "large", "xlarge"] as const;
export type PetSize = (typeof PET_SIZES)[number];

export const GOOD_WITH = ["children", "dogs", "cats"] as const;
export type GoodWithKind = (typeof GOOD_WITH)[number];

// The listing sites' profile (issue 34): the words Petfinder, Adopt-a-Pet and
// RescueGroups share for an animal's coat and its care.

export const COAT_LENGTHS = ["hairless", "short", "medium", "long", "wire", "curly"] as const;
export type CoatLength = (typeof COAT_LENGTHS)[number];

/** The yes/no/not known answers of the profile, named as in the API. */
export const PROFILE_ANSWERS = ["mixedBreed", "spayedNeutered", "houseTrained", "declawed", "shotsCurrent", "specialNeeds"] as const;
export type ProfileAnswer = (typeof PROFILE_ANSWERS)[number];
