import type { AgeGroup } from "@/lib/pets/age";
import type { CoatLength, GoodWithKind, PetSex, PetSize } from "@/lib/pets/profile";

// The English words for the profile's choices (lib/pets/profile.ts), for the
// staff pages, the alerts' emails and the animal's history. A file of their
// own because a module ships whole, with every export some page uses, to
// each page that imports any of it: kept in profile.ts, these words rode in
// the adopters' first page's JavaScript, which takes its words from the
// messages and needs only the lists.

export const SEX_LABELS: Record<PetSex, string> = { female: "Female", male: "Male", unknown: "Sex unknown" };

export const SIZE_LABELS: Record<PetSize, string> = { small: "Small", medium: "Medium", large: "Large", xlarge: "Extra large" };

export const AGE_LABELS: Record<AgeGroup, string> = { baby: "Baby", young: "Young", adult: "Adult", senior: "Senior" };

export const GOOD_WITH_LABELS: Record<GoodWithKind, string> = { children: "Children", dogs: "Dogs", cats: "Cats" };

export const COAT_LABELS: Record<CoatLength, string> = {
  hairless: "Hairless",
  short: "Short",
  medium: "Medium",
  long: "Long",
  wire: "Wire",
  curly: "Curly",
};

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
