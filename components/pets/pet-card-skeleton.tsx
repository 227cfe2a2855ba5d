/** A card-shaped placeholder while the first page of animals loads. */
export function PetCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white">
      <div className="aspect-[4/3] w-full bg-stone-200 motion-safe:animate-pulse" />
      <div className="flex flex-col gap-2 p-4">
        <div className="h-5 w-2/3 rounded bg-stone-200 motion-safe:animate-pulse" />
        <div className="h-4 w-1/3 rounded bg-stone-200 motion-safe:animate-pulse" />
        <div className="mt-2 h-6 w-24 rounded-full bg-stone-200 motion-safe:animate-pulse" />
      </div>
    </div>
  );
}
