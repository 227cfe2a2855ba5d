"use client";

import { useEffect, useRef, useState } from "react";
import { usePet } from "@/components/pets/use-pet";
import type { QueuedPhoto } from "@/components/staff/photo-drop-zone";
import { PhotoManager } from "@/components/staff/photo-manager";
import { linkClass, primaryButtonClass } from "@/components/staff/styles";
import type { Pet } from "@/lib/pets/schemas/pet";
import { STATUS_LABELS } from "@/components/pets/browse-query";

/** The animal just added, its photos being sent, a way to its page and a way to add the next one. */
export function PetAdded({
  pet: added,
  categoryName,
  photos,
  onAddAnother,
}: {
  pet: Pet;
  categoryName: string;
  photos: QueuedPhoto[];
  onAddAnother: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Live from here on: each photo sent moves the animal to a new version.
  const [fetchedAt] = useState(() => Date.now());
  const pet = usePet({ pet: added, fetchedAt }).data ?? added;
  // The form this replaces had focus: hand it to the news, so keyboard and
  // screen-reader users land on it.
  useEffect(() => heading.current?.focus(), []);

  return (
    <div className="max-w-2xl space-y-6">
      <section aria-labelledby="pet-added-heading" className="space-y-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 shadow-sm sm:p-6">
        <h2 id="pet-added-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-emerald-900 focus:outline-none">
          Added <span className="break-words">{pet.name}</span>
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="font-semibold text-stone-700">Name</dt>
          <dd className="min-w-0 break-words" data-testid="added-name">
            {pet.name}
          </dd>
          <dt className="font-semibold text-stone-700">Category</dt>
          <dd data-testid="added-category">{categoryName}</dd>
          <dt className="font-semibold text-stone-700">Status</dt>
          <dd data-testid="added-status">{STATUS_LABELS[pet.status]}</dd>
        </dl>
        <div className="flex flex-wrap items-center gap-4">
          <a href={`/pets/${pet.id}`} className={linkClass}>
            See <span className="break-words">{pet.name}</span>&rsquo;s page
          </a>
          <button type="button" onClick={onAddAnother} className={primaryButtonClass}>
            Add another
          </button>
        </div>
      </section>
      <PhotoManager pet={pet} initialQueue={photos} />
    </div>
  );
}
