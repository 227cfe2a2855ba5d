import { linkClass } from "@/components/staff/styles";
import type { ListingSiteView } from "@/lib/listings/uploads/schemas";
import { SITE_NAMES } from "@/lib/core/listing-sites";

// The dashboard's warning about listing sites (rendered on the server): a
// site whose last upload failed, or that has had no successful upload in 26
// hours (the daily upload plus a margin), shows adopters stale animals.

const STALE_MS = 26 * 3_600_000;

export function troubledSites(sites: ListingSiteView[], now: Date): { site: ListingSiteView; why: string }[] {
  return sites.flatMap((site) => {
    if (!site.enabled) return [];
    if (site.lastUpload?.outcome === "failed") return [{ site, why: `its last upload failed: ${site.lastUpload.error ?? "unknown error"}` }];
    const since = Date.parse(site.lastSentAt ?? site.createdAt);
    if (now.getTime() - since > STALE_MS)
      return [{ site, why: site.lastSentAt ? "no upload has succeeded in 26 hours" : "no upload has succeeded since it was added" }];
    return [];
  });
}

export function ListingSitesWarning({ sites, now }: { sites: ListingSiteView[]; now: Date }) {
  const troubled = troubledSites(sites, now);
  if (!troubled.length) return null;
  return (
    <div role="note" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
      <p className="font-semibold">Listing sites need attention: adopters may see animals that are no longer available.</p>
      <ul className="list-disc pl-5">
        {troubled.map(({ site, why }) => (
          <li key={site.id}>
            {SITE_NAMES[site.site]} ({site.username}): {why}.
          </li>
        ))}
      </ul>
      <a href="/staff/listing-sites" className={linkClass}>
        Open the listing sites
      </a>
    </div>
  );
}
