import type { Metadata } from "next";
import { categoriesForStaff, currentSession } from "@/app/(staff)/staff-data";
import { AddPetPanel } from "@/components/staff/add-pet-panel";

export const metadata: Metadata = { title: "Add an animal" };

// /staff/pets/new - the add form (staff only)
export default async function AddAnimalPage() {
  const session = await currentSession();
  const categories = session?.kind === "staff" ? await categoriesForStaff() : null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Add an animal</h1>
        <p className="text-stone-700">It appears on the adoption pages as soon as it is added.</p>
      </div>
      <AddPetPanel initialSession={session} initialCategories={categories} />
    </div>
  );
}
