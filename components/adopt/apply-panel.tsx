"use client";

import { lazy, Suspense, useState } from "react";
import type { Pet } from "@/lib/pets/schemas";
import { primaryButtonClass } from "@/components/pets/styles";

// The form and its schemas are fetched when an adopter asks for them, not
// with every animal's page.
const ApplyForm = lazy(() => import("@/components/adopt/apply-form"));

const WHY_NOT: Record<Exclude<Pet["status"], "available">, string> = {
  pending: "An adoption is being arranged for this animal, so no applications are taken for now. Other animals are waiting for a home too.",
  sold: "This animal has found a home, so no applications are taken.",
};

/** "Apply to adopt" on an available animal's page; why not, on the others. */
export function ApplyPanel({ pet }: { pet: Pet }) {
  const [open, setOpen] = useState(false);
  if (pet.status !== "available") {
    return (
      <p className="rounded-md border border-stone-300 bg-stone-100 px-4 py-3 text-stone-800" data-testid="no-applications">
        {WHY_NOT[pet.status]}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className={`${primaryButtonClass} px-6 py-3 text-base`} onClick={() => setOpen(true)}>
        Apply to adopt
      </button>
    );
  }
  return (
    <Suspense fallback={<p role="status">Loading the form…</p>}>
      <ApplyForm pet={pet} onCancel={() => setOpen(false)} />
    </Suspense>
  );
}
