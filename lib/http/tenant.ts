import type { Caller } from "@/lib/http/auth";
import * as owners from "@/lib/organizations/queries";
import { forbidden, mayManage, otherOrganization } from "@/lib/organizations/tenancy";

// Tenancy, enforced in one place. Every /v1 route declares what it touches
// (its `tenant` option of withApi), and the wrapper applies it before the
// handler runs:
//
//   "public"   data anyone with the scope may have whatever organisation it
//              belongs to: animals, categories, organisations' profiles, an
//              application sent for any shelter's animal, a private link's
//              own application (the token is the credential)
//   "caller"   the handler works on the caller's own data only, limited by
//              `caller.tenancy` (lists of private data: the inbox, the
//              dashboard, keys, the change feed) or owned by the key itself
//              (its webhook endpoints)
//   "platform" only platform callers (adding an organisation)
//   { owner }  one resource of one organisation, named in the path: the
//              wrapper looks up whose it is and refuses (403) a caller of
//              another organisation before anything is read or changed
//
// tests/api/tenancy-isolation.test.ts reads every route's declaration and
// calls each non-public one with another organisation's key and staff
// session: a route added without a declaration does not compile, and one
// declared wrongly fails that test.

/** Whose the resource named by the path is: an organisation's id, null for the platform's, undefined when there is no such resource (the handler's 404). */
export type OwnerOf<P> = (params: P) => Promise<bigint | null | undefined>;

export type TenantRule<P> = "public" | "caller" | "platform" | { owner: OwnerOf<P>; what: string };

/** The kind of a rule, as routes expose it for the isolation test. */
export type TenantKind = "public" | "caller" | "platform" | "owner";

export function tenantKind(rule: TenantRule<unknown>): TenantKind {
  return typeof rule === "string" ? rule : "owner";
}

export async function enforceTenant<P>(rule: TenantRule<P>, caller: Caller, params: P): Promise<void> {
  if (rule === "public" || rule === "caller") return;
  if (rule === "platform") {
    if (caller.tenancy.kind !== "platform") throw forbidden("Only platform keys and platform admins can do this.");
    return;
  }
  const owner = await rule.owner(params);
  if (owner === undefined) return;
  if (!mayManage(caller.tenancy, owner === null ? null : Number(owner))) throw otherOrganization(rule.what);
}

// The owners of the resources routes name.

export const petOwner = { owner: ({ petId }: { petId: number }) => owners.organizationOfPet(petId), what: "animal" };
export const applicationOwner = { owner: ({ applicationId }: { applicationId: number }) => owners.organizationOfApplication(applicationId), what: "application" };
export const keyOwner = { owner: ({ keyId }: { keyId: number }) => owners.organizationOfKey(keyId), what: "API key" };
export const organizationOwner = {
  owner: async ({ organizationId }: { organizationId: number }) => ((await owners.organizationExists(organizationId)) ? BigInt(organizationId) : undefined),
  what: "organisation",
};
