"use client";

import { useTranslations } from "next-intl";

import { lazy, Suspense, useState } from "react";
import type { Pet } from "@/lib/pets/schemas/pet";
import { primaryButtonClass } from "@/components/pets/styles";

// The form and its schemas are fetched when an adopter asks for them, not
// with every animal's page.
const ApplyForm = lazy(() => import("@/components/adopt/apply-form"));

/** "Apply to adopt" on an available animal's page; why not, on the others. */
export function ApplyPanel({ pet }: { pet: Pet }) {
  const [open, setOpen] = useState(false);
  const t = useTranslations("Apply");
  if (pet.status !== "available") {
    return (
      <p className="rounded-md border border-stone-300 bg-stone-100 px-4 py-3 text-stone-800" data-testid="no-applications">
        {t(pet.status === "pending" ? "whyNotPending" : "whyNotSold")}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className={`${primaryButtonClass} px-6 py-3 text-base`} onClick={() => setOpen(true)}>
        {t("applyToAdopt")}
      </button>
    );
  }
  return (
    <Suspense fallback={<p role="status">{t("loadingForm")}</p>}>
      <ApplyForm pet={pet} onCancel={() => setOpen(false)} />
    </Suspense>
  );
}
