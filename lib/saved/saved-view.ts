import type { PetStatus } from "@/lib/pets/schemas/fields";
import type { SavedAnimal } from "@/lib/saved/saved";

// What only /saved needs of the saved animals, apart from lib/saved/saved.ts,
// which the hearts (and so the browse page's first JavaScript) carry: the
// bundler keeps every export of a module it includes.

/** Newest first, as /saved lists them. */
export const newestFirst = (saved: readonly SavedAnimal[]): SavedAnimal[] => [...saved].sort((a, b) => b.savedAt.localeCompare(a.savedAt) || b.id - a.id);

/** The ids in groups the list's `id` filter takes at once (lib/core/schemas.ts IDS_MAX). */
export function idChunks(ids: readonly number[], size = 100): number[][] {
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  return chunks;
}

/** What /saved says of a saved animal's status: it does not disappear once adopted. */
export const SAVED_STATUS_LABELS: Record<PetStatus, string> = { available: "Available", pending: "Adoption pending", sold: "Adopted" };
