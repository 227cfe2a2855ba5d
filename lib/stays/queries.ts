import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { IntakeType, OutcomeType } from "@/lib/stays/schemas";

// Data access for stays: Prisma and SQL only, no rules (lib/pets/stays.ts
// and rules.ts). The database keeps the stays' shape (migration
// 20261203000000): no overlap, one open stay, an outcome whole and not
// before its intake; intake_on/outcome_on are set by its trigger.

export type Db = Prisma.TransactionClient;

export interface StayRow {
  id: bigint;
  petId: bigint;
  organizationId: bigint;
  intakeAt: Date;
  intakeType: IntakeType;
  intakeSubtype: string | null;
  outcomeAt: Date | null;
  outcomeType: OutcomeType | null;
  outcomeSubtype: string | null;
}

const STAY_SELECT = {
  id: true,
  petId: true,
  organizationId: true,
  intakeAt: true,
  intakeType: true,
  intakeSubtype: true,
  outcomeAt: true,
  outcomeType: true,
  outcomeSubtype: true,
} as const;

/** An animal's stays, oldest first. */
export async function findStays(petId: number, client: Db = db()): Promise<StayRow[]> {
  return client.petStay.findMany({ where: { petId: BigInt(petId) }, orderBy: [{ intakeAt: "asc" }, { id: "asc" }], select: STAY_SELECT });
}

export async function findStay(tx: Db, petId: number, stayId: number): Promise<StayRow | null> {
  return tx.petStay.findFirst({ where: { id: BigInt(stayId), petId: BigInt(petId) }, select: STAY_SELECT });
}

/** The open stay, if any (at most one: the partial unique index). */
export async function findOpenStay(tx: Db, petId: number): Promise<StayRow | null> {
  return tx.petStay.findFirst({ where: { petId: BigInt(petId), outcomeAt: null }, select: STAY_SELECT });
}

/** The latest stay (by intake): the one whose outcome decides the animal's status and whether it is in care. */
export async function findLastStay(tx: Db, petId: number): Promise<StayRow | null> {
  return tx.petStay.findFirst({ where: { petId: BigInt(petId) }, orderBy: [{ intakeAt: "desc" }, { id: "desc" }], select: STAY_SELECT });
}

/** Another stay of the animal whose [intake, outcome) meets this range: what the exclusion constraint would refuse. */
export async function findOverlapping(tx: Db, petId: number, from: Date, to: Date | null, except?: bigint): Promise<StayRow | null> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM pet_stays
     WHERE pet_id = ${BigInt(petId)} AND (${except ?? null}::bigint IS NULL OR id <> ${except ?? null}::bigint)
       AND tstzrange(intake_at, outcome_at, '[)') && tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)')
     ORDER BY intake_at LIMIT 1`;
  return rows[0] ? tx.petStay.findUnique({ where: { id: rows[0].id }, select: STAY_SELECT }) : null;
}

export async function insertStay(
  tx: Db,
  stay: { petId: number; organizationId: number; intakeAt: Date; intakeType: IntakeType; intakeSubtype: string | null },
): Promise<StayRow> {
  return tx.petStay.create({
    data: { petId: BigInt(stay.petId), organizationId: BigInt(stay.organizationId), intakeAt: stay.intakeAt, intakeType: stay.intakeType, intakeSubtype: stay.intakeSubtype },
    select: STAY_SELECT,
  });
}

export type StayColumns = Partial<Pick<StayRow, "intakeAt" | "intakeType" | "intakeSubtype" | "outcomeAt" | "outcomeType" | "outcomeSubtype">>;

export async function updateStay(tx: Db, id: bigint, columns: StayColumns): Promise<StayRow> {
  return tx.petStay.update({ where: { id }, data: { ...columns, updatedAt: new Date() }, select: STAY_SELECT });
}

/** Midnight of `day` in the organisation's time zone, and now there (the day's "future" check needs the zone). */
export async function midnightIn(organizationId: number, day: string, client: Db = db()): Promise<{ at: Date; today: string } | null> {
  const rows = await client.$queryRaw<{ at: Date; today: string }[]>`
    SELECT (${day}::date::timestamp AT TIME ZONE time_zone) AS at, to_char(now() AT TIME ZONE time_zone, 'YYYY-MM-DD') AS today
      FROM organizations WHERE id = ${BigInt(organizationId)}`;
  return rows[0] ?? null;
}

/** The animal's in-care flag and status, as a stay's outcome leaves them (the pets row is locked by the caller). */
export async function setInCare(tx: Db, petId: number, inCare: boolean): Promise<void> {
  await tx.$executeRaw`UPDATE pets SET in_care = ${inCare} WHERE id = ${BigInt(petId)} AND in_care IS DISTINCT FROM ${inCare}`;
}

export async function inCareOf(tx: Db, petId: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ in_care: boolean }[]>`SELECT in_care FROM pets WHERE id = ${BigInt(petId)}`;
  return rows[0]?.in_care ?? true;
}

/** Which constraint of pet_stays a database error is, if any. */
export function stayConstraintOf(error: unknown): "overlap" | "one_open" | "order" | null {
  const text = `${(error as { message?: string })?.message ?? ""} ${JSON.stringify((error as { meta?: unknown })?.meta ?? {})} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  if (text.includes("pet_stays_no_overlap")) return "overlap";
  if (text.includes("pet_stays_one_open_key")) return "one_open";
  if (text.includes("pet_stays_outcome_after_intake")) return "order";
  return null;
}
