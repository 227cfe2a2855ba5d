import {
  ADOPTAPET_BREED_MAP,
  ADOPTAPET_BREED_MAP_MORE,
  ADOPTAPET_MAP_ONLY_FOR,
  PETFINDER_BREEDS,
  UNKNOWN_BREEDS,
  UNKNOWN_CAT_BREED_BY_COAT,
} from "@/lib/listings/vocabulary/data";
import type { CoatLength } from "@/lib/pets/profile";
import type { ListedKind } from "@/lib/listings/vocabulary/kinds";
import { normalizeName } from "@/lib/listings/vocabulary/normalize";
import type { ListingSite } from "@/lib/core/listing-sites";

/** One breed of a kind: our name (Petfinder's) and each site's. */
export interface Breed {
  name: string;
  petfinder: string;
  adoptapet: string;
  rescuegroups: string;
}

/** A breed as typed, matched to the vocabulary: our name when known, the text as typed when not. */
export interface MatchedBreed {
  name: string;
  known: boolean;
  /** The text ended in "mix", "cross" or "x" (Labrador Retriever mix). */
  mixed: boolean;
}

function adoptapetName(kind: ListedKind, petfinder: string): string {
  const onlyFor = ADOPTAPET_MAP_ONLY_FOR[petfinder];
  if (onlyFor && !onlyFor.includes(kind)) return petfinder;
  return ADOPTAPET_BREED_MAP[petfinder] ?? ADOPTAPET_BREED_MAP_MORE[petfinder] ?? petfinder;
}

/**
 * Other names the sources themselves give a breed: each side of a
 * Petfinder name with a slash ("Budgie/Budgerigar"), and both sides of an
 * Adopt-a-Pet "Nickname, Full Name" ("Yorkie, Yorkshire Terrier"; not
 * "Lop, English", whose second side is a single word).
 */
function aliasesOf(breed: Breed): string[] {
  const aliases = breed.petfinder.includes("/") ? breed.petfinder.split("/").map((s) => s.trim()) : [];
  const comma = /^([^,()]+), ([^,()]+ [^,()]+)$/.exec(breed.adoptapet);
  if (comma) aliases.push(comma[1]!, comma[2]!);
  return aliases.filter((a) => a.length > 0);
}

interface KindIndex {
  breeds: Breed[];
  byName: Map<string, Breed>;
}

const indexes = new Map<ListedKind, KindIndex>();

/** Built on first use: most requests never need a breed list. */
function indexOf(kind: ListedKind): KindIndex {
  let index = indexes.get(kind);
  if (index) return index;
  const breeds = PETFINDER_BREEDS[kind].map((petfinder) => ({
    name: petfinder,
    petfinder,
    adoptapet: adoptapetName(kind, petfinder),
    rescuegroups: petfinder,
  }));
  const byName = new Map<string, Breed>();
  // In order of authority: Petfinder's names, then the aliases, then the
  // other sites' names. The first breed to claim a name keeps it, so
  // "Labrador Retriever" (Adopt-a-Pet's name for the black, chocolate and
  // yellow ones too) stays the Labrador Retriever.
  const claim = (text: string, breed: Breed) => {
    const key = normalizeName(text);
    if (key && !byName.has(key)) byName.set(key, breed);
  };
  for (const breed of breeds) claim(breed.petfinder, breed);
  for (const breed of breeds) for (const alias of aliasesOf(breed)) claim(alias, breed);
  for (const breed of breeds) claim(breed.adoptapet, breed);
  index = { breeds: [...breeds].sort((a, b) => a.name.localeCompare(b.name, "en")), byName };
  indexes.set(kind, index);
  return index;
}

/** The breeds of a kind, by name. */
export function breedsOf(kind: ListedKind): readonly Breed[] {
  return indexOf(kind).breeds;
}

export function findBreed(kind: ListedKind, text: string): Breed | undefined {
  return indexOf(kind).byName.get(normalizeName(text));
}

const MIX_SUFFIX = /[\s,/-]+(?:mix|mixed|mixed breed|cross|crossbreed|cross breed|x)\.?$/i;

/** A breed typed by a person or found in a file, in our words. Unknown breeds stay exactly as typed (trimmed). */
export function matchBreed(kind: ListedKind | null, text: string): MatchedBreed {
  const typed = text.trim();
  if (kind === null) return { name: typed, known: false, mixed: false };
  const exact = findBreed(kind, typed);
  if (exact) return { name: exact.name, known: true, mixed: false };
  const base = typed.replace(MIX_SUFFIX, "");
  if (base !== typed) {
    const found = findBreed(kind, base);
    if (found) return { name: found.name, known: true, mixed: true };
  }
  return { name: typed, known: false, mixed: false };
}

/** The site's name for a breed (typed or ours), or null when the site does not know it. */
export function siteBreed(kind: ListedKind, site: ListingSite, text: string): string | null {
  return findBreed(kind, text)?.[site] ?? null;
}

/** The names a site may be sent for a breed it does not know (a cat's depends on its coat). */
export function unknownBreedNames(kind: ListedKind, site: ListingSite): string[] {
  const names = kind === "cat" ? [UNKNOWN_BREEDS.cat, ...Object.values(UNKNOWN_CAT_BREED_BY_COAT)] : [UNKNOWN_BREEDS[kind]];
  return names.map((petfinder) => findBreed(kind, petfinder)![site]);
}

/** What a site is sent for a breed it does not know: the kind's mixed/unknown breed (a cat's follows its coat). */
export function unknownBreed(kind: ListedKind, site: ListingSite, coatLength: CoatLength | null = null): string {
  const petfinder = (kind === "cat" && coatLength && UNKNOWN_CAT_BREED_BY_COAT[coatLength]) || UNKNOWN_BREEDS[kind];
  return findBreed(kind, petfinder)![site];
}
