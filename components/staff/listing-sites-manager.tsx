"use client";

import { FormAlert } from "@/components/staff/form-alert";
import { useListingSites } from "@/components/staff/use-listing-sites";
import { describeError } from "@/lib/site/api-client";
import { SiteCard } from "@/components/staff/listing-site-card";
import { SiteHistory } from "@/components/staff/listing-site-history";
import { AddSiteForm } from "@/components/staff/listing-site-add-form";

// Add a listing site (after testing its credentials), change its settings,
// switch sites on and off, upload now, see each site's last uploads, and
// who changed what. The password is typed, never shown again (the API never
// returns it), and typed again whenever the server, port, FTPS or user name
// change: the saved one is only ever sent where it was given for.

export function ListingSitesManager({ platformAdmin = false }: { platformAdmin?: boolean }) {
  const sites = useListingSites();
  return (
    <div className="space-y-6">
      <AddSiteForm platformAdmin={platformAdmin} />
      <section aria-labelledby="listing-sites-list" className="space-y-3">
        <h2 id="listing-sites-list" className="text-lg font-semibold">
          Your sites
        </h2>
        {sites.isPending ? (
          <p className="text-stone-700">Loading…</p>
        ) : sites.error ? (
          <FormAlert>Could not load the listing sites. {describeError(sites.error)}</FormAlert>
        ) : sites.data.length === 0 ? (
          <p className="text-stone-700">No listing site yet: add one above with the FTP account the site gave you.</p>
        ) : (
          <ul className="space-y-3">
            {sites.data.map((site) => (
              <SiteCard key={site.id} site={site} />
            ))}
          </ul>
        )}
      </section>
      <SiteHistory />
    </div>
  );
}
