import { GET as listRoute, POST as placeRoute } from "@/app/v1/pets/[petId]/placements/route";
import { POST as endRoute } from "@/app/v1/pets/[petId]/placements/[placementId]/end/route";
import { PATCH as correctRoute } from "@/app/v1/pets/[petId]/placements/[placementId]/route";
import { GET as staysRoute } from "@/app/v1/pets/[petId]/stays/route";
import { db } from "@/lib/db";
import type { Placement } from "@/lib/placements/schemas";
import type { Stay } from "@/lib/stays/schemas";
import { FIRST_ORG, call, expectJson, newKey, staffSession, type CallOptions, type StaffSession } from "./helpers";

// The placements' tests' shared steps: people written as rows (the people API
// is another part of issue 50), and the placements' routes called as a caller.

export interface FosterFields {
  organizationId?: number;
  name?: string;
  status?: "applicant" | "active" | "paused" | "inactive" | "doNotPlace" | null;
  capacity?: number;
  blackouts?: { from: string; to: string }[];
  species?: ("dog" | "cat" | "other")[];
  erased?: boolean;
}

/** A person of the organisation with a foster role (active, room for 2, unless told otherwise). */
export async function newFoster(fields: FosterFields = {}): Promise<number> {
  const status = fields.status === undefined ? "active" : fields.status;
  const row = await db().person.create({
    data: {
      organizationId: BigInt(fields.organizationId ?? FIRST_ORG),
      name: fields.erased ? null : (fields.name ?? `Foster ${Math.random().toString(36).slice(2, 8)}`),
      email: fields.erased ? null : `foster-${Math.random().toString(36).slice(2, 10)}@example.org`,
      phone: fields.erased ? null : "+1 312 555 0100",
      street: fields.erased ? null : "12 Elm Street",
      city: "Chicago",
      country: "US",
      fosterStatus: status,
      fosterCapacity: status === null ? null : (fields.capacity ?? 2),
      fosterBlackouts: fields.blackouts ?? [],
      fosterSpecies: fields.species ?? [],
      erasedAt: fields.erased ? new Date() : null,
    },
    select: { id: true },
  });
  return Number(row.id);
}

const ids = (petId: number, placementId?: number) => ({ petId: String(petId), ...(placementId ? { placementId: String(placementId) } : {}) });

export const place = (petId: number, json: Record<string, unknown>, who: CallOptions) =>
  call(placeRoute, `/v1/pets/${petId}/placements`, { method: "POST", json, params: ids(petId), ...who });
export const endPlacement = (petId: number, placementId: number, json: Record<string, unknown>, who: CallOptions) =>
  call(endRoute, `/v1/pets/${petId}/placements/${placementId}/end`, { method: "POST", json, params: ids(petId, placementId), ...who });
export const correctPlacement = (petId: number, placementId: number, json: Record<string, unknown>, who: CallOptions) =>
  call(correctRoute, `/v1/pets/${petId}/placements/${placementId}`, { method: "PATCH", json, params: ids(petId, placementId), ...who });
export const listPlacements = (petId: number, who: CallOptions, query = "") =>
  call(listRoute, `/v1/pets/${petId}/placements${query}`, { params: ids(petId), ...who });
export const placementsOf = async (petId: number, who: CallOptions) => expectJson<Placement[]>(await listPlacements(petId, who));
export const staysOf = async (petId: number, who: CallOptions) =>
  expectJson<Stay[]>(await call(staysRoute, `/v1/pets/${petId}/stays`, { params: ids(petId), ...who }));

/** The animal's placements as stored, oldest first. */
export const placementRows = (petId: number) => db().petPlacement.findMany({ where: { petId: BigInt(petId) }, orderBy: [{ startAt: "asc" }, { id: "asc" }] });

/** The id of the seeded category of this name (the report's species follow it: Dogs → dog, Cats → cat, the rest → other). */
export const categoryNamed = async (name: string) => Number((await db().category.findFirstOrThrow({ where: { name }, select: { id: true } })).id);

/**
 * The placements' tests' callers: a key that keeps the shelter's records and
 * signed-in staff, with the first organisation in Chicago's zone (a
 * placement's day, its blackouts and expected days are the organisation's days).
 */
export async function recordsCallers(): Promise<{ key: string; staff: StaffSession }> {
  const { key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter records");
  const staff = await staffSession();
  await db().organization.update({ where: { id: BigInt(FIRST_ORG) }, data: { timeZone: "America/Chicago" } });
  return { key, staff };
}
