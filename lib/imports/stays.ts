import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { FileStay, RecordedStay } from "@/lib/imports/history";
import type { IntakeType, OutcomeType } from "@/lib/stays/schemas";

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
    }[]
  >`SELECT id, pet_id, intake_at, intake_type::text AS intake_type, intake_subtype, outcome_at, outcome_type::text AS outcome_type, outcome_subtype
      FROM pet_stays WHERE pet_id = ANY(${ids}::bigint[]) ORDER BY pet_id, intake_at, id`;
  for (const s of stays) {
    found.get(Number(s.pet_id))?.stays.push({
      id: Number(s.id),
      intakeAt: s.intake_at,
      intakeType: s.intake_type,
      intakeSubtype: s.intake_subtype,
      outcomeAt: s.outcome_at,
      outcomeType: s.outcome_type,
      outcomeSubtype: s.outcome_subtype,
    });
  }
  return found;
}

/** Adds stays (their days set by the database's trigger, in the organisation's zone). */
export async function insertStays(client: Client, organizationId: number, stays: { petId: number; stay: FileStay }[]): Promise<void> {
  if (!stays.length) return;
  await client.$executeRaw`
    INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, intake_subtype, outcome_at, outcome_type, outcome_subtype)
    SELECT s.pet_id, ${BigInt(organizationId)}, s.intake_at, s.intake_type::"IntakeType", s.intake_subtype, s.outcome_at, s.outcome_type::"OutcomeType", s.outcome_subtype
      FROM unnest(${stays.map((s) => BigInt(s.petId))}::bigint[], ${stays.map((s) => s.stay.intakeAt)}::timestamptz[], ${stays.map((s) => s.stay.intakeType)}::text[],
                  ${stays.map((s) => s.stay.intakeSubtype)}::text[], ${stays.map((s) => s.stay.outcomeAt)}::timestamptz[], ${stays.map((s) => s.stay.outcomeType)}::text[],
                  ${stays.map((s) => s.stay.outcomeSubtype)}::text[])
           AS s(pet_id, intake_at, intake_type, intake_subtype, outcome_at, outcome_type, outcome_subtype)`;
}

/** Rewrites stays a changed row describes (the same intake, its other facts changed). */
export async function updateStays(client: Client, updates: { id: number; stay: FileStay }[]): Promise<void> {
  for (const { id, stay } of updates) {
    await client.$executeRaw`
      UPDATE pet_stays SET intake_at = ${stay.intakeAt}, intake_type = ${stay.intakeType}::"IntakeType", intake_subtype = ${stay.intakeSubtype},
                           outcome_at = ${stay.outcomeAt}, outcome_type = ${stay.outcomeType}::"OutcomeType", outcome_subtype = ${stay.outcomeSubtype}, updated_at = now()
       WHERE id = ${BigInt(id)}`;
  }
}

/** The stays' constraints (decision 023) refused a write: another writer changed the animal's stays between the plan and the write. */
export function isStayConflict(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? "");
  return /pet_stays_no_overlap|pet_stays_one_open_key|pet_stays_outcome_after_intake/.test(text);
}
