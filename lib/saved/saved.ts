// Saved animals (issue 27): kept in the adopter's own browser, no account.
// The pure part of it, with no browser and no zod (the hearts on the browse
// page's cards ship with its first JavaScript, a 150 kB budget): reading
// what localStorage holds, whatever it holds, and the changes to it. The
// store around it is components/saved/saved-store.ts.

/** The localStorage key, and its value's shape: a JSON array of SavedAnimal (the site's contract for issue 27). */
export const SAVED_KEY = "petstore:saved";

export interface SavedAnimal {
  id: number;
  /** Its name when it was saved, to name it even once it is no longer listed. */
  name: string;
  /** When it was saved (ISO 8601). */
  savedAt: string;
}

/** At most this many names are kept, each at most this long: the value stays small whatever another tab wrote. */
export const SAVED_MAX = 500;
const NAME_MAX = 200;

const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 1;

/**
 * The saved animals a stored value holds, oldest first. Anything unreadable
 * (no value, not JSON, another shape, an entry without an id) counts as
 * nothing rather than breaking the page; an id saved twice counts once.
 */
export function parseSaved(raw: string | null | undefined): SavedAnimal[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<number>();
  const saved: SavedAnimal[] = [];
  for (const entry of value) {
    if (typeof entry !== "object" || entry === null) continue;
    const { id, name, savedAt } = entry as Record<string, unknown>;
    if (!isId(id) || seen.has(id)) continue;
    seen.add(id);
    saved.push({
      id,
      name: typeof name === "string" && name.trim() ? name.slice(0, NAME_MAX) : `Animal #${id}`,
      savedAt: typeof savedAt === "string" && !Number.isNaN(Date.parse(savedAt)) ? savedAt : new Date(0).toISOString(),
    });
    if (saved.length === SAVED_MAX) break;
  }
  return saved;
}

export const serializeSaved = (saved: readonly SavedAnimal[]): string => JSON.stringify(saved);

export const isSaved = (saved: readonly SavedAnimal[], id: number): boolean => saved.some((s) => s.id === id);

/** The list with `pet` added (at the end, saved `now`), or removed if it was there. */
export function toggleSaved(saved: readonly SavedAnimal[], pet: { id: number; name: string }, now: Date): SavedAnimal[] {
  if (isSaved(saved, pet.id)) return removeSaved(saved, pet.id);
  // The oldest make room when the list is full: a heart never silently does nothing.
  const kept = saved.length >= SAVED_MAX ? saved.slice(saved.length - SAVED_MAX + 1) : saved;
  return [...kept, { id: pet.id, name: pet.name.slice(0, NAME_MAX), savedAt: now.toISOString() }];
}

export const removeSaved = (saved: readonly SavedAnimal[], id: number): SavedAnimal[] => saved.filter((s) => s.id !== id);
