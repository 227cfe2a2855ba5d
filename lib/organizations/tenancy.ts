import { ApiError } from "@/lib/core/errors";

// Whose private data a caller may see and change. The unit of tenancy is the
// organisation (a shelter or a rescue): its animals' changes, its staff, keys,
// applications, webhooks and events. Animals themselves are public: anyone
// with pets:read reads every organisation's.
//
//   organization  an organisation's API key or staff account: its own only
//   platform      a platform key (listing sites, operators) or a platform
//                 admin: everything; writes name the organisation they are for
//   public        an adopter's browser, or nobody: no private data at all
//
// The checks live in one place, the handler wrapper (lib/http/handler.ts),
// driven by what each route declares (its `tenant` option): routes cannot
// forget them, and tests/api/tenancy-isolation.test.ts holds every route to it.

export type Tenancy = { kind: "organization"; organizationId: number } | { kind: "platform" } | { kind: "public" };

export const PUBLIC: Tenancy = { kind: "public" };
export const PLATFORM: Tenancy = { kind: "platform" };

export function organizationTenancy(organizationId: number | bigint | null): Tenancy {
  return organizationId === null ? PLATFORM : { kind: "organization", organizationId: Number(organizationId) };
}

/**
 * The organisation whose private data a listing is limited to: its id, or
 * undefined for all of them (a platform caller). A public caller never gets
 * this far: the routes that list private data need a scope it lacks.
 */
export function organizationScope(tenancy: Tenancy): number | undefined {
  if (tenancy.kind === "organization") return tenancy.organizationId;
  if (tenancy.kind === "platform") return undefined;
  throw forbidden("This needs an organisation's key or staff account.");
}

/** Whether the caller may act on something that belongs to `owner` (null: to the platform, such as a platform key). */
export function mayManage(tenancy: Tenancy, owner: number | null): boolean {
  if (tenancy.kind === "platform") return true;
  return tenancy.kind === "organization" && owner !== null && tenancy.organizationId === owner;
}

export function forbidden(message: string): ApiError {
  return new ApiError(403, "forbidden", message);
}

export function otherOrganization(what: string): ApiError {
  return forbidden(`This ${what} belongs to another organisation: your key or account can see and change only your own organisation's.`);
}

/**
 * The organisation a new animal (or key) goes to. An organisation's callers
 * create in their own (naming it is optional; naming another is 403); a
 * platform caller must name one, since it belongs to none.
 */
export function organizationForCreate(tenancy: Tenancy, requested: number | undefined, what = "animal"): number {
  if (tenancy.kind === "organization") {
    if (requested !== undefined && requested !== tenancy.organizationId) {
      throw forbidden(`Your key or account belongs to organisation ${tenancy.organizationId}: it cannot add a ${what} to organisation ${requested}.`);
    }
    return tenancy.organizationId;
  }
  if (tenancy.kind === "platform") {
    if (requested === undefined) {
      throw new ApiError(400, "invalid_body", `A platform key or account belongs to no organisation: name the one the ${what} is for in organizationId.`, [
        { field: "organizationId", issue: "is required for a platform key or account" },
      ]);
    }
    return requested;
  }
  throw forbidden(`Only an organisation's key or staff can add a ${what}.`);
}

export function unknownOrganization(id: number): ApiError {
  return new ApiError(400, "unknown_organization", `There is no organisation with id ${id}. GET /v1/organizations lists them.`, [
    { field: "organizationId", issue: "does not name an existing organisation" },
  ]);
}
