import { db } from "@/lib/db";
import { lookUpZip } from "@/lib/organizations/zip";

// Fosters and placements written as rows, for the tests of what readers see
// of an animal in a foster home: the placements' own write path (the
// animal's changePet) is tested where it lives. The rows keep the database's
// rules (a placement inside an open stay of its animal, at most one open).

export interface FosterSeed {
  name?: string;
  email?: string;
  phone?: string;
  street?: string;
  city?: string | null;
  region?: string | null;
  /** A US ZIP code places the home at its centre, as the people's write path does. */
  postcode?: string | null;
}

/** A foster of `organizationId` (active, room for 5), at its ZIP code's centre when it has one. */
export async function newFoster(organizationId: number, seed: FosterSeed = {}): Promise<number> {
  const place = seed.postcode ? await lookUpZip(seed.postcode) : null;
  const row = await db().person.create({
    data: {
      organizationId: BigInt(organizationId),
      name: seed.name ?? "A foster",
      email: seed.email ?? `foster-${Math.random().toString(36).slice(2, 10)}@example.org`,
      phone: seed.phone ?? null,
      street: seed.street ?? null,
      city: seed.city === undefined ? (place?.city ?? null) : seed.city,
      region: seed.region === undefined ? (place?.region ?? null) : seed.region,
      postcode: seed.postcode ?? null,
      country: "US",
      lat: place?.lat ?? null,
      lng: place?.lng ?? null,
      fosterStatus: "active",
      fosterCapacity: 5,
    },
    select: { id: true },
  });
  return Number(row.id);
}

/** Places animal `petId` with `personId` from now, inside its open stay (one opened a minute ago when it has none). */
export async function placeInFoster(petId: number, personId: number | null): Promise<void> {
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type)
      SELECT id, organization_id, now() - interval '1 minute', 'stray' FROM pets
       WHERE id = ${BigInt(petId)} AND NOT EXISTS (SELECT 1 FROM pet_stays WHERE pet_id = ${BigInt(petId)} AND outcome_at IS NULL)`;
    await tx.$executeRaw`
      INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at)
      SELECT s.pet_id, s.organization_id, s.id, ${personId === null ? null : BigInt(personId)}::bigint, now()
        FROM pet_stays s WHERE s.pet_id = ${BigInt(petId)} AND s.outcome_at IS NULL`;
  });
}

/** Ends animal `petId`'s open placement now: back at the shelter. */
export async function endPlacement(petId: number): Promise<void> {
  await db().$executeRaw`
    UPDATE pet_placements SET end_at = GREATEST(now(), start_at), end_reason = 'returnedToShelter'
     WHERE pet_id = ${BigInt(petId)} AND end_at IS NULL`;
}
