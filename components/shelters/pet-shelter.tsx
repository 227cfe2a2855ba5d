import { ShelterContact } from "@/components/shelters/shelter-contact";
import { textLinkClass } from "@/components/pets/styles";
import type { Organization } from "@/lib/organizations/schemas";

/**
 * Where an animal is, on its page: its shelter's name, address and contact,
 * so an adopter knows where they would meet it and whom to call, and a link
 * to the shelter's page. Drawn on the server, like the page.
 */
export function PetShelter({ petName, organization }: { petName: string; organization: Organization | null }) {
  return (
    <section aria-labelledby="pet-shelter-heading" className="space-y-3 rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="pet-shelter-heading" className="text-xl font-semibold text-stone-900 wrap-anywhere">
        Where to meet {petName}
      </h2>
      {organization ? (
        <>
          <p className="text-lg font-semibold text-stone-900 wrap-anywhere">{organization.name}</p>
          <ShelterContact organization={organization} />
          <p className="pt-1 text-sm">
            <a href={`/shelters/${organization.slug}`} className={textLinkClass}>
              {organization.name}&rsquo;s page and the other animals there <span aria-hidden="true">→</span>
            </a>
          </p>
        </>
      ) : (
        <p className="text-stone-700">The shelter&rsquo;s details could not be loaded just now. Reload the page to try again.</p>
      )}
    </section>
  );
}
