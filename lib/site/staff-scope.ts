import { GET as getOrganization } from "@/app/v1/organizations/[organizationId]/route";
import type { Organization } from "@/lib/organizations/schemas";
import { callApi } from "@/lib/site/call-api";
import type { SessionInfo } from "@/lib/staff/schemas";

/** Whose data a signed-in staff member sees: their organisation, or every one (a platform admin). */
export type StaffScope = { kind: "organization"; id: number; name: string | undefined } | { kind: "platform" };

type HeaderSource = Parameters<typeof callApi>[0];

/**
 * For the header: a staff session's scope, with its organisation's name read
 * from the same /v1 handler the profile page uses (a name changed there shows
 * on the next page). false for adopters; the name is undefined when the API
 * said no (the header then says "Your shelter").
 */
export async function staffScopeOf(incoming: HeaderSource, session: SessionInfo | null): Promise<StaffScope | false> {
  if (session?.kind !== "staff") return false;
  if (session.platformAdmin || session.organizationId === null) return { kind: "platform" };
  const id = session.organizationId;
  const res = await callApi<Organization>(incoming, getOrganization, `/v1/organizations/${id}`, { organizationId: String(id) }).catch(() => null);
  return { kind: "organization", id, name: res?.status === 200 ? res.body.name : undefined };
}
