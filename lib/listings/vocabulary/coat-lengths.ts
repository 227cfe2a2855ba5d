// Petfinder's coats, lower-cased: the values of a Pet's coatLength, defined
// once with the rest of the profile's words (lib/pets/profile.ts, no zod, so
// pages can import them); this is the formats' check of a file's word.

import { COAT_LENGTHS, type CoatLength } from "@/lib/pets/profile";

export function isCoatLength(value: string): value is CoatLength {
  return (COAT_LENGTHS as readonly string[]).includes(value);
}
