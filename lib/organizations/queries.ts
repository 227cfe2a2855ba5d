import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { readQuery } from "@/lib/replicas";
import type { NearWalk } from "@/lib/organizations/geo";
import type { FosterLocation } from "@/lib/organizations/schemas";

// Data access for organisations: no HTTP, no rules.

export interface OrganizationRow {
  id: bigint;
  name: string;
  slug: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  street: string | null;
  city: string | null;
  region: string | null;
  postcode: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  /** IANA: where the shelter's calendar is (its records' days, its monthly report). */
  timeZone: string;
  /** Where its animals in foster homes are shown: at their foster home's city and ZIP code centre, or at its own place (docs/decisions/028). */
  fosterLocation: FosterLocation;
  createdAt: Date;
  /** The chord to the search point (metres), in a near search. */
  chord?: number;
}

const COLUMNS = Prisma.sql`o.id, o.name, o.slug, o.email, o.phone, o.website, o.street, o.city, o.region, o.postcode, o.country,
  o.lat, o.lng, o.time_zone AS "timeZone", o.foster_location AS "fosterLocation", o.created_at AS "createdAt"`;

type Raw = Omit<OrganizationRow, "id"> & { id: string };
const fromRaw = (r: Raw): OrganizationRow => ({ ...r, id: BigInt(r.id) });

/** What an organisation is written with. */
export type OrganizationFields = Omit<OrganizationRow, "id" | "createdAt" | "chord">;

export async function findOrganizationById(id: number): Promise<OrganizationRow | null> {
  const rows = await readQuery<Raw>(Prisma.sql`SELECT ${COLUMNS} FROM organizations o WHERE o.id = ${BigInt(id)}`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

export async function findOrganizationBySlug(slug: string): Promise<OrganizationRow | null> {
  const rows = await readQuery<Raw>(Prisma.sql`SELECT ${COLUMNS} FROM organizations o WHERE o.slug = ${slug}`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

/** The organisation's time zone (IANA), read on the primary; null when there is no such organisation. */
export async function findOrganizationTimeZone(id: number): Promise<string | null> {
  const rows = await query<{ time_zone: string }>(Prisma.sql`SELECT time_zone FROM organizations WHERE id = ${BigInt(id)}`);
  return rows[0]?.time_zone ?? null;
}

/** The first organisation (lowest id): where a one-shelter install's data lives, and what `keys create` without --org means while it is the only one. */
export async function firstOrganizationId(): Promise<bigint | null> {
  const rows = await query<{ id: string }>(Prisma.sql`SELECT id FROM organizations ORDER BY id LIMIT 1`);
  return rows[0] ? BigInt(rows[0].id) : null;
}

export async function countOrganizations(): Promise<number> {
  const rows = await readQuery<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM organizations`);
  return rows[0]?.n ?? 0;
}

export interface OrganizationFilter {
  search?: string;
  ids?: number[];
  slug?: string;
}

function filterConditions(f: OrganizationFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.search !== undefined) {
    out.push(
      Prisma.sql`pet_search_key(o.name) LIKE '%' || replace(replace(replace(pet_search_key(${f.search}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' ESCAPE '\\'`,
    );
  }
  if (f.ids) out.push(Prisma.sql`o.id = ANY(${f.ids.map(BigInt)}::bigint[])`);
  if (f.slug !== undefined) out.push(Prisma.sql`o.slug = ${f.slug}`);
  return out;
}

const and = (conditions: Prisma.Sql[]) => (conditions.length ? Prisma.sql`AND ${Prisma.join(conditions, " AND ")}` : Prisma.empty);

/** A page in name order (case-insensitive, then id), after or before a (name, id) position. */
export async function findOrganizationPage(
  f: OrganizationFilter & { after?: { name: string; id: number }; before?: { name: string; id: number }; take: number },
): Promise<OrganizationRow[]> {
  const conditions = filterConditions(f);
  if (f.after) conditions.push(Prisma.sql`(lower(o.name), o.id) > (${f.after.name}, ${BigInt(f.after.id)})`);
  if (f.before) conditions.push(Prisma.sql`(lower(o.name), o.id) < (${f.before.name}, ${BigInt(f.before.id)})`);
  const order = f.before ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const rows = await readQuery<Raw>(Prisma.sql`
    SELECT ${COLUMNS} FROM organizations o WHERE true ${and(conditions)}
     ORDER BY lower(o.name) ${order}, o.id ${order} LIMIT ${f.take}`);
  return rows.map(fromRaw);
}

/**
 * Organisations near a place, nearest first (newest first at one distance),
 * after or before a (chord, id) position. Forward pages walk the GiST index
 * nearest first with a LIMIT (the plan PostgreSQL always takes for it);
 * a previous page reads the few organisations nearer than its cursor.
 */
export async function findOrganizationsNear(
  f: OrganizationFilter & NearWalk & { after?: { k: number; id: number }; before?: { k: number; id: number }; take: number },
): Promise<OrganizationRow[]> {
  const point = Prisma.sql`geo_point(${f.lat}::float8, ${f.lng}::float8)`;
  const conditions = filterConditions(f);
  if (f.before) {
    // Never past the radius, whatever the cursor says (the service refuses one beyond it too).
    const reach = Math.min(f.before.k, f.maxChord);
    conditions.push(Prisma.sql`cube_enlarge(${point}, ${reach}::float8, 3) @> o.earth_point AND o.earth_point <-> ${point} <= ${f.maxChord}::float8`);
    conditions.push(
      Prisma.sql`(o.earth_point <-> ${point} < ${f.before.k}::float8 OR (o.earth_point <-> ${point} = ${f.before.k}::float8 AND o.id > ${BigInt(f.before.id)}))`,
    );
    const rows = await readQuery<Raw & { chord: number }>(Prisma.sql`
      SELECT ${COLUMNS}, o.earth_point <-> ${point} AS chord FROM organizations o
       WHERE o.earth_point IS NOT NULL ${and(conditions)}
       ORDER BY chord DESC, o.id ASC LIMIT ${f.take}`);
    return rows.map(fromRaw);
  }
  if (f.after) {
    conditions.push(Prisma.sql`o.earth_point <-> ${point} >= ${f.after.k}::float8`);
    conditions.push(Prisma.sql`(o.earth_point <-> ${point} > ${f.after.k}::float8 OR o.id < ${BigInt(f.after.id)})`);
  }
  // The radius is applied after the LIMIT: as a condition of the index walk
  // it would not stop it, and a place with few organisations around would
  // walk every one on Earth. The first `take` beyond the cursor are the
  // nearest; those past the radius drop out, and so would all after them.
  const rows = await readQuery<Raw & { chord: number }>(Prisma.sql`
    SELECT * FROM (
      SELECT ${COLUMNS}, o.earth_point <-> ${point} AS chord FROM organizations o
       WHERE o.earth_point IS NOT NULL ${and(conditions)}
       ORDER BY o.earth_point <-> ${point}, o.id DESC LIMIT ${f.take}
    ) near WHERE chord <= ${f.maxChord}::float8 ORDER BY chord, id DESC`);
  return rows.map(fromRaw);
}

export async function insertOrganization(fields: OrganizationFields): Promise<OrganizationRow> {
  const rows = await query<Raw>(Prisma.sql`
    INSERT INTO organizations AS o (name, slug, email, phone, website, street, city, region, postcode, country, lat, lng, time_zone, foster_location)
    VALUES (${fields.name}, ${fields.slug}, ${fields.email}, ${fields.phone}, ${fields.website}, ${fields.street}, ${fields.city},
            ${fields.region}, ${fields.postcode}, ${fields.country}, ${fields.lat}::float8, ${fields.lng}::float8, ${fields.timeZone}, ${fields.fosterLocation})
    RETURNING ${COLUMNS}`);
  return fromRaw(rows[0]!);
}

/** Changes organisation `id`, only if it is `callerOrganization` (undefined: a platform caller, any); null when it is not there for the caller. */
export async function updateOrganization(id: number, fields: OrganizationFields, callerOrganization: number | undefined): Promise<OrganizationRow | null> {
  const caller = callerOrganization === undefined ? null : BigInt(callerOrganization);
  const rows = await query<Raw>(Prisma.sql`
    UPDATE organizations AS o SET name = ${fields.name}, slug = ${fields.slug}, email = ${fields.email}, phone = ${fields.phone},
           website = ${fields.website}, street = ${fields.street}, city = ${fields.city}, region = ${fields.region},
           postcode = ${fields.postcode}, country = ${fields.country}, lat = ${fields.lat}::float8, lng = ${fields.lng}::float8,
           time_zone = ${fields.timeZone}, foster_location = ${fields.fosterLocation}, updated_at = now()
     WHERE o.id = ${BigInt(id)} AND (${caller}::bigint IS NULL OR o.id = ${caller}::bigint)
    RETURNING ${COLUMNS}`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

/** Whether a slug is taken (by another organisation than `except`). */
export async function slugTaken(slug: string, except?: number): Promise<boolean> {
  const row = await db().organization.findFirst({ where: { slug, ...(except ? { NOT: { id: BigInt(except) } } : {}) }, select: { id: true } });
  return row !== null;
}

/** Slugs starting with `base` (to make a generated one unique). */
export async function slugsLike(base: string): Promise<string[]> {
  const rows = await db().organization.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } });
  return rows.map((r) => r.slug);
}

// Who owns what: the organisation a resource belongs to, for the wrapper's
// tenancy check (lib/http/tenant.ts). undefined: no such resource (the
// handler answers 404 as it always did); null: it belongs to no organisation
// (a platform key).

export async function organizationOfPet(id: number): Promise<bigint | undefined> {
  const rows = await query<{ o: string }>(Prisma.sql`SELECT organization_id AS o FROM pets WHERE id = ${BigInt(id)}`);
  return rows[0] ? BigInt(rows[0].o) : undefined;
}

export async function organizationOfApplication(id: number): Promise<bigint | undefined> {
  const rows = await query<{ o: string }>(Prisma.sql`SELECT organization_id AS o FROM adoption_applications WHERE id = ${BigInt(id)}`);
  return rows[0] ? BigInt(rows[0].o) : undefined;
}

export async function organizationOfKey(id: number): Promise<bigint | null | undefined> {
  const rows = await query<{ o: string | null }>(Prisma.sql`SELECT organization_id AS o FROM api_keys WHERE id = ${BigInt(id)}`);
  if (!rows[0]) return undefined;
  return rows[0].o === null ? null : BigInt(rows[0].o);
}

export async function organizationOfListingSite(id: number): Promise<bigint | undefined> {
  const rows = await query<{ o: string }>(Prisma.sql`SELECT organization_id AS o FROM listing_sites WHERE id = ${BigInt(id)}`);
  return rows[0] ? BigInt(rows[0].o) : undefined;
}

export async function organizationExists(id: number): Promise<boolean> {
  const rows = await query<{ id: string }>(Prisma.sql`SELECT id FROM organizations WHERE id = ${BigInt(id)}`);
  return rows.length > 0;
}

/** Whether PostgreSQL knows this time zone (Intl and PostgreSQL's tz data can differ); the sender reads it with AT TIME ZONE. */
export async function databaseKnowsTimeZone(tz: string): Promise<boolean> {
  try {
    await db().$queryRaw`SELECT now() AT TIME ZONE ${tz} AS t`;
    return true;
  } catch {
    return false;
  }
}
