import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { readQuery } from "@/lib/replicas";
import type { Blackout, FosterSpecies } from "@/lib/people/schemas";
import type { FosterStatus } from "@/lib/generated/prisma/enums";

// Data access for an organisation's people: no HTTP, no rules. Every
// statement names the organisation, so a person of another one is "not
// there" whatever the route checked before.

export interface PersonRow {
  id: bigint;
  organizationId: bigint;
  name: string | null;
  email: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  region: string | null;
  postcode: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  notes: string | null;
  fosterStatus: FosterStatus | null;
  fosterCapacity: number | null;
  fosterSpecies: FosterSpecies[];
  fosterBlackouts: Blackout[];
  erasedAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** Open placements with the person now. */
  placedCount: number;
}

/** What a person is written with. */
export type PersonFields = Omit<PersonRow, "id" | "organizationId" | "erasedAt" | "version" | "createdAt" | "updatedAt" | "placedCount">;

const PLACED = Prisma.sql`(SELECT count(*)::int FROM pet_placements pl WHERE pl.person_id = p.id AND pl.end_at IS NULL)`;

const COLUMNS = Prisma.sql`p.id, p.organization_id AS "organizationId", p.name, p.email, p.phone, p.street, p.city, p.region, p.postcode, p.country,
  p.lat, p.lng, p.notes, p.foster_status::text AS "fosterStatus", p.foster_capacity AS "fosterCapacity", p.foster_species AS "fosterSpecies",
  p.foster_blackouts AS "fosterBlackouts", p.erased_at AS "erasedAt", p.version, p.created_at AS "createdAt", p.updated_at AS "updatedAt",
  ${PLACED} AS "placedCount"`;

type Raw = Omit<PersonRow, "id" | "organizationId"> & { id: string | bigint; organizationId: string | bigint };
// JSONB keeps its own key order ("to" before "from"): the blackouts are read back in ours.
const fromRaw = (r: Raw): PersonRow => ({
  ...r,
  id: BigInt(r.id),
  organizationId: BigInt(r.organizationId),
  fosterBlackouts: r.fosterBlackouts.map(({ from, to }) => ({ from, to })),
});

export async function findPerson(organizationId: number, id: number): Promise<PersonRow | null> {
  const rows = await readQuery<Raw>(Prisma.sql`SELECT ${COLUMNS} FROM people p WHERE p.id = ${BigInt(id)} AND p.organization_id = ${BigInt(organizationId)}`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

/** The person of the organisation who has this email (any case), if any: the holder a second one is refused for. */
export async function findPersonByEmail(organizationId: number, email: string): Promise<{ id: bigint; name: string | null } | null> {
  const rows = await query<{ id: string; name: string | null }>(
    Prisma.sql`SELECT id, name FROM people WHERE organization_id = ${BigInt(organizationId)} AND lower(email) = lower(${email})`,
  );
  return rows[0] ? { id: BigInt(rows[0].id), name: rows[0].name } : null;
}

export interface PeopleFilter {
  organizationId: number;
  foster?: boolean;
  statuses?: FosterStatus[];
  species?: FosterSpecies;
  /** Fosters who can (true) or cannot (false) take an animal on `on` (null: today in the organisation's time zone at `now`). */
  hasRoom?: { room: boolean; on: string | null; now: Date };
  search?: string;
}

const like = (text: string) => Prisma.sql`'%' || replace(replace(replace(${text}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

function conditions(f: PeopleFilter): Prisma.Sql[] {
  // Erased people are records of placements only: GET by id answers them, lists leave them out.
  const out: Prisma.Sql[] = [Prisma.sql`p.organization_id = ${BigInt(f.organizationId)}`, Prisma.sql`p.erased_at IS NULL`];
  if (f.foster || f.statuses || f.species || f.hasRoom) out.push(Prisma.sql`p.foster_status IS NOT NULL`);
  if (f.statuses) out.push(Prisma.sql`p.foster_status::text = ANY(${f.statuses}::text[])`);
  if (f.species) out.push(Prisma.sql`(cardinality(p.foster_species) = 0 OR ${f.species} = ANY(p.foster_species))`);
  if (f.hasRoom) {
    const day = f.hasRoom.on
      ? Prisma.sql`${f.hasRoom.on}::date`
      : Prisma.sql`(SELECT (${f.hasRoom.now}::timestamptz AT TIME ZONE o.time_zone)::date FROM organizations o WHERE o.id = p.organization_id)`;
    const room = Prisma.sql`(p.foster_status = 'active' AND p.foster_capacity > ${PLACED}
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p.foster_blackouts) b WHERE ${day} BETWEEN (b->>'from')::date AND (b->>'to')::date))`;
    out.push(f.hasRoom.room ? room : Prisma.sql`NOT ${room}`);
  }
  if (f.search !== undefined) out.push(Prisma.sql`(p.name ILIKE ${like(f.search)} ESCAPE '\\' OR p.email ILIKE ${like(f.search)} ESCAPE '\\')`);
  return out;
}

/** A page in name order (case-insensitive, then id), after or before a (name, id) position. */
export async function findPeoplePage(
  f: PeopleFilter & { after?: { name: string; id: number }; before?: { name: string; id: number }; take: number },
): Promise<PersonRow[]> {
  const where = conditions(f);
  if (f.after) where.push(Prisma.sql`(lower(p.name), p.id) > (${f.after.name}, ${BigInt(f.after.id)})`);
  if (f.before) where.push(Prisma.sql`(lower(p.name), p.id) < (${f.before.name}, ${BigInt(f.before.id)})`);
  const order = f.before ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const rows = await readQuery<Raw>(Prisma.sql`
    SELECT ${COLUMNS} FROM people p WHERE ${Prisma.join(where, " AND ")}
     ORDER BY lower(p.name) ${order}, p.id ${order} LIMIT ${f.take}`);
  return rows.map(fromRaw);
}

const blackoutsJson = (b: Blackout[]) => JSON.stringify(b.map(({ from, to }) => ({ from, to })));

export async function insertPerson(organizationId: number, fields: PersonFields): Promise<PersonRow> {
  const rows = await query<Raw>(Prisma.sql`
    WITH p AS (
      INSERT INTO people (organization_id, name, email, phone, street, city, region, postcode, country, lat, lng, notes,
                          foster_status, foster_capacity, foster_species, foster_blackouts)
      VALUES (${BigInt(organizationId)}, ${fields.name}, ${fields.email}, ${fields.phone}, ${fields.street}, ${fields.city}, ${fields.region},
              ${fields.postcode}, ${fields.country}, ${fields.lat}::float8, ${fields.lng}::float8, ${fields.notes},
              ${fields.fosterStatus}::"FosterStatus", ${fields.fosterCapacity}::int, ${fields.fosterSpecies}::varchar[], ${blackoutsJson(fields.fosterBlackouts)}::jsonb)
      RETURNING *)
    SELECT ${COLUMNS} FROM p`);
  return fromRaw(rows[0]!);
}

/**
 * Writes the person if it is still at `version` (the version goes up by
 * one); null when it is not there for the organisation or has moved on
 * (the caller tells which apart).
 */
export async function updatePersonIfVersion(organizationId: number, id: number, version: number, fields: PersonFields): Promise<PersonRow | null> {
  const rows = await query<Raw>(Prisma.sql`
    WITH p AS (
      UPDATE people SET name = ${fields.name}, email = ${fields.email}, phone = ${fields.phone}, street = ${fields.street}, city = ${fields.city},
             region = ${fields.region}, postcode = ${fields.postcode}, country = ${fields.country}, lat = ${fields.lat}::float8, lng = ${fields.lng}::float8,
             notes = ${fields.notes}, foster_status = ${fields.fosterStatus}::"FosterStatus", foster_capacity = ${fields.fosterCapacity}::int,
             foster_species = ${fields.fosterSpecies}::varchar[], foster_blackouts = ${blackoutsJson(fields.fosterBlackouts)}::jsonb,
             version = version + 1, updated_at = now()
       WHERE id = ${BigInt(id)} AND organization_id = ${BigInt(organizationId)} AND version = ${version} AND erased_at IS NULL
      RETURNING *)
    SELECT ${COLUMNS} FROM p`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

export type EraseOutcome = { erased: true } | { erased: false; reason: "missing" | "placed"; placed?: number };

/**
 * Erases one person: every personal field and the foster role cleared,
 * erased_at set, the row and its placements kept. The row is locked first
 * (FOR UPDATE, which waits for a placement being written with it: its
 * foreign key holds the row), so an animal placed meanwhile is seen.
 */
export async function erasePersonRow(id: bigint, organizationId: bigint | null, now: Date): Promise<EraseOutcome> {
  return db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM people WHERE id = ${id} AND (${organizationId}::bigint IS NULL OR organization_id = ${organizationId}::bigint) FOR UPDATE`;
    if (!locked.length) return { erased: false, reason: "missing" };
    const [open] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pet_placements WHERE person_id = ${id} AND end_at IS NULL`;
    if (open!.n > 0) return { erased: false, reason: "placed", placed: open!.n };
    await tx.$executeRaw`
      UPDATE people SET name = NULL, email = NULL, phone = NULL, street = NULL, city = NULL, region = NULL, postcode = NULL, country = NULL,
             lat = NULL, lng = NULL, notes = NULL, foster_status = NULL, foster_capacity = NULL, foster_species = '{}', foster_blackouts = '[]',
             erased_at = coalesce(erased_at, ${now}), version = version + 1, updated_at = ${now}
       WHERE id = ${id}`;
    // What the person wrote and what let them in go with them: their private link, their applications'
    // messages (staff's decision stays, without its message to them), their notes about animals
    // (the notes stay as rows, so an animal's history still says a former foster wrote one then).
    await tx.$executeRaw`DELETE FROM foster_links WHERE person_id = ${id}`;
    await tx.$executeRaw`UPDATE foster_applications SET message = NULL, decision_message = NULL WHERE person_id = ${id}`;
    await tx.$executeRaw`UPDATE foster_notes SET body = NULL WHERE person_id = ${id}`;
    return { erased: true };
  });
}

/** A person of the organisation, locked for a change (null: no such person there, or erased). */
export async function lockPersonOf(
  tx: Prisma.TransactionClient,
  organizationId: number,
  personId: number,
): Promise<{ id: bigint; email: string | null; fosterStatus: string | null } | null> {
  const [row] = await tx.$queryRaw<{ id: bigint; email: string | null; foster_status: string | null }[]>`
    SELECT id, email, foster_status::text FROM people
     WHERE id = ${BigInt(personId)} AND organization_id = ${BigInt(organizationId)} AND erased_at IS NULL FOR UPDATE`;
  return row ? { id: row.id, email: row.email, fosterStatus: row.foster_status } : null;
}

/** The person an email names in the organisation (case-insensitively, as the unique index compares), locked. */
export async function lockPersonByEmail(
  tx: Prisma.TransactionClient,
  organizationId: number,
  email: string,
): Promise<{ id: bigint; fosterStatus: string | null } | null> {
  const [row] = await tx.$queryRaw<{ id: bigint; foster_status: string | null }[]>`
    SELECT id, foster_status::text FROM people WHERE organization_id = ${BigInt(organizationId)} AND lower(email) = ${email.toLowerCase()} FOR UPDATE`;
  return row ? { id: row.id, fosterStatus: row.foster_status } : null;
}

export interface FosterWriting {
  /** Ids as text, as the driver reads bigint. */
  personId: string;
  kind: "application" | "note";
  at: Date;
  text: string | null;
  /** The animal a note is about; the decision on an application (null while undecided). */
  petId: string | null;
  decision: string | null;
}

/** What these people sent as fosters (applications' messages, notes about animals), oldest first: for an access request. */
export async function findFosterWritings(personIds: bigint[]): Promise<FosterWriting[]> {
  if (!personIds.length) return [];
  return query<FosterWriting>(Prisma.sql`
    SELECT person_id::text AS "personId", 'application' AS kind, created_at AS at, message AS text, NULL::text AS "petId", decision
      FROM foster_applications WHERE person_id IN (${Prisma.join(personIds)})
    UNION ALL
    SELECT person_id::text, 'note', created_at, body, pet_id::text, NULL FROM foster_notes WHERE person_id IN (${Prisma.join(personIds)})
    ORDER BY at, kind`);
}

/** Every person with this email (any case), in every organisation, for an access or erasure request. */
export async function findPeopleByEmail(email: string): Promise<PersonRow[]> {
  const rows = await query<Raw>(Prisma.sql`SELECT ${COLUMNS} FROM people p WHERE lower(p.email) = lower(${email}) ORDER BY p.id`);
  return rows.map(fromRaw);
}
