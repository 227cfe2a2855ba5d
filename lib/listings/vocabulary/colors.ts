import { ADOPTAPET_COLORS, ADOPTAPET_HAIR_LENGTHS, PETFINDER_COATS, PETFINDER_COLORS } from "@/lib/listings/vocabulary/data";
import type { CoatLength } from "@/lib/pets/profile";
import { listedKindOf, type ListedKind } from "@/lib/listings/vocabulary/kinds";
import { normalizeName } from "@/lib/listings/vocabulary/normalize";

/** The colours and coat lengths a category's animals are described with (Petfinder's, for its kind); empty for a category of no kind. */
export function categoryVocabulary(categoryName: string): { colors: string[]; coatLengths: CoatLength[] } {
  const kind = listedKindOf(categoryName);
  return kind ? { colors: [...PETFINDER_COLORS[kind]], coatLengths: [...PETFINDER_COATS[kind]] } : { colors: [], coatLengths: [] };
}

function findIn(list: readonly string[], text: string): string | undefined {
  const key = normalizeName(text);
  return key ? list.find((name) => normalizeName(name) === key) : undefined;
}

/** Petfinder's spelling of a colour of the kind, or undefined when Petfinder has no such colour for it. */
export function petfinderColor(kind: ListedKind, text: string): string | undefined {
  return findIn(PETFINDER_COLORS[kind], text);
}

/** A colour typed by a person or found in a file: Petfinder's spelling when it is one of the kind's, else as typed (trimmed). */
export function matchColor(kind: ListedKind | null, text: string): string {
  return (kind && petfinderColor(kind, text)) || text.trim();
}

/** Adopt-a-Pet's colour of the kind with the same name (Adopt-a-Pet names most colours differently: then undefined). */
export function adoptapetColor(kind: ListedKind, text: string): string | undefined {
  return findIn(ADOPTAPET_COLORS[kind], text);
}

export function petfinderCoats(kind: ListedKind): readonly CoatLength[] {
  return PETFINDER_COATS[kind];
}

export function adoptapetHairLengths(kind: ListedKind): readonly CoatLength[] {
  return ADOPTAPET_HAIR_LENGTHS[kind];
}
