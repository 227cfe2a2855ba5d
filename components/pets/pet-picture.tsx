import { kindOfCategory, pictureName, variantOf } from "@/lib/pictures/kinds";

// The animals are drawn as SVG images under /pictures/: images the browser
// caches and paints without running any script, rather than React
// components that every page's JavaScript would have to carry. The static
// ones (public/pictures/<name>.svg) are one per category; an animal's own
// is one of many variants of its category's drawing, chosen by its id, so a
// page of animals without photos is not a grid of the same cat
// (app/pictures/[file]/route.ts draws them).

/** A drawing, decorative (the category or the message next to it says it in words). */
export function Picture({ name, className }: { name: string; className?: string }) {
  // eslint-disable-next-line @next/next/no-img-element -- a tiny static SVG: nothing for the image optimiser to do
  return <img src={`/pictures/${name}.svg`} alt="" width={160} height={120} className={className} />;
}

/** The drawing for an animal: its category's, in the colours, markings and pose its id picks. */
export function PetPicture({ petId, categoryName, className }: { petId: number; categoryName: string | undefined; className?: string }) {
  return <Picture name={pictureName(kindOfCategory(categoryName), variantOf(petId))} className={className} />;
}
