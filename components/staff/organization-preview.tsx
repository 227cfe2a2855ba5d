import { ShelterCard } from "@/components/shelters/shelter-card";
import { linkClass, panelClass } from "@/components/staff/styles";
import type { Organization } from "@/lib/organizations/schemas";

/**
 * Where adopters will find the shelter, as saved: its page, its card in the
 * directory (the same component), and the point searches by distance
 * measure from, with a map to check it on. A shelter without a position is
 * told that searches near a place cannot find it.
 */
export function OrganizationPreview({ organization }: { organization: Organization }) {
  const { location } = organization;
  const page = `/shelters/${organization.slug}`;
  return (
    <section aria-labelledby="preview-heading" className={`${panelClass} space-y-4`}>
      <h2 id="preview-heading" className="text-lg font-semibold">
        Where adopters find you
      </h2>
      <p className="text-stone-800">
        Your page:{" "}
        <a href={page} className={linkClass}>
          {page}
        </a>
        . In the shelters directory, and beside each of your animals, adopters see:
      </p>
      <ShelterCard organization={organization} headingLevel={3} />
      {location ? (
        <p className="text-sm text-stone-700">
          Searches near a ZIP code or an adopter&rsquo;s location measure the distance from{" "}
          <span className="font-mono">
            {location.lat.toFixed(4)}, {location.lng.toFixed(4)}
          </span>
          .{" "}
          <a
            href={`https://www.openstreetmap.org/?mlat=${location.lat}&mlon=${location.lng}#map=16/${location.lat}/${location.lng}`}
            rel="noopener"
            className={linkClass}
          >
            Check it on OpenStreetMap
          </a>
        </p>
      ) : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          Adopters searching near a place cannot find you yet: add your address with a US ZIP code, or an exact position.
        </p>
      )}
    </section>
  );
}
