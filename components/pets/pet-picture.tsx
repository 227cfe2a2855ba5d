import { kindOfCategory, pictureName, variantOf } from "@/lib/pictures/kinds";

// The animals are drawn as SVG images under /pictures/: images the browser
// caches and paints without running any script, rather than React
// components that every page's JavaScript would have to carry. The static
// ones (public/pictures/<name>.svg) are one per category; an animal's own
// is one of many variants of its category's drawing, chosen by its id, so a
// page of animals without photos is not a grid of the same cat
// (app/pictures/[file]/route.ts draws them).

/**
 * A drawing, decorative (the category or the message next to it says it in
 * words). Fetched at once unless `lazy`: an eager image is also preloaded
 * from the head by React, ahead of the stylesheet, so a grid's drawings
 * below the first screen are lazy.
 */
export function Picture({ name, className, lazy = false, priority = false }: { name: string; className?: string; lazy?: boolean; priority?: boolean }) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a tiny static SVG: nothing for the image optimiser to do
    <img
      src={`/pictures/${name}.svg`}
      alt=""
      width={160}
      height={120}
      loading={lazy ? "lazy" : undefined}
      fetchPriority={priority ? "high" : undefined}
      className={className}
    />
  );
}

/** The drawing for an animal: its category's, in the colours, markings and pose its id picks (in a grid, priority and eager as PhotoImage's). */
export function PetPicture({
  petId,
  categoryName,
  className,
  priority = false,
  eager = false,
}: {
  petId: number;
  categoryName: string | undefined;
  className?: string;
  priority?: boolean;
  eager?: boolean;
}) {
  return <Picture name={pictureName(kindOfCategory(categoryName), variantOf(petId))} className={className} priority={priority} lazy={!priority && !eager} />;
}
