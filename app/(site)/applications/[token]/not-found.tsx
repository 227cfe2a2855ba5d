import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { Picture } from "@/components/pets/pet-picture";

// An application link that names nothing (mistyped, cut short, or made up).
export default function ApplicationNotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">We couldn’t find that application</h1>
      <p className="text-stone-700">Check that the whole link was copied from your confirmation: it is long, and every character counts.</p>
      <BackToBrowseLink />
    </div>
  );
}
