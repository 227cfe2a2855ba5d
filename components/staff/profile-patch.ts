import type { LocationMode } from "@/components/staff/location-fields";
import type { Organization, OrganizationPatch } from "@/lib/organizations/schemas";

const CONTACT = ["name", "email", "phone", "website"] as const;
const ADDRESS = ["street", "city", "region", "postcode", "country"] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed since the form was filled, as a merge patch: only the fields
 * that differ (the address field by field), so a change someone made
 * meanwhile to another field is kept. "Placed from the ZIP code" after an
 * exact position (or with none yet) sends `location: null`, which asks the
 * API to place the shelter at its ZIP code's centre again.
 */
export function profilePatch(values: OrganizationPatch, base: { organization: Organization; mode: LocationMode }, mode: LocationMode): OrganizationPatch {
  const { organization } = base;
  const patch: OrganizationPatch = {};
  for (const field of CONTACT) if (values[field] !== undefined && values[field] !== organization[field]) Object.assign(patch, { [field]: values[field] });
  const address: NonNullable<OrganizationPatch["address"]> = {};
  for (const field of ADDRESS) {
    const value = values.address?.[field];
    if (value !== undefined && value !== (organization.address?.[field] ?? null)) Object.assign(address, { [field]: value });
  }
  if (Object.keys(address).length > 0) patch.address = address;
  if (values.timeZone !== undefined && values.timeZone !== organization.timeZone) patch.timeZone = values.timeZone;
  if (mode === "exact") {
    if (values.location && !same(values.location, organization.location)) patch.location = values.location;
  } else if (base.mode === "exact" || organization.location === null) {
    patch.location = null;
  }
  return patch;
}
