import type { Pet, PetStatus } from "@/lib/pets/schemas";
import { PetPicture } from "@/components/pets/pet-picture";
import { StatusBadge } from "@/components/pets/status-badge";

const STATUS_NOTES: Record<PetStatus, string> = {
  available: "Waiting for a home: ask the shelter about a visit.",
  pending: "Someone has asked to adopt this animal, and the adoption is being arranged.",
  sold: "This animal has already found a home.",
};

/** One animal, large: its drawing, name (always as text), category and status. */
export function PetProfile({ pet, categoryName }: { pet: Pet; categoryName: string | undefined }) {
  return (
    <article className="grid items-start gap-8 md:grid-cols-2">
      <PetPicture petId={pet.id} categoryName={categoryName} className="aspect-[4/3] w-full rounded-2xl border border-stone-200 shadow-sm" />
      <div className="min-w-0 space-y-5">
        <h1 className="text-4xl font-bold text-stone-900 wrap-anywhere">{pet.name}</h1>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-6 gap-y-3">
          <dt className="font-semibold text-stone-700">Category</dt>
          <dd className="text-stone-900">{categoryName ?? "Unknown category"}</dd>
          <dt className="font-semibold text-stone-700">Status</dt>
          <dd>
            <StatusBadge status={pet.status} size="lg" />
          </dd>
          <dt className="font-semibold text-stone-700">Reference</dt>
          <dd className="font-mono text-stone-900">#{pet.id}</dd>
        </dl>
        <p className="text-lg text-stone-800">{STATUS_NOTES[pet.status]}</p>
      </div>
    </article>
  );
}
