// Petfinder's coats, lower-cased: the values of a Pet's coatLength. No zod
// here, so pages can import the list without the schema library.

export const COAT_LENGTHS = ["hairless", "short", "medium", "long", "wire", "curly"] as const;
export type CoatLength = (typeof COAT_LENGTHS)[number];

export function isCoatLength(value: string): value is CoatLength {
  return (COAT_LENGTHS as readonly string[]).includes(value);
}
