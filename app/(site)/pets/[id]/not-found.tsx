import { getTranslations } from "next-intl/server";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { Picture } from "@/components/pets/pet-picture";

// Shown for an id that names no animal (unknown, malformed, out of range).
export default async function PetNotFound() {
  const t = await getTranslations("Pet");
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">{t("notFoundHeading")}</h1>
      <p className="text-stone-700">{t("notFoundText")}</p>
      <BackToBrowseLink />
    </div>
  );
}
