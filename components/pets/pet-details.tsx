"use client";

import { useTranslations } from "next-intl";

import dynamic from "next/dynamic";
import type { ReactNode } from "react";
import { ApplyPanel } from "@/components/adopt/apply-panel";
import { PetProfile } from "@/components/pets/pet-profile";
import { SaveToggle } from "@/components/saved/save-toggle";
import { usePet } from "@/components/pets/use-pet";
import { usePetCategories } from "@/components/pets/use-pet-categories";
import { useSession } from "@/components/use-session";
import type { Category, Pet } from "@/lib/pets/schemas/pet";

// The staff tools (form, schemas, history) are a separate chunk, fetched
// only once the session says staff: adopters never download them.
const StaffPetTools = dynamic(() => import("@/components/staff/staff-pet-tools"), {
  ssr: false,
  loading: () => (
    <p role="status" className="text-stone-700">
      <StaffToolsLoading />
    </p>
  ),
});

/**
 * One animal's page below the back link. The profile reads the animal from
 * react-query, so a staff change (optimistic, then confirmed or rolled back)
 * shows in it at once.
 */
function StaffToolsLoading() {
  return useTranslations("Pet")("loadingStaffTools");
}

export function PetDetails({
  initial,
  categories: initialCategories,
  shelter,
}: {
  initial: { pet: Pet; fetchedAt: number };
  categories: Category[] | undefined;
  /** Where the animal is (components/shelters/pet-shelter.tsx), drawn on the server. */
  shelter?: ReactNode;
}) {
  const { data: pet } = usePet(initial);
  const categories = usePetCategories(initialCategories);
  const { data: session } = useSession();
  const shown = pet ?? initial.pet;
  const t = useTranslations("Pet");
  const categoryName = categories.data?.find((c) => c.id === shown.categoryId)?.name;
  // Staff change only their own organisation's animals (a platform admin
  // any): the API would refuse the rest, so the tools are not offered.
  const staffOf = session?.kind === "staff" ? (session.platformAdmin || session.organizationId === shown.organizationId ? "own" : "other") : null;
  return (
    <>
      {pet === null ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          {t("noLongerListed")}
        </p>
      ) : null}
      <PetProfile pet={shown} categoryName={categoryName} actions={<SaveToggle pet={{ id: shown.id, name: shown.name }} />} />
      {/* The profile's two columns: applying under the photos, the shelter under the details. */}
      <div className="grid items-start gap-8 md:grid-cols-2">
        {pet ? (
          <section aria-label={t("adopting")}>
            <ApplyPanel pet={pet} />
          </section>
        ) : null}
        {shelter}
      </div>
      {staffOf === "own" && pet ? <StaffPetTools pet={pet} categories={categories.data} /> : null}
      {staffOf === "other" ? (
        <p role="note" className="rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sky-950">
          {t("otherShelter", { name: shown.name })}
        </p>
      ) : null}
    </>
  );
}
