"use client";

import { EditPetForm } from "@/components/staff/edit-pet-form";
import { PetApplications } from "@/components/staff/pet-applications";
import { PetFosterCare } from "@/components/staff/pet-foster-care";
import { PetHistory } from "@/components/staff/pet-history";
import { PetStays } from "@/components/staff/pet-stays";
import { PhotoManager } from "@/components/staff/photo-manager";
import { speciesOfCategory } from "@/lib/people/schemas";
import type { Category, Pet } from "@/lib/pets/schemas/pet";

/** What staff get below an animal's profile: its photos, its applications, stays and foster care, the edit form, then the history. Loaded only for staff. */
export default function StaffPetTools({ pet, categories }: { pet: Pet; categories: Category[] | undefined }) {
  const category = categories?.find((c) => c.id === pet.categoryId);
  return (
    <div className="space-y-6">
      <PhotoManager pet={pet} />
      <PetApplications petId={pet.id} petName={pet.name} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <PetStays petId={pet.id} petName={pet.name} />
        <PetFosterCare
          petId={pet.id}
          petName={pet.name}
          organizationId={pet.organizationId}
          species={category ? speciesOfCategory(category.name) : undefined}
        />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <EditPetForm pet={pet} categories={categories} signInHref={`/staff/sign-in?next=/pets/${pet.id}`} />
        <PetHistory petId={pet.id} categories={categories} />
      </div>
    </div>
  );
}
