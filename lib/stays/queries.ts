import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { IntakeDetail, IntakeType, OutcomeDetail, OutcomeType } from "@/lib/stays/schemas";

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
  intakeDetail: IntakeDetail | null;
  outcomeDetail: OutcomeDetail | null;
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
  intakeDetail: true,
  outcomeDetail: true,
} as const;

/**
 * Where a stay stands among its animal's stays, oldest first: by intake, a
 * stay of no length (in and out at one instant) before one that begins at
 * that instant, then by id. The exclusion constraints (migration
 * 20261204120000) let no stay lie inside a lasting one, and only stays of no
 * length share an instant, so this is the order of the animal's time line,
 * and the latest in it is the one that speaks for the animal (lastStayJoin
 * orders the same way).
 */
export interface StayPosition {
  intakeAt: Date;
  /** False for a stay of no length (outcome at its intake). */
  lasts: boolean;
  id: bigint;
}

export const positionOf = (row: Pick<StayRow, "intakeAt" | "outcomeAt" | "id">): StayPosition => ({
  intakeAt: row.intakeAt,
  lasts: row.outcomeAt === null || row.outcomeAt.getTime() !== row.intakeAt.getTime(),
  id: row.id,
});

/** Whether stay `a` comes after stay `b` in that order. */
export function isAfter(a: StayPosition, b: StayPosition): boolean {
  if (a.intakeAt.getTime() !== b.intakeAt.getTime()) return a.intakeAt > b.intakeAt;
  if (a.lasts !== b.lasts) return a.lasts;
  return a.id > b.id;
}

const LASTS = Prisma.sql`(s.outcome_at IS DISTINCT FROM s.intake_at)`;
const ORDER_UP = Prisma.sql`s.intake_at, ${LASTS}, s.id`;
const ORDER_DOWN = Prisma.sql`s.intake_at DESC, ${LASTS} DESC, s.id DESC`;
const keyOf = (p: StayPosition) => Prisma.sql`(${p.intakeAt}::timestamptz, ${p.lasts}::boolean, ${p.id}::bigint)`;

/**
 * A page of an animal's stays in their order: `take` stays after `after` (or
 * before `before`, nearest first), and whether any stay lies on the other
 * side of the cursor (the cursor's own position included), asked at once.
 */
export async function findStayPage(
  petId: number,
  page: { after?: StayPosition; before?: StayPosition; take: number },
  client: Db = db(),
): Promise<{ rows: StayRow[]; otherSide: boolean }> {
  const pet = BigInt(petId);
  const at = page.before ?? page.after;
  const condition = page.before
    ? Prisma.sql`AND (${ORDER_UP}) < ${keyOf(page.before)}`
    : page.after
      ? Prisma.sql`AND (${ORDER_UP}) > ${keyOf(page.after)}`
      : Prisma.empty;
  const behind = at && Prisma.sql`(${ORDER_UP}) ${Prisma.raw(page.before ? ">=" : "<=")} ${keyOf(at)}`;
  const [rows, other] = await Promise.all([
    client.$queryRaw<StayColumnsRaw[]>`SELECT ${stayColumnsOf("s")} FROM pet_stays s WHERE s.pet_id = ${pet} ${condition}
       ORDER BY ${page.before ? ORDER_DOWN : ORDER_UP} LIMIT ${page.take}`,
    behind
      ? client.$queryRaw<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pet_stays s WHERE s.pet_id = ${pet} AND ${behind}) AS found`
      : Promise.resolve([{ found: false }]),
  ]);
  return { rows: rows.map((row) => stayOfRow(row)!), otherSide: other[0]?.found ?? false };
}

/** The animal's latest stay but `except` (StayPosition's order): the one that speaks for it when `except` moves back. */
export async function findLatestStayBut(tx: Db, petId: number, except: bigint): Promise<StayRow | null> {
  const rows = await tx.$queryRaw<StayColumnsRaw[]>`SELECT ${stayColumnsOf("s")} FROM pet_stays s WHERE s.pet_id = ${BigInt(petId)} AND s.id <> ${except}
    ORDER BY ${ORDER_DOWN} LIMIT 1`;
  return rows[0] ? stayOfRow(rows[0]) : null;
}

export async function findStay(tx: Db, petId: number, stayId: number): Promise<StayRow | null> {
  // The details are the database's CHECKed words (migration 20261211300100).
  return (await tx.petStay.findFirst({ where: { id: BigInt(stayId), petId: BigInt(petId) }, select: STAY_SELECT })) as StayRow | null;
}

/** Another stay of the animal this span meets (pet_stay_span: the instant of a stay of no length, else its open interval; two of no length never meet): what the exclusion constraints would refuse. */
export async function findOverlapping(tx: Db, petId: number, from: Date, to: Date | null, except?: bigint): Promise<StayRow | null> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM pet_stays
     WHERE pet_id = ${BigInt(petId)} AND (${except ?? null}::bigint IS NULL OR id <> ${except ?? null}::bigint)
       AND pet_stay_span(intake_at, outcome_at) && pet_stay_span(${from}::timestamptz, ${to}::timestamptz)
       AND pet_stay_lasts(intake_at, outcome_at) + pet_stay_lasts(${from}::timestamptz, ${to}::timestamptz) > 0
     ORDER BY intake_at LIMIT 1`;
  return rows[0] ? ((await tx.petStay.findUnique({ where: { id: rows[0].id }, select: STAY_SELECT })) as StayRow | null) : null;
}

export type StayColumns = Partial<
  Pick<StayRow, "intakeAt" | "intakeType" | "intakeSubtype" | "intakeDetail" | "outcomeAt" | "outcomeType" | "outcomeSubtype" | "outcomeDetail">
>;

/**
 * A write of one stay made in the same statement as its animal's own update
 * (lib/pets/queries/writes.ts updatePetIfVersion), so recording an outcome or
 * an intake costs the animal's change no round trip of its own: a new stay
 * (its intake), or a change of one of the animal's stays (an outcome, a
 * correction, an adoption taken back).
 */
export type StayWrite =
  | { kind: "open"; intakeAt: Date; intakeType: IntakeType; intakeSubtype: string | null; intakeDetail: IntakeDetail | null }
  | { kind: "change"; id: bigint; columns: StayColumns };

/** A stay's columns under `alias`, named "stay.<field>" (stayOfRow reads them back). */
export function stayColumnsOf(alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.id AS "stay.id", ${a}.pet_id AS "stay.petId", ${a}.organization_id AS "stay.organizationId",
    ${a}.intake_at AS "stay.intakeAt", ${a}.intake_type::text AS "stay.intakeType", ${a}.intake_subtype AS "stay.intakeSubtype",
    ${a}.outcome_at AS "stay.outcomeAt", ${a}.outcome_type::text AS "stay.outcomeType", ${a}.outcome_subtype AS "stay.outcomeSubtype",
    ${a}.intake_detail AS "stay.intakeDetail", ${a}.outcome_detail AS "stay.outcomeDetail"`;
}

/** What stayColumnsOf selected, as a row's "stay.*" columns. */
export type StayColumnsRaw = { [K in keyof StayRow as `stay.${K}`]: K extends "id" | "petId" | "organizationId" ? bigint | string | null : StayRow[K] | null };

/** The stay stayColumnsOf selected (null: none, a LEFT JOIN that found nothing). */
export function stayOfRow(row: StayColumnsRaw): StayRow | null {
  if (row["stay.id"] === null) return null;
  return {
    id: BigInt(row["stay.id"]),
    petId: BigInt(row["stay.petId"]!),
    organizationId: BigInt(row["stay.organizationId"]!),
    intakeAt: row["stay.intakeAt"]!,
    intakeType: row["stay.intakeType"]!,
    intakeSubtype: row["stay.intakeSubtype"],
    outcomeAt: row["stay.outcomeAt"],
    outcomeType: row["stay.outcomeType"],
    outcomeSubtype: row["stay.outcomeSubtype"],
    intakeDetail: row["stay.intakeDetail"],
    outcomeDetail: row["stay.outcomeDetail"],
  };
}

/** The animal's latest stay (StayPosition's order) as a lateral join on `pets p`, under `alias`: read with the animal, under its lock. */
export function lastStayJoin(alias: string): Prisma.Sql {
  return Prisma.sql`LEFT JOIN LATERAL (SELECT * FROM pet_stays s WHERE s.pet_id = p.id ORDER BY ${ORDER_DOWN} LIMIT 1) ${Prisma.raw(alias)} ON true`;
}

/**
 * The body of a CTE that makes `write` for the animal the statement's CTE
 * `pet` returns (none when the animal's update found no row: the stay is
 * written only with it), returning the stay's columns (stayColumnsOf).
 */
export function stayWriteSql(write: StayWrite): Prisma.Sql {
  if (write.kind === "open") {
    return Prisma.sql`INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, intake_subtype, intake_detail)
      SELECT pet.id, pet.organization_id, ${write.intakeAt}::timestamptz, ${write.intakeType}::"IntakeType", ${write.intakeSubtype}::text, ${write.intakeDetail}::text FROM pet
      RETURNING *`;
  }
  const c = write.columns;
  const sets: Prisma.Sql[] = [];
  if (c.intakeAt !== undefined) sets.push(Prisma.sql`intake_at = ${c.intakeAt}::timestamptz`);
  if (c.intakeType !== undefined) sets.push(Prisma.sql`intake_type = ${c.intakeType}::"IntakeType"`);
  if (c.intakeSubtype !== undefined) sets.push(Prisma.sql`intake_subtype = ${c.intakeSubtype}::text`);
  if (c.outcomeAt !== undefined) sets.push(Prisma.sql`outcome_at = ${c.outcomeAt}::timestamptz`);
  if (c.outcomeType !== undefined) sets.push(Prisma.sql`outcome_type = ${c.outcomeType}::"OutcomeType"`);
  if (c.outcomeSubtype !== undefined) sets.push(Prisma.sql`outcome_subtype = ${c.outcomeSubtype}::text`);
  if (c.intakeDetail !== undefined) sets.push(Prisma.sql`intake_detail = ${c.intakeDetail}::text`);
  if (c.outcomeDetail !== undefined) sets.push(Prisma.sql`outcome_detail = ${c.outcomeDetail}::text`);
  sets.push(Prisma.sql`updated_at = now()`);
  return Prisma.sql`UPDATE pet_stays s SET ${Prisma.join(sets, ", ")} FROM pet WHERE s.id = ${write.id} AND s.pet_id = pet.id RETURNING s.*`;
}

/** Midnight of `day` in the organisation's time zone, and now there (the day's "future" check needs the zone). */
export async function midnightIn(organizationId: number, day: string, client: Db = db()): Promise<{ at: Date; today: string } | null> {
  const rows = await client.$queryRaw<{ at: Date; today: string }[]>`
    SELECT (${day}::date::timestamp AT TIME ZONE time_zone) AS at, to_char(now() AT TIME ZONE time_zone, 'YYYY-MM-DD') AS today
      FROM organizations WHERE id = ${BigInt(organizationId)}`;
  return rows[0] ?? null;
}

/** Which constraint of pet_stays a database error is, if any. */
export function stayConstraintOf(error: unknown): "overlap" | "one_open" | "order" | null {
  const text = `${(error as { message?: string })?.message ?? ""} ${JSON.stringify((error as { meta?: unknown })?.meta ?? {})} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  if (text.includes("pet_stays_no_overlap") || text.includes("pet_stays_no_instant_inside")) return "overlap";
  if (text.includes("pet_stays_one_open_key")) return "one_open";
  if (text.includes("pet_stays_outcome_after_intake")) return "order";
  return null;
}
