import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { localePath } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/server";
import { Picture } from "@/components/pets/pet-picture";
import { textLinkClass } from "@/components/pets/styles";

// An address that names no page at all ("/es/nope" as much as "/nope"), in
// the visitor's language: the proxy strips "/es" and says the language in a
// request header, so this renders in the root layout like any page.
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("NotFound");
  return { title: t("title") };
}

export default async function NotFound() {
  const [t, locale] = await Promise.all([getTranslations("NotFound"), pageLocale()]);
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">{t("heading")}</h1>
      <p className="text-stone-700">{t("text")}</p>
      <p className="flex flex-wrap justify-center gap-x-6 gap-y-2">
        <a href={localePath(locale, "/")} className={textLinkClass}>
          {t("browse")}
        </a>
        <a href={localePath(locale, "/shelters")} className={textLinkClass}>
          {t("shelters")}
        </a>
      </p>
    </div>
  );
}
