import { useTranslations } from "next-intl";
import { useLocalePath, usePageLocale } from "@/lib/i18n/paths";
import { ContactIcon } from "@/components/shelters/contact-icon";
import { ShelterContact } from "@/components/shelters/shelter-contact";
import { milesAway, placeLine } from "@/components/shelters/shelter-format";
import type { Organization } from "@/lib/organizations/schemas";

/**
 * One shelter in the directory: its name (the link to its page; its
 * ::after covers the card, so the whole card is clickable), where it is,
 * how far (in a search near a place) and how to reach it. The contact
 * links sit above the card's link, so they still call, mail and open.
 */
export function ShelterCard({ organization, headingLevel = 2 }: { organization: Organization; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const t = useTranslations("Shelters");
  const locale = usePageLocale();
  const to = useLocalePath();
  return (
    <article className="relative flex h-full flex-col gap-3 rounded-xl border border-stone-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md has-[[data-card-link]:focus-visible]:outline-2 has-[[data-card-link]:focus-visible]:outline-offset-2 has-[[data-card-link]:focus-visible]:outline-emerald-700">
      <div className="space-y-1">
        <Heading className="text-lg font-semibold text-stone-900 wrap-anywhere">
          <a href={to(`/shelters/${organization.slug}`)} data-card-link className="after:absolute after:inset-0 hover:underline focus-visible:outline-none">
            {organization.name}
          </a>
        </Heading>
        {organization.address || organization.distanceKm !== undefined ? (
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-stone-700">
            {organization.address ? <span>{placeLine(organization.address)}</span> : null}
            {organization.distanceKm !== undefined ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-0.5 text-sm font-semibold text-emerald-900 ring-1 ring-emerald-200">
                <ContactIcon kind="distance" />
                {milesAway(t, organization.distanceKm, locale)}
              </span>
            ) : null}
          </p>
        ) : null}
      </div>
      <div className="relative z-10 mt-auto text-sm">
        <ShelterContact organization={{ ...organization, address: null }} emptyText={t("cardNoContact")} />
      </div>
    </article>
  );
}
