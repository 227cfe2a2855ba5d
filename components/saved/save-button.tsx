"use client";

import { isSaved } from "@/lib/saved/saved";
import { toggleSavedAnimal, useSaved } from "@/components/saved/saved-store";

/** The heart, outlined or filled. */
export function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-6 shrink-0"
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
    >
      <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.4 0 5.5 3.4 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4Z" />
    </svg>
  );
}

type SavablePet = { id: number; name: string };

/**
 * The button's names in the page's language ("Save Biscuit", "Saved":
 * Common.saveName and Common.saved), from the component that draws it: on
 * the browse page that is the server's card, so the first page's hearts
 * need no translator in the browser.
 */
export interface SaveLabels {
  saveName: string;
  saved: string;
}

/**
 * What both Save buttons (this one and save-toggle.tsx) are: a toggle button
 * whose pressed state is whether the animal is saved in this browser, named
 * "Save Biscuit" until pressed and "Saved" after.
 */
export function useSaveToggle(pet: SavablePet, labels: SaveLabels) {
  const saved = isSaved(useSaved(), pet.id);
  const toggle = {
    type: "button",
    "aria-pressed": saved,
    "aria-label": saved ? labels.saved : labels.saveName,
    onClick: () => toggleSavedAnimal(pet),
  } as const;
  return { saved, toggle };
}

/**
 * The heart on a card that saves the animal in this browser (listed at
 * /saved): a toggle button, "Save Biscuit" until pressed, then "Saved"
 * (aria-pressed says which). A round button over the cover, above the link
 * that covers the card. The animal's page has its worded twin (save-toggle.tsx),
 * apart so that the browse page's first JavaScript carries only this.
 */
export function SaveButton({ pet, labels }: { pet: SavablePet; labels: SaveLabels }) {
  const { saved, toggle } = useSaveToggle(pet, labels);
  return (
    <button
      {...toggle}
      className={`absolute right-2 top-2 z-10 inline-flex size-11 items-center justify-center rounded-full bg-white/95 shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 ${
        saved ? "text-rose-700" : "text-stone-700 hover:text-rose-700"
      }`}
    >
      <HeartIcon filled={saved} />
    </button>
  );
}
