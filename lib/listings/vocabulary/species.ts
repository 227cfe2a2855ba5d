import { ADOPTAPET_SPECIES, PETFINDER_TYPES, SPECIES_ALIASES } from "@/lib/listings/vocabulary/data";
import { LISTED_KINDS, listedKindOf, type ListedKind } from "@/lib/listings/vocabulary/kinds";
import { normalizeName } from "@/lib/listings/vocabulary/normalize";
import type { ListingSite } from "@/lib/core/listing-sites";

/** A site's species (type) name for a kind. RescueGroups takes Petfinder's (as ASM3 sends them). */
export function siteSpecies(kind: ListedKind, site: ListingSite): string {
  return site === "adoptapet" ? ADOPTAPET_SPECIES[kind] : PETFINDER_TYPES[kind];
}

const KIND_BY_SPECIES = new Map<string, ListedKind>();
for (const kind of LISTED_KINDS) {
  for (const name of [PETFINDER_TYPES[kind], ADOPTAPET_SPECIES[kind], ...SPECIES_ALIASES[kind]]) {
    KIND_BY_SPECIES.set(normalizeName(name), kind);
  }
}

/** The kind a species name found in a file stands for ("Small&Furry", "Small Animal" and "Hamster" are small mammals). */
export function kindOfSpecies(species: string): ListedKind | null {
  return KIND_BY_SPECIES.get(normalizeName(species)) ?? null;
}

export interface NamedCategory {
  id: number;
  name: string;
}

/**
 * The category a species from a file belongs to: a category of that name
 * (singular or plural, case and punctuation ignored: "dog" is Dogs, and a
 * category added later, "Horses", takes "Horse"), else the category of the
 * species' kind (a "Small&Furry" is a Small mammal). Null when none fits.
 */
export function matchCategory<C extends NamedCategory>(species: string, categories: readonly C[]): C | null {
  const key = normalizeName(species);
  if (!key) return null;
  const byName = categories.find((c) => {
    const name = normalizeName(c.name);
    return name === key || name === `${key}s` || name === `${key}es` || `${name}s` === key;
  });
  if (byName) return byName;
  const kind = kindOfSpecies(species);
  return kind ? (categories.find((c) => listedKindOf(c.name) === kind) ?? null) : null;
}
