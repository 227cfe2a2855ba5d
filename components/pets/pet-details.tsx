"use client";

import dynamic from "next/dynamic";
import { ApplyPanel } from "@/components/adopt/apply-panel";
import { PetProfile } from "@/components/pets/pet-profile";
import { usePet } from "@/components/pets/use-pet";
import { usePetCategories } from "@/components/pets/use-pet-categories";
import { useSession } from "@/components/use-session";
import type { Category, Pet } from "@/lib/pets/schemas";

// The staff tools (form, schemas, history) are a separate chunk, fetched
// only once the session says staff: adopters never download them.
const StaffPetTools = dynamic(() => import("@/components/staff/staff-pet-tools"), {
  ssr: false,
  loading: () => (
    <p role="status" className="text-stone-700">
      Loading the staff tools…
    </p>
  ),
});

/**
 * One animal's page below the back link. The profile reads the animal from
 * react-query, so a staff change (optimistic, then confirmed or rolled back)
 * shows in it at once.
 */
export function PetDetails({ initial, categories: initialCategories }: { initial: { pet: Pet; fetchedAt: number }; categories: Category[] | undefined }) {
  const { data: pet } = usePet(initial);
  const categories = usePetCategories(initialCategories);
  const { data: session } = useSession();
  const shown = pet ?? initial.pet;
  const categoryName = categories.data?.find((c) => c.id === shown.categoryId)?.name;
  return (
    <>
      {pet === null ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          This animal is no longer listed.
        </p>
      ) : null}
      <PetProfile pet={shown} categoryName={categoryName} />
      {pet ? (
        <section aria-label="Adopting" className="max-w-2xl">
          <ApplyPanel pet={pet} />
        </section>
      ) : null}
      {session?.kind === "staff" && pet ? <StaffPetTools pet={pet} categories={categories.data} /> : null}
    </>
  );
}
