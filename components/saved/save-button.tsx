"use client";

import { isSaved } from "@/lib/saved/saved";
import { toggleSavedAnimal, useSaved } from "@/components/saved/saved-store";

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700";

/**
 * The heart that saves an animal in this browser (listed at /saved). A
 * toggle button: "Save Biscuit" until pressed, then "Saved" (aria-pressed
 * says which). On a card it is a round button over the cover, above the
 * link that covers the card; on the animal's page it carries its word.
 */
export function SaveButton({ pet, variant = "icon" }: { pet: { id: number; name: string }; variant?: "icon" | "labelled" }) {
  const saved = isSaved(useSaved(), pet.id);
  const label = saved ? "Saved" : `Save ${pet.name}`;
  const heart = (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 shrink-0" fill={saved ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.4 0 5.5 3.4 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4Z" />
    </svg>
  );
  if (variant === "labelled") {
    return (
      <button
        type="button"
        aria-pressed={saved}
        aria-label={label}
        onClick={() => toggleSavedAnimal(pet)}
        className={`inline-flex items-center gap-2 rounded-md border px-3 py-2 text-base font-semibold shadow-sm ${
          saved ? "border-rose-300 bg-rose-50 text-rose-800 hover:bg-rose-100" : "border-stone-400 bg-white text-stone-800 hover:bg-stone-100"
        } ${focusRing}`}
      >
        {heart}
        {saved ? "Saved" : "Save"}
      </button>
    );
  }
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={label}
      title={saved ? `Saved: ${pet.name}` : label}
      onClick={() => toggleSavedAnimal(pet)}
      className={`absolute right-2 top-2 z-10 inline-flex size-11 items-center justify-center rounded-full bg-white/95 shadow ${
        saved ? "text-rose-700" : "text-stone-700 hover:text-rose-700"
      } ${focusRing}`}
    >
      {heart}
    </button>
  );
}
