import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { Picture } from "@/components/pets/pet-picture";

// Shown for an id that names no animal (unknown, malformed, out of range).
export default function PetNotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">We couldn’t find that animal</h1>
      <p className="text-stone-700">It may have been removed from the list, or the link may be mistyped.</p>
      <BackToBrowseLink />
    </div>
  );
}
