import { getTranslations } from "next-intl/server";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { Picture } from "@/components/pets/pet-picture";

// An alert link that names nothing now: deleted, unsubscribed from an email,
// never confirmed within 7 days, or mistyped.
export default async function AlertNotFound() {
  const t = await getTranslations("AlertPage");
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">{t("goneHeading")}</h1>
      <p className="text-stone-700">
        {t("notFoundText")} {t.rich("createAnother", { strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      <BackToBrowseLink />
    </div>
  );
}
