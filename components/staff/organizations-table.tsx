import { placeLine } from "@/components/shelters/shelter-format";
import { linkClass } from "@/components/staff/styles";
import type { Organization } from "@/lib/organizations/schemas";

/**
 * Every organisation, for platform admins: its name (its public page), where
 * it is, whether searches near a place can find it, its contact, and the
 * way to its profile. A region of its own that scrolls sideways on a phone.
 */
export function OrganizationsTable({ organizations }: { organizations: Organization[] }) {
  return (
    <div
      role="region"
      aria-labelledby="orgs-caption"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
    >
      <table className="min-w-full text-left text-sm">
        <caption id="orgs-caption" className="sr-only">
          Organisations
        </caption>
        <thead className="bg-stone-100 text-stone-800">
          <tr>
            {["Name", "Place", "On the map", "Contact", "Profile"].map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200">
          {organizations.map((org) => (
            <tr key={org.id}>
              <th scope="row" className="max-w-56 px-3 py-2 font-semibold wrap-anywhere text-stone-900">
                <a href={`/shelters/${org.slug}`} className={linkClass}>
                  {org.name}
                </a>
                <span className="block font-mono text-xs font-normal text-stone-600">
                  #{org.id} · {org.slug}
                </span>
              </th>
              <td className="px-3 py-2">{org.address ? placeLine(org.address) : <span className="text-stone-600">No address yet</span>}</td>
              <td className="whitespace-nowrap px-3 py-2">{org.location ? "Yes" : <span className="font-semibold text-amber-800">Not yet</span>}</td>
              <td className="max-w-64 px-3 py-2 wrap-anywhere">
                {[org.email, org.phone].filter(Boolean).join(" · ") || <span className="text-stone-600">None given</span>}
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                <a href={`/staff/organization?id=${org.id}`} className={linkClass}>
                  Edit<span className="sr-only"> {org.name}&rsquo;s profile</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
