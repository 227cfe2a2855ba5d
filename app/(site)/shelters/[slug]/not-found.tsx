import { getTranslations } from "next-intl/server";
import { localePath } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/server";
import { Picture } from "@/components/pets/pet-picture";
import { textLinkClass } from "@/components/pets/styles";

// Shown for a slug that names no shelter (unknown, renamed, mistyped).
export default async function ShelterNotFound() {
  const [t, locale] = await Promise.all([getTranslations("Shelter"), pageLocale()]);
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">{t("notFoundHeading")}</h1>
      <p className="text-stone-700">{t("notFoundText")}</p>
      <p className="flex flex-wrap justify-center gap-x-6 gap-y-2">
        <a href={localePath(locale, "/shelters")} className={textLinkClass}>
          {t("seeEveryShelter")}
        </a>
        <a href={localePath(locale, "/")} className={textLinkClass}>
          {t("browseAll")}
        </a>
      </p>
    </div>
  );
}
