"use client";

import { isSaved } from "@/lib/saved/saved";
import { HeartIcon } from "@/components/saved/save-button";
import { toggleSavedAnimal, useSaved } from "@/components/saved/saved-store";

/** The animal page's Save toggle: the card's heart (save-button.tsx) with its word, "Save" or "Saved". */
export function SaveToggle({ pet }: { pet: { id: number; name: string } }) {
  const saved = isSaved(useSaved(), pet.id);
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={saved ? "Saved" : `Save ${pet.name}`}
      onClick={() => toggleSavedAnimal(pet)}
      className={`inline-flex items-center gap-2 rounded-md border px-3 py-2 text-base font-semibold shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 ${
        saved ? "border-rose-300 bg-rose-50 text-rose-800 hover:bg-rose-100" : "border-stone-400 bg-white text-stone-800 hover:bg-stone-100"
      }`}
    >
      <HeartIcon filled={saved} />
      {saved ? "Saved" : "Save"}
    </button>
  );
}
