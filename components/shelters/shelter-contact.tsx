import { useTranslations } from "next-intl";
import { ContactIcon } from "@/components/shelters/contact-icon";
import { addressLines, telHref, websiteLabel } from "@/components/shelters/shelter-format";
import { focusRing } from "@/components/pets/styles";
import type { Organization } from "@/lib/organizations/schemas";

/**
 * How to reach a shelter: its address, phone (a tel: link, so a phone
 * dials it), email and website, each a line with a small picture. An
 * <address> element, as HTML means it: the contact of the page's subject.
 * Names and links are the shelter's own text, escaped by React; the website
 * was checked to be http(s) when it was saved.
 */
export function ShelterContact({
  organization,
  emptyText,
}: {
  /** address null: leave the address out (the directory's cards show the city instead). */
  organization: Pick<Organization, "address" | "phone" | "email" | "website">;
  emptyText?: string;
}) {
  const { address, phone, email, website } = organization;
  // Lighter than the pages' text links: three or four of them sit together.
  const linkClass = `rounded-sm font-medium text-emerald-800 underline decoration-emerald-800/40 underline-offset-2 hover:decoration-emerald-800 ${focusRing}`;
  const t = useTranslations("Shelter");
  const line = (kind: Parameters<typeof ContactIcon>[0]["kind"], label: string, content: React.ReactNode) => (
    <li className="flex items-start gap-2">
      <ContactIcon kind={kind} />
      <span className="min-w-0 wrap-anywhere">
        <span className="sr-only">{label}: </span>
        {content}
      </span>
    </li>
  );
  if (!address && !phone && !email && !website) {
    return <p className="text-stone-700">{emptyText ?? t("noContact")}</p>;
  }
  return (
    <address className="not-italic">
      <ul className="space-y-2 text-stone-800">
        {address &&
          line(
            "place",
            t("address"),
            addressLines(address).map((text, i) => (
              <span key={i} className="block">
                {text}
              </span>
            )),
          )}
        {phone &&
          line(
            "phone",
            t("phone"),
            <a href={telHref(phone)} className={linkClass}>
              {phone}
            </a>,
          )}
        {email &&
          line(
            "email",
            t("email"),
            <a href={`mailto:${email}`} className={linkClass}>
              {email}
            </a>,
          )}
        {website &&
          line(
            "website",
            t("website"),
            <a href={website} rel="noopener" className={linkClass}>
              {websiteLabel(website)}
            </a>,
          )}
      </ul>
    </address>
  );
}
