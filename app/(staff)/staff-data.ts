import "server-only";
import { GET as getCategories } from "@/app/v1/categories/route";
import { GET as getOrganization } from "@/app/v1/organizations/[organizationId]/route";
import { GET as listOrganizations } from "@/app/v1/organizations/route";
import { GET as getSession } from "@/app/v1/session/route";
import type { Organization } from "@/lib/organizations/schemas";
import type { Category } from "@/lib/pets/schemas/pet";
import { serverApi } from "@/lib/site/server-api";
import type { SessionInfo } from "@/lib/staff/schemas";

// What the staff pages know while rendering on the server, asked of the same
// /v1 handlers the browser uses. null when the API said no (rate limit,
// database down): the page then asks again from the browser.

export async function currentSession(): Promise<SessionInfo | null> {
  const res = await serverApi<SessionInfo>(getSession, "/v1/session");
  return res.status === 200 ? res.body : null;
}

export async function categoriesForStaff(): Promise<Category[] | null> {
  const res = await serverApi<Category[]>(getCategories, "/v1/categories");
  return res.status === 200 ? res.body : null;
}

/** One organisation's profile; null when there is none (404) or the API said no. */
export async function organizationForStaff(id: number): Promise<{ status: number; organization: Organization | null }> {
  const res = await serverApi<Organization>(getOrganization, `/v1/organizations/${id}`, { organizationId: String(id) });
  return { status: res.status, organization: res.status === 200 ? res.body : null };
}

/**
 * Whether an organisation sits at its US ZIP code's centre (or has no
 * position yet): the profile form then starts on "placed from the ZIP
 * code" rather than on an exact position. Asked of the API's own near
 * search, which knows the ZIP codes: is it within 100 m of its ZIP code?
 */
export async function placedAtZip(organization: Organization): Promise<boolean> {
  if (!organization.location) return true;
  const zip = organization.address?.country === "US" ? /^([0-9]{5})(?:-[0-9]{4})?$/.exec(organization.address.postcode ?? "")?.[1] : undefined;
  if (!zip) return false;
  const res = await serverApi<Organization[]>(listOrganizations, `/v1/organizations?id=${organization.id}&near=${zip}&within=0.1km`);
  return res.status === 200 && res.body.length === 1;
}

/** A page's search parameter as one non-empty string (a repeated or empty one: none). */
export const oneParam = (v: string | string[] | undefined): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
