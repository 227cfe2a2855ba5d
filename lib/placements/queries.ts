import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { FosterStatus } from "@/lib/generated/prisma/enums";
import type { PlacementEndReason } from "@/lib/placements/schemas";

// Data access for placements: Prisma and SQL only, no rules (lib/pets/placements.ts
// and rules.ts). The database keeps their shape whatever the path (migration
// 20261211000000): one open placement per animal, none overlapping, each
// inside its stay (checked at commit), a reason exactly when ended.

export type Db = Prisma.TransactionClient;

export interface PlacementRow {
  id: bigint;
  petId: bigint;
  organizationId: bigint;
  stayId: bigint;
  personId: bigint | null;
  startAt: Date;
  endAt: Date | null;
  endReason: PlacementEndReason | null;
  expectedEndOn: Date | null;
  note: string | null;
  capacityOverridden: boolean;
}

const SELECT = {
  id: true,
  petId: true,
  organizationId: true,
  stayId: true,
  personId: true,
  startAt: true,
  endAt: true,
  endReason: true,
  expectedEndOn: true,
  note: true,
  capacityOverridden: true,
} as const;

/** A placement's columns as raw SQL returns them (RETURNING pl.*). */
type RawPlacement = {
  id: bigint;
  pet_id: bigint;
  organization_id: bigint;
  stay_id: bigint;
  person_id: bigint | null;
  start_at: Date;
  end_at: Date | null;
  end_reason: PlacementEndReason | null;
  expected_end_on: Date | null;
  note: string | null;
  capacity_overridden: boolean;
};

const fromRaw = (r: RawPlacement): PlacementRow => ({
  id: BigInt(r.id),
  petId: BigInt(r.pet_id),
  organizationId: BigInt(r.organization_id),
  stayId: BigInt(r.stay_id),
  personId: r.person_id === null ? null : BigInt(r.person_id),
  startAt: r.start_at,
  endAt: r.end_at,
  endReason: r.end_reason,
  expectedEndOn: r.expected_end_on,
  note: r.note,
  capacityOverridden: r.capacity_overridden,
});

const RETURNING = Prisma.sql`RETURNING pl.id, pl.pet_id, pl.organization_id, pl.stay_id, pl.person_id, pl.start_at, pl.end_at,
  pl.end_reason::text AS end_reason, pl.expected_end_on, pl.note, pl.capacity_overridden`;

export async function findPlacement(tx: Db, petId: number, placementId: number): Promise<PlacementRow | null> {
  return tx.petPlacement.findFirst({ where: { id: BigInt(placementId), petId: BigInt(petId) }, select: SELECT });
}

export async function findOpenPlacement(tx: Db, petId: number): Promise<PlacementRow | null> {
  return tx.petPlacement.findFirst({ where: { petId: BigInt(petId), endAt: null }, select: SELECT });
}

/** Another placement of the animal that meets [from, to) (to null: open), as the exclusion constraint sees them. */
export async function findOverlappingPlacement(tx: Db, petId: number, from: Date, to: Date | null, except?: bigint): Promise<PlacementRow | null> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM pet_placements
     WHERE pet_id = ${BigInt(petId)} AND (${except ?? null}::bigint IS NULL OR id <> ${except ?? null}::bigint)
       AND tstzrange(start_at, end_at, '[)') && tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)')
     ORDER BY start_at LIMIT 1`;
  return rows[0] ? tx.petPlacement.findUnique({ where: { id: rows[0].id }, select: SELECT }) : null;
}

/** A foster as a placement's rules need it, read under its row's lock. */
export interface FosterRow {
  id: bigint;
  status: FosterStatus | null;
  capacity: number | null;
  blackouts: unknown;
  /** The species the foster takes; empty: any. */
  species: string[];
  /** The animal's species (report_species of its category), to hold against `species`. */
  animalSpecies: string;
  /** Its open placements now. */
  placed: number;
  /** The day `at` falls on in the organisation's time zone. */
  day: string;
}

/**
 * The person `personId` of the organisation (not erased), locked until the
 * transaction ends: every placement with them takes this lock first, so two
 * cannot both see the last free place. Locked in one statement, read in the
 * next: a statement that waited for the lock would count the placements as
 * they were before it waited.
 */
export async function lockFoster(tx: Db, personId: number, organizationId: number, at: Date, petId: number): Promise<FosterRow | null> {
  const locked = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM people WHERE id = ${BigInt(personId)} AND organization_id = ${BigInt(organizationId)} AND erased_at IS NULL FOR UPDATE`;
  if (!locked.length) return null;
  const rows = await tx.$queryRaw<(Omit<FosterRow, "placed"> & { placed: number })[]>`
    SELECT p.id, p.foster_status::text AS status, p.foster_capacity AS capacity, p.foster_blackouts AS blackouts, p.foster_species AS species,
           (SELECT report_species(c.name) FROM pets a JOIN categories c ON c.id = a.category_id WHERE a.id = ${BigInt(petId)}) AS "animalSpecies",
           (SELECT count(*)::int FROM pet_placements pl WHERE pl.person_id = p.id AND pl.end_at IS NULL) AS placed,
           to_char(${at}::timestamptz AT TIME ZONE o.time_zone, 'YYYY-MM-DD') AS day
      FROM people p JOIN organizations o ON o.id = p.organization_id WHERE p.id = ${BigInt(personId)}`;
  const row = rows[0];
  return row ? { ...row, placed: Number(row.placed) } : null;
}

export interface NewPlacementRow {
  petId: number;
  organizationId: number;
  stayId: bigint;
  personId: number;
  startAt: Date;
  expectedEndOn: string | null;
  note: string | null;
  capacityOverridden: boolean;
}

export async function insertPlacement(tx: Db, row: NewPlacementRow): Promise<PlacementRow> {
  return tx.petPlacement.create({
    data: {
      petId: BigInt(row.petId),
      organizationId: BigInt(row.organizationId),
      stayId: row.stayId,
      personId: BigInt(row.personId),
      startAt: row.startAt,
      expectedEndOn: row.expectedEndOn === null ? null : new Date(`${row.expectedEndOn}T00:00:00Z`),
      note: row.note,
      capacityOverridden: row.capacityOverridden,
    },
    select: SELECT,
  });
}

export type PlacementColumns = Partial<{
  startAt: Date;
  endAt: Date;
  endReason: PlacementEndReason;
  expectedEndOn: string | null;
  note: string | null;
}>;

export async function updatePlacement(tx: Db, id: bigint, columns: PlacementColumns): Promise<PlacementRow> {
  const { expectedEndOn, ...rest } = columns;
  return tx.petPlacement.update({
    where: { id },
    data: {
      ...rest,
      ...(expectedEndOn !== undefined ? { expectedEndOn: expectedEndOn === null ? null : new Date(`${expectedEndOn}T00:00:00Z`) } : {}),
      updatedAt: new Date(),
    },
    select: SELECT,
  });
}

/**
 * The stay `stayId` has an outcome: its open placement ends at that instant
 * (`stayEnded`), and one an earlier outcome ended follows a corrected one.
 */
export async function endWithStay(tx: Db, stayId: bigint): Promise<PlacementRow[]> {
  const rows = await tx.$queryRaw<RawPlacement[]>`
    UPDATE pet_placements pl SET end_at = s.outcome_at, end_reason = 'stayEnded', updated_at = now()
      FROM pet_stays s
     WHERE s.id = ${stayId} AND pl.stay_id = s.id AND s.outcome_at IS NOT NULL
       AND (pl.end_at IS NULL OR (pl.end_reason = 'stayEnded' AND pl.end_at <> s.outcome_at))
    ${RETURNING}`;
  return rows.map(fromRaw);
}

/** The open placement `id` ends with its stay, if the stay has an outcome now (stays written by an import). */
export async function endIfStayEnded(tx: Db, id: bigint): Promise<PlacementRow[]> {
  const rows = await tx.$queryRaw<RawPlacement[]>`
    UPDATE pet_placements pl SET end_at = s.outcome_at, end_reason = 'stayEnded', updated_at = now()
      FROM pet_stays s
     WHERE pl.id = ${id} AND pl.end_at IS NULL AND s.id = pl.stay_id AND s.outcome_at IS NOT NULL
    ${RETURNING}`;
  return rows.map(fromRaw);
}

/** The outcome of stay `stayId` was taken back (a sale undone): the placement it ended is open again. */
export async function reopenWithStay(tx: Db, stayId: bigint): Promise<PlacementRow[]> {
  const rows = await tx.$queryRaw<RawPlacement[]>`
    UPDATE pet_placements pl SET end_at = NULL, end_reason = NULL, updated_at = now()
     WHERE pl.stay_id = ${stayId} AND pl.end_reason = 'stayEnded'
    ${RETURNING}`;
  return rows.map(fromRaw);
}

/** Where a placement stands among its animal's: by start, then id. */
export interface PlacementPosition {
  startAt: Date;
  id: bigint;
}

const ORDER_UP = Prisma.sql`pl.start_at, pl.id`;
const ORDER_DOWN = Prisma.sql`pl.start_at DESC, pl.id DESC`;
const keyOf = (p: PlacementPosition) => Prisma.sql`(${p.startAt}::timestamptz, ${p.id}::bigint)`;
const COLUMNS = Prisma.sql`pl.id, pl.pet_id, pl.organization_id, pl.stay_id, pl.person_id, pl.start_at, pl.end_at,
  pl.end_reason::text AS end_reason, pl.expected_end_on, pl.note, pl.capacity_overridden`;

/** A page of an animal's placements (StayPage's way: `take` after `after` or before `before`, and whether any lie on the cursor's other side). */
export async function findPlacementPage(
  petId: number,
  page: { after?: PlacementPosition; before?: PlacementPosition; take: number },
  client: Db = db(),
): Promise<{ rows: PlacementRow[]; otherSide: boolean }> {
  const pet = BigInt(petId);
  const at = page.before ?? page.after;
  const condition = page.before
    ? Prisma.sql`AND (${ORDER_UP}) < ${keyOf(page.before)}`
    : page.after
      ? Prisma.sql`AND (${ORDER_UP}) > ${keyOf(page.after)}`
      : Prisma.empty;
  const behind = at && Prisma.sql`(${ORDER_UP}) ${Prisma.raw(page.before ? ">=" : "<=")} ${keyOf(at)}`;
  const [rows, other] = await Promise.all([
    client.$queryRaw<RawPlacement[]>`SELECT ${COLUMNS} FROM pet_placements pl WHERE pl.pet_id = ${pet} ${condition}
       ORDER BY ${page.before ? ORDER_DOWN : ORDER_UP} LIMIT ${page.take}`,
    behind
      ? client.$queryRaw<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pet_placements pl WHERE pl.pet_id = ${pet} AND ${behind}) AS found`
      : Promise.resolve([{ found: false }]),
  ]);
  return { rows: rows.map(fromRaw), otherSide: other[0]?.found ?? false };
}

/** One animal in care and its open placement, if any (the custody list). */
export interface CustodyRow {
  petId: bigint;
  name: string;
  categoryId: bigint;
  placementId: bigint | null;
  personId: bigint | null;
  personName: string | null;
  since: Date | null;
  expectedEndOn: Date | null;
  overdue: boolean;
}

/**
 * A page of the organisation's animals in care (an open stay), by id, each
 * with its open placement and foster's name, and whether the foster's
 * expected end day is before today in the organisation's zone.
 */
export async function findCustodyPage(
  organizationId: number,
  filter: { where?: "shelter" | "foster"; personId?: number; overdue?: boolean },
  page: { afterId?: number; beforeId?: number; take: number },
): Promise<CustodyRow[]> {
  const conditions: Prisma.Sql[] = [Prisma.sql`p.organization_id = ${BigInt(organizationId)}`];
  if (filter.where === "shelter") conditions.push(Prisma.sql`pl.id IS NULL`);
  if (filter.where === "foster") conditions.push(Prisma.sql`pl.id IS NOT NULL`);
  if (filter.personId !== undefined) conditions.push(Prisma.sql`pl.person_id = ${BigInt(filter.personId)}`);
  if (filter.overdue !== undefined) conditions.push(filter.overdue ? Prisma.sql`${OVERDUE}` : Prisma.sql`NOT ${OVERDUE}`);
  if (page.afterId !== undefined) conditions.push(Prisma.sql`p.id > ${BigInt(page.afterId)}`);
  if (page.beforeId !== undefined) conditions.push(Prisma.sql`p.id < ${BigInt(page.beforeId)}`);
  const rows = await db().$queryRaw<CustodyRow[]>`
    SELECT p.id AS "petId", p.name, p.category_id AS "categoryId", pl.id AS "placementId", pl.person_id AS "personId",
           pe.name AS "personName", pl.start_at AS since, pl.expected_end_on AS "expectedEndOn", ${OVERDUE} AS overdue
      FROM pets p
      JOIN organizations o ON o.id = p.organization_id
      JOIN pet_stays s ON s.pet_id = p.id AND s.outcome_at IS NULL
      LEFT JOIN pet_placements pl ON pl.pet_id = p.id AND pl.end_at IS NULL
      LEFT JOIN people pe ON pe.id = pl.person_id
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY p.id ${Prisma.raw(page.beforeId !== undefined ? "DESC" : "ASC")} LIMIT ${page.take}`;
  return rows;
}

const OVERDUE = Prisma.sql`COALESCE(pl.expected_end_on < (now() AT TIME ZONE o.time_zone)::date, false)`;

/** Which of the placements' constraints a database error is, if any. */
export function placementConstraintOf(error: unknown): "overlap" | "one_open" | "inside_stay" | "order" | null {
  const text = `${(error as { message?: string })?.message ?? ""} ${JSON.stringify((error as { meta?: unknown })?.meta ?? {})} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  if (text.includes("pet_placements_no_overlap")) return "overlap";
  if (text.includes("pet_placements_one_open")) return "one_open";
  if (text.includes("pet_placements_inside_stay") || text.includes("lies outside its stay") || text.includes("no longer holds its placements"))
    return "inside_stay";
  if (text.includes("pet_placements_end_check")) return "order";
  return null;
}
