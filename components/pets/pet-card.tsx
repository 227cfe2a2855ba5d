import type { Pet } from "@/lib/pets/schemas";
import { PetPicture } from "@/components/pets/pet-picture";
import { StatusBadge } from "@/components/pets/status-badge";

/**
 * One animal in the grid. The name is the link (a short accessible name);
 * its ::after covers the card, so the whole card is clickable, and the card
 * shows the focus ring when the link has keyboard focus.
 */
export function PetCard({ pet, categoryName }: { pet: Pet; categoryName: string | undefined }) {
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-emerald-700">
      <PetPicture petId={pet.id} categoryName={categoryName} className="aspect-[4/3] w-full" />
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="text-lg font-semibold text-stone-900 wrap-anywhere">
          {/* A plain link (a full page load of the server-rendered animal page):
              next/link would add its 2.5 kB to the first page's JavaScript, and
              prefetching a grid of up to 100 would each cost a rate-limited render. */}
          <a href={`/pets/${pet.id}`} className="after:absolute after:inset-0 hover:underline focus-visible:outline-none">
            {pet.name}
          </a>
        </h3>
        <p className="text-sm text-stone-700">{categoryName ?? "Unknown category"}</p>
        <p className="mt-auto pt-2">
          <StatusBadge status={pet.status} />
        </p>
      </div>
    </article>
  );
}
