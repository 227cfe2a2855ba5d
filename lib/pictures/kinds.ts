// The few names the pages need to point at an animal's drawing, kept apart
// from the drawing code itself (lib/pictures/draw.ts): the browse grid is a
// client component, and every byte imported here ships in the first page's
// JavaScript (a 150 kB budget), while the drawings are fetched as images.

export type AnimalKind = "dog" | "cat" | "rabbit" | "bird" | "reptile" | "small-mammal" | "paw";

export const ANIMAL_KINDS: readonly AnimalKind[] = ["dog", "cat", "rabbit", "bird", "reptile", "small-mammal", "paw"];

/** By the category's name (ids differ between databases); a category added later gets the paw print. */
const KIND_OF_CATEGORY: Readonly<Record<string, AnimalKind>> = {
  dogs: "dog",
  cats: "cat",
  rabbits: "rabbit",
  birds: "bird",
  reptiles: "reptile",
  "small mammals": "small-mammal",
};

export function kindOfCategory(categoryName: string | undefined): AnimalKind {
  const key = categoryName?.trim().toLowerCase();
  return (key !== undefined && Object.hasOwn(KIND_OF_CATEGORY, key) && KIND_OF_CATEGORY[key]) || "paw";
}

export function isAnimalKind(name: string): name is AnimalKind {
  return (ANIMAL_KINDS as readonly string[]).includes(name);
}

/**
 * 7 colours x 5 markings x 3 poses, each picked by the variant modulo its
 * count: as 7, 5 and 3 share no factor, every variant is a different
 * combination, and ids that differ by less than 3 differ in all three.
 */
export const VARIANTS = 105;

export function variantOf(id: number): number {
  const n = Math.trunc(Math.abs(id));
  return Number.isFinite(n) ? n % VARIANTS : 0;
}

/** The drawing's name: served as /pictures/<name>.svg by app/pictures/[file]/route.ts. */
export function pictureName(kind: AnimalKind, variant: number): string {
  return `${kind}-${variant}`;
}
