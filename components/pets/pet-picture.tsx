// The animals are drawn once, as SVG files under public/pictures/: images
// the browser caches and paints without running any script, rather than
// React components that every page's JavaScript would have to carry.

/** Pictures are chosen by the category's name (ids differ between databases); a category added later gets the paw print. */
const PICTURES: Record<string, string> = {
  dogs: "dog",
  cats: "cat",
  rabbits: "rabbit",
  birds: "bird",
  reptiles: "reptile",
  "small mammals": "small-mammal",
};

/** A drawing, decorative (the category or the message next to it says it in words). */
export function Picture({ name, className }: { name: string; className?: string }) {
  // eslint-disable-next-line @next/next/no-img-element -- a tiny static SVG: nothing for the image optimiser to do
  return <img src={`/pictures/${name}.svg`} alt="" width={160} height={120} className={className} />;
}

/** The drawing for an animal's category. */
export function PetPicture({ categoryName, className }: { categoryName: string | undefined; className?: string }) {
  return <Picture name={(categoryName && PICTURES[categoryName.trim().toLowerCase()]) || "paw"} className={className} />;
}
