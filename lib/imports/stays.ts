import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { FilePlacement, FileStay, RecordedStay } from "@/lib/imports/history";
import type { IntakeDetail, IntakeType, OutcomeDetail, OutcomeType } from "@/lib/stays/schemas";

// The import's own writes of stays (issue 42): an imported history is
// written as the file says it, a chunk of new animals a statement, inside the
// transaction that creates them; an existing animal's in the transaction of
// its change, under its lock (lib/pets/service.ts changeWithStays). The database's constraints
// (decision 023) still hold every row: overlaps, a second open stay, an
// outcome before its intake. lib/stays owns the rules of stays recorded one
// at a time (their audit records and events); a history brought in is not
// news, so it writes no pet.stay.* events (the animal's own created or
// updated record and event say an import changed it).

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

/** The animals' recorded stays (oldest first) and whether each is in care, by animal id (`client`: a transaction that holds their locks). */
export async function findStaysOf(petIds: number[], client: Client = db()): Promise<Map<number, { inCare: boolean; stays: RecordedStay[] }>> {
  const found = new Map<number, { inCare: boolean; stays: RecordedStay[] }>();
  if (!petIds.length) return found;
  const ids = petIds.map(BigInt);
  const pets = await client.$queryRaw<{ id: bigint; in_care: boolean }[]>`SELECT id, in_care FROM pets WHERE id = ANY(${ids}::bigint[])`;
  for (const p of pets) found.set(Number(p.id), { inCare: p.in_care, stays: [] });
  const stays = await client.$queryRaw<
    {
      id: bigint;
      pet_id: bigint;
      intake_at: Date;
      intake_type: IntakeType;
      intake_subtype: string | null;
      outcome_at: Date | null;
      outcome_type: OutcomeType | null;
      outcome_subtype: string | null;
      intake_detail: IntakeDetail | null;
      outcome_detail: OutcomeDetail | null;
    }[]
  >`SELECT id, pet_id, intake_at, intake_type::text AS intake_type, intake_subtype, outcome_at, outcome_type::text AS outcome_type, outcome_subtype,
           intake_detail, outcome_detail
      FROM pet_stays WHERE pet_id = ANY(${ids}::bigint[]) ORDER BY pet_id, intake_at, id`;
  // Their placements (issue 50): where each animal was inside its stays, so a file that says so again changes nothing.
  const placements = await client.$queryRaw<
    { id: bigint; stay_id: bigint; person_id: bigint | null; start_at: Date; end_at: Date | null; end_reason: FilePlacement["endReason"] }[]
  >`SELECT id, stay_id, person_id, start_at, end_at, end_reason::text AS end_reason FROM pet_placements WHERE pet_id = ANY(${ids}::bigint[]) ORDER BY start_at, id`;
  const placementsOf = new Map<number, FilePlacement[]>();
  for (const p of placements) {
    const list = placementsOf.get(Number(p.stay_id)) ?? [];
    list.push({ id: Number(p.id), personId: p.person_id === null ? null : Number(p.person_id), startAt: p.start_at, endAt: p.end_at, endReason: p.end_reason });
    placementsOf.set(Number(p.stay_id), list);
  }
  for (const s of stays) {
    found.get(Number(s.pet_id))?.stays.push({
      id: Number(s.id),
      intakeAt: s.intake_at,
      intakeType: s.intake_type,
      intakeSubtype: s.intake_subtype,
      outcomeAt: s.outcome_at,
      outcomeType: s.outcome_type,
      outcomeSubtype: s.outcome_subtype,
      intakeDetail: s.intake_detail,
      outcomeDetail: s.outcome_detail,
      ...(placementsOf.has(Number(s.id)) ? { placements: placementsOf.get(Number(s.id)) } : {}),
    });
  }
  return found;
}

/** Adds stays (their days set by the database's trigger, in the organisation's zone). */
export async function insertStays(client: Client, organizationId: number, stays: { petId: number; stay: FileStay }[]): Promise<void> {
  if (!stays.length) return;
  await client.$executeRaw`
    INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, intake_subtype, outcome_at, outcome_type, outcome_subtype, intake_detail, outcome_detail)
    SELECT s.pet_id, ${BigInt(organizationId)}, s.intake_at, s.intake_type::"IntakeType", s.intake_subtype, s.outcome_at, s.outcome_type::"OutcomeType", s.outcome_subtype,
           s.intake_detail, s.outcome_detail
      FROM unnest(${stays.map((s) => BigInt(s.petId))}::bigint[], ${stays.map((s) => s.stay.intakeAt)}::timestamptz[], ${stays.map((s) => s.stay.intakeType)}::text[],
                  ${stays.map((s) => s.stay.intakeSubtype)}::text[], ${stays.map((s) => s.stay.outcomeAt)}::timestamptz[], ${stays.map((s) => s.stay.outcomeType)}::text[],
                  ${stays.map((s) => s.stay.outcomeSubtype)}::text[], ${stays.map((s) => s.stay.intakeDetail ?? null)}::text[],
                  ${stays.map((s) => s.stay.outcomeDetail ?? null)}::text[])
           AS s(pet_id, intake_at, intake_type, intake_subtype, outcome_at, outcome_type, outcome_subtype, intake_detail, outcome_detail)`;
  await insertPlacements(
    client,
    organizationId,
    stays.flatMap(({ petId, stay }) => (stay.placements ?? []).map((placement) => ({ petId, intakeAt: stay.intakeAt, outcomeAt: stay.outcomeAt, placement }))),
  );
}

/**
 * Adds placements to the stays just written, each found by its animal and intake (and, for
 * stays of no length at one instant, the one that can hold it). An unnamed foster (person_id
 * null): a file names nobody. Their days are set by the database's trigger.
 */
async function insertPlacements(
  client: Client,
  organizationId: number,
  rows: { petId: number; intakeAt: Date; outcomeAt: Date | null; placement: FilePlacement }[],
): Promise<void> {
  if (!rows.length) return;
  await client.$executeRaw`
    INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at, end_at, end_reason)
    SELECT u.pet_id, ${BigInt(organizationId)}, s.id, u.person_id, u.start_at, u.end_at, u.end_reason::"PlacementEndReason"
      FROM unnest(${rows.map((r) => BigInt(r.petId))}::bigint[], ${rows.map((r) => r.intakeAt)}::timestamptz[], ${rows.map((r) => r.outcomeAt)}::timestamptz[],
                  ${rows.map((r) => (r.placement.personId == null ? null : BigInt(r.placement.personId)))}::bigint[],
                  ${rows.map((r) => r.placement.startAt)}::timestamptz[], ${rows.map((r) => r.placement.endAt)}::timestamptz[], ${rows.map((r) => r.placement.endReason)}::text[])
           AS u(pet_id, intake_at, outcome_at, person_id, start_at, end_at, end_reason)
      JOIN LATERAL (SELECT id FROM pet_stays s WHERE s.pet_id = u.pet_id AND s.intake_at = u.intake_at AND s.outcome_at IS NOT DISTINCT FROM u.outcome_at ORDER BY id LIMIT 1) s ON true`;
}

/**
 * Rewrites stays a changed row describes (the same intake, its other facts changed), and their
 * placements as planned: a recorded one kept is updated in place (its id, and its foster when
 * named, stay), one no longer planned is removed, a new one added. In the animal's locked
 * change (changeWithStays), so its version, audit record and event happen once.
 */
export async function updateStays(client: Client, updates: { id: number; stay: FileStay }[], organizationId: number, petId: number): Promise<void> {
  for (const { id, stay } of updates) {
    const planned = stay.placements ?? [];
    const kept = planned.flatMap((p) => (p.id === undefined ? [] : [BigInt(p.id)]));
    // First out of the way (the one-open index and the no-overlap constraint are checked row by row), then the stay, then the rest.
    await client.$executeRaw`DELETE FROM pet_placements WHERE stay_id = ${BigInt(id)} AND NOT (id = ANY(${kept}::bigint[]))`;
    for (const p of planned) {
      if (p.id === undefined) continue;
      await client.$executeRaw`
        UPDATE pet_placements SET start_at = ${p.startAt}, end_at = ${p.endAt}, end_reason = ${p.endReason}::"PlacementEndReason", updated_at = now()
         WHERE id = ${BigInt(p.id)} AND (start_at, end_at, end_reason) IS DISTINCT FROM (${p.startAt}::timestamptz, ${p.endAt}::timestamptz, ${p.endReason}::"PlacementEndReason")`;
    }
    await client.$executeRaw`
      UPDATE pet_stays SET intake_at = ${stay.intakeAt}, intake_type = ${stay.intakeType}::"IntakeType", intake_subtype = ${stay.intakeSubtype},
                           outcome_at = ${stay.outcomeAt}, outcome_type = ${stay.outcomeType}::"OutcomeType", outcome_subtype = ${stay.outcomeSubtype},
                           intake_detail = ${stay.intakeDetail ?? null}, outcome_detail = ${stay.outcomeDetail ?? null}, updated_at = now()
       WHERE id = ${BigInt(id)}`;
    await insertPlacements(
      client,
      organizationId,
      planned.filter((p) => p.id === undefined).map((placement) => ({ petId, intakeAt: stay.intakeAt, outcomeAt: stay.outcomeAt, placement })),
    );
  }
}

/** The stays' constraints (decision 023) refused a write: another writer changed the animal's stays between the plan and the write. */
export function isStayConflict(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? "");
  return /pet_stays_no_overlap|pet_stays_one_open_key|pet_stays_outcome_after_intake|pet_placements_no_overlap|pet_placements_one_open|pet_placements_inside_stay|pet_stays_intake_detail_check|pet_stays_outcome_detail_check/.test(
    text,
  );
}
