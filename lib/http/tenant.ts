import type { Caller } from "@/lib/sessions/caller";
import { notFound } from "@/lib/core/errors";
import { organizationOfImport } from "@/lib/imports/queries";
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
//              another organisation before anything is read or changed; a
//              path that names nothing is 404 here, before the body is read
//              (else a caller could hold its request open until another
//              organisation creates that id, then send the body)
//
// The wrapper's check is the first of two: every write that acts on an
// organisation's row also names the caller's organisation in the statement
// that locks or changes it (the services take `caller.tenancy`), so the check
// and the act are one even if a route's declaration were wrong.
//
// tests/api/tenancy-isolation.test.ts reads every route's declaration and
// calls each non-public one with another organisation's key and staff
// session: a route added without a declaration does not compile, and one
// declared wrongly fails that test.

/** Whose the resource named by the path is: an organisation's id, null for the platform's, undefined when there is no such resource (404). */
export type OwnerOf<P> = (params: P) => Promise<bigint | null | undefined>;

export interface OwnerRule<P> {
  owner: OwnerOf<P>;
  /** What the path names, in words: "animal". */
  what: string;
  /** The id the path names, for the 404's message. */
  id: (params: P) => number;
}

export type TenantRule<P> = "public" | "caller" | "platform" | OwnerRule<P>;

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
  if (owner === undefined) throw notFound(rule.what, rule.id(params));
  if (!mayManage(caller.tenancy, owner === null ? null : Number(owner))) throw otherOrganization(rule.what);
}

// The owners of the resources routes name.

export const petOwner: OwnerRule<{ petId: number }> = { owner: ({ petId }) => owners.organizationOfPet(petId), what: "animal", id: ({ petId }) => petId };
export const applicationOwner: OwnerRule<{ applicationId: number }> = {
  owner: ({ applicationId }) => owners.organizationOfApplication(applicationId),
  what: "application",
  id: ({ applicationId }) => applicationId,
};
export const keyOwner: OwnerRule<{ keyId: number }> = { owner: ({ keyId }) => owners.organizationOfKey(keyId), what: "API key", id: ({ keyId }) => keyId };
export const organizationOwner: OwnerRule<{ organizationId: number }> = {
  owner: async ({ organizationId }) => ((await owners.organizationExists(organizationId)) ? BigInt(organizationId) : undefined),
  what: "organisation",
  id: ({ organizationId }) => organizationId,
};
export const listingSiteOwner: OwnerRule<{ siteId: number }> = {
  owner: ({ siteId }) => owners.organizationOfListingSite(siteId),
  what: "listing site",
  id: ({ siteId }) => siteId,
};
export const importOwner: OwnerRule<{ importId: number }> = {
  owner: ({ importId }) => organizationOfImport(importId),
  what: "import",
  id: ({ importId }) => importId,
};
