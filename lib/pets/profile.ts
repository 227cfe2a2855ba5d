import type { AgeGroup } from "@/lib/pets/age";

// The profile's fixed choices and the words people read for them, with no
// zod import: the browse page's filters and cards use them, and everything
// they import ships in its first JavaScript (a 150 kB budget). The schemas
// (lib/pets/schemas/fields.ts) build on these same lists.

export const PET_SEXES = ["female", "male", "unknown"] as const;
export type PetSex = (typeof PET_SEXES)[number];

export const PET_SIZES = ["small", "medium", "large", "xlarge"] as const;
export type PetSize = (typeof PET_SIZES)[number];

export const GOOD_WITH = ["children", "dogs", "cats"] as const;
export type GoodWithKind = (typeof GOOD_WITH)[number];

export const SEX_LABELS: Record<PetSex, string> = { female: "Female", male: "Male", unknown: "Sex unknown" };

export const SIZE_LABELS: Record<PetSize, string> = { small: "Small", medium: "Medium", large: "Large", xlarge: "Extra large" };

export const AGE_LABELS: Record<AgeGroup, string> = { baby: "Baby", young: "Young", adult: "Adult", senior: "Senior" };

export const GOOD_WITH_LABELS: Record<GoodWithKind, string> = { children: "Children", dogs: "Dogs", cats: "Cats" };

// The listing sites' profile (issue 34): the words Petfinder, Adopt-a-Pet and
// RescueGroups share for an animal's coat and its care.

export const COAT_LENGTHS = ["hairless", "short", "medium", "long", "wire", "curly"] as const;
export type CoatLength = (typeof COAT_LENGTHS)[number];

export const COAT_LABELS: Record<CoatLength, string> = {
  hairless: "Hairless",
  short: "Short",
  medium: "Medium",
  long: "Long",
  wire: "Wire",
  curly: "Curly",
};

/** The yes/no/not known answers of the profile, named as in the API. */
export const PROFILE_ANSWERS = ["mixedBreed", "spayedNeutered", "houseTrained", "declawed", "shotsCurrent", "specialNeeds"] as const;
export type ProfileAnswer = (typeof PROFILE_ANSWERS)[number];

/** The listing sites' fields as staff read them (the forms' labels, the history's names). */
export const LISTING_LABELS = {
  externalId: "Shelter's ID",
  secondaryBreed: "Second breed",
  mixedBreed: "Mixed breed",
  colors: "Colours",
  coatLength: "Coat",
  spayedNeutered: "Spayed or neutered",
  houseTrained: "House-trained",
  declawed: "Declawed",
  shotsCurrent: "Shots up to date",
  specialNeeds: "Special needs",
  specialNeedsNotes: "Special needs notes",
  adoptionFee: "Adoption fee",
  intakeDate: "Intake date",
  videoUrl: "Video",
  tags: "Tags",
  listOnOtherSites: "Send to listing sites",
} as const;
