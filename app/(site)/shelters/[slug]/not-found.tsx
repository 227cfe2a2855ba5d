import { Picture } from "@/components/pets/pet-picture";
import { textLinkClass } from "@/components/pets/styles";

// Shown for a slug that names no shelter (unknown, renamed, mistyped).
export default function ShelterNotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">We couldn’t find that shelter</h1>
      <p className="text-stone-700">The link may be mistyped, or the shelter may have changed its name.</p>
      <p className="flex flex-wrap justify-center gap-x-6 gap-y-2">
        <a href="/shelters" className={textLinkClass}>
          See every shelter
        </a>
        <a href="/" className={textLinkClass}>
          Browse all animals
        </a>
      </p>
    </div>
  );
}
