import { isOrganizationField, type OrganizationField } from "@/components/staff/organization-fields";
import type { ErrorDetail } from "@/lib/core/errors";

/**
 * The API's refusals of an organisation's fields, as the forms show them on
 * their controls. The API words a missing place for developers ("is required
 * unless address.country is US..."); staff get what to do instead.
 */
export function organizationFieldErrors(details: ErrorDetail[]): { field: OrganizationField; message: string }[] {
  return details.filter((d) => isOrganizationField(d.field)).map((d) => ({ field: d.field as OrganizationField, message: reworded(d) }));
}

function reworded({ field, issue }: ErrorDetail): string {
  if (field === "location" && /required/.test(issue))
    return "Without a US ZIP code in the address, choose “An exact position” and give its latitude and longitude.";
  if (field === "address.postcode" && /names no US ZIP code/.test(issue)) return "is not a US ZIP code we know: check it, or choose “An exact position”";
  return issue;
}
