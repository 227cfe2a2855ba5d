import { useTranslations } from "next-intl";
import { useLocalePath } from "@/lib/i18n/paths";
import { ShelterContact } from "@/components/shelters/shelter-contact";
import { textLinkClass } from "@/components/pets/styles";
import type { Organization } from "@/lib/organizations/schemas";

/**
 * Where an animal is, on its page: its shelter's name, address and contact,
 * so an adopter knows where they would meet it and whom to call, and a link
 * to the shelter's page. Drawn on the server, like the page.
 */
export function PetShelter({ petName, organization }: { petName: string; organization: Organization | null }) {
  const t = useTranslations("Pet");
  const to = useLocalePath();
  return (
    <section aria-labelledby="pet-shelter-heading" className="space-y-3 rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="pet-shelter-heading" className="text-xl font-semibold text-stone-900 wrap-anywhere">
        {t("whereToMeet", { name: petName })}
      </h2>
      {organization ? (
        <>
          <p className="text-lg font-semibold text-stone-900 wrap-anywhere">{organization.name}</p>
          <ShelterContact organization={organization} />
          <p className="pt-1 text-sm">
            <a href={to(`/shelters/${organization.slug}`)} className={textLinkClass}>
              {t("shelterPage", { name: organization.name })} <span aria-hidden="true">→</span>
            </a>
          </p>
        </>
      ) : (
        <p className="text-stone-700">{t("shelterFailed")}</p>
      )}
    </section>
  );
}
