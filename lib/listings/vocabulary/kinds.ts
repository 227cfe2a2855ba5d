import { kindOfCategory, type AnimalKind } from "@/lib/pictures/kinds";

// The listing sites' words are kept per kind of animal, not per category id
// (ids differ between databases): a category is known by its name, as its
// drawing is (lib/pictures/kinds.ts). A category added later has no kind and
// so no vocabulary: its breeds list is empty and its animals cannot be listed.

export type ListedKind = Exclude<AnimalKind, "paw">;

export const LISTED_KINDS: readonly ListedKind[] = ["dog", "cat", "rabbit", "bird", "reptile", "small-mammal"];

export function listedKindOf(categoryName: string): ListedKind | null {
  const kind = kindOfCategory(categoryName);
  return kind === "paw" ? null : kind;
}
