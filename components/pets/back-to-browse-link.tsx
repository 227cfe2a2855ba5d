import { useTranslations } from "next-intl";
import { useLocalePath } from "@/lib/i18n/paths";
import { textLinkClass } from "@/components/pets/styles";

/** A paragraph of its own, so the pages' vertical spacing applies to it. */
export function BackToBrowseLink() {
  const t = useTranslations("Pet");
  const to = useLocalePath();
  return (
    <p>
      <a href={to("/")} className={textLinkClass}>
        <span aria-hidden="true">←</span> {t("backToAnimals")}
      </a>
    </p>
  );
}
