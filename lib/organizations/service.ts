import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, invalidCursorFor, keysetPage, nearPosition } from "@/lib/core/pagination";
import { kmOfChord, roundKm, type LatLng } from "@/lib/organizations/geo";
import * as queries from "@/lib/organizations/queries";
import type { ListOrganizationsQuery, NewOrganization, Organization, OrganizationPatch } from "@/lib/organizations/schemas";
import { lookUpZip, resolveNear } from "@/lib/organizations/zip";
import { organizationScope, type Tenancy } from "@/lib/organizations/tenancy";
import { databaseKnowsTimeZone } from "@/lib/organizations/queries";

// The rules of organisations: making a slug, placing an organisation from
// its ZIP code, the directory's order and paging. Inputs arrive validated.

export function presentOrganization(row: queries.OrganizationRow): Organization {
  return {
    id: Number(row.id),
    name: row.name,
    slug: row.slug,
    email: row.email,
    phone: row.phone,
    website: row.website,
    address:
      row.city === null || row.country === null
        ? null
        : { street: row.street, city: row.city, region: row.region, postcode: row.postcode, country: row.country },
    location: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
    ...(row.chord !== undefined ? { distanceKm: roundKm(kmOfChord(row.chord)) } : {}),
  };
}

function organizationNotFound(id: number | string): ApiError {
  return typeof id === "number" ? notFound("organisation", id) : notFound(`There is no organisation "${id}".`);
}

export async function getOrganization(id: number): Promise<Organization> {
  const row = await queries.findOrganizationById(id);
  if (!row) throw organizationNotFound(id);
  return presentOrganization(row);
}

export interface OrganizationPage {
  organizations: Organization[];
  cursors: { next?: string; prev?: string };
}

/**
 * The directory: in name order, or nearest first with `near`. Paged by
 * keyset cursors in either order (the name, or the distance as the database
 * measures it, with the id), so no organisation is skipped or repeated.
 */
export async function listOrganizations(query: ListOrganizationsQuery): Promise<OrganizationPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const filter = { search: query.q, ids: query.id, slug: query.slug };
  const take = query.limit + 1;
  const backwards = cursor?.d === "before";
  let rows: queries.OrganizationRow[];
  let at: (row: queries.OrganizationRow) => { k?: number; s?: string; id: number };

  if (query.near) {
    if (cursor && cursor.k === undefined) throw invalidCursorFor("a list in name order, not a search near a place");
    const near = await resolveNear(query.near, query.within);
    const position = cursor && nearPosition(cursor, near.maxChord);
    rows = await queries.findOrganizationsNear({
      ...filter,
      ...near.point,
      maxChord: near.maxChord,
      take,
      ...(backwards ? { before: position } : { after: position }),
    });
    at = (row) => ({ k: row.chord!, id: Number(row.id) });
  } else {
    if (cursor && cursor.s === undefined) throw invalidCursorFor("a search near a place, not a list in name order");
    const position = cursor && { name: cursor.s!, id: cursor.id };
    rows = await queries.findOrganizationPage({ ...filter, take, ...(backwards ? { before: position } : { after: position }) });
    at = (row) => ({ s: row.name.toLowerCase(), id: Number(row.id) });
  }
  const { page, cursors } = keysetPage(rows, query.limit, cursor, at);
  return { organizations: page.map(presentOrganization), cursors };
}

/** A slug made from a name: "Lakeshore Animal Rescue!" becomes lakeshore-animal-rescue. */
export function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "shelter";
}

/** The slug itself when free, else the first free "<slug>-2", "<slug>-3"... */
async function uniqueSlug(base: string, except?: number): Promise<string> {
  const taken = new Set(await queries.slugsLike(base));
  if (except !== undefined && !(await queries.slugTaken(base, except))) return base;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function slugIsTaken(slug: string): ApiError {
  return new ApiError(400, "invalid_body", `The slug "${slug}" is taken by another organisation.`, [{ field: "slug", issue: "is taken" }]);
}

const isUniqueViolation = (error: unknown) =>
  (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") || (error as { code?: string } | null)?.code === "23505";

interface AddressFields {
  street: string | null;
  city: string | null;
  region: string | null;
  postcode: string | null;
  country: string | null;
}

/**
 * Where an organisation is when no location was given: the centre of its US
 * ZIP code. Anywhere else (or a code not in the data), it must be told.
 */
async function locationFromAddress(address: AddressFields): Promise<LatLng> {
  const zip = address.country === "US" ? /^([0-9]{5})(?:-[0-9]{4})?$/.exec(address.postcode ?? "")?.[1] : undefined;
  if (zip) {
    const place = await lookUpZip(zip);
    if (place) return { lat: place.lat, lng: place.lng };
    throw new ApiError(
      400,
      "unknown_location",
      `${zip} was read as a US ZIP code, but there is no such ZIP code in our data: give the organisation's location as { "lat", "lng" }.`,
      [{ field: "address.postcode", issue: `names no US ZIP code (${zip})` }],
    );
  }
  throw new ApiError(
    400,
    "unknown_location",
    'Where is the organisation? Give its location as { "lat", "lng" } (only a US ZIP code in the address can place it without one).',
    [{ field: "location", issue: "is required unless address.country is US and address.postcode a US ZIP code" }],
  );
}

/** A time zone the database knows (checked as alerts check theirs: an IANA name Intl takes may still be unknown to PostgreSQL). */
async function checkTimeZone(timeZone: string | undefined): Promise<void> {
  if (timeZone === undefined || (await databaseKnowsTimeZone(timeZone))) return;
  throw new ApiError(400, "invalid_body", "The request body is invalid. timeZone: is not a time zone we know; use an IANA name such as America/Chicago.", [
    { field: "timeZone", issue: "is not a time zone we know; use an IANA name such as America/Chicago" },
  ]);
}

export async function createOrganization(input: NewOrganization): Promise<Organization> {
  await checkTimeZone(input.timeZone);
  const location = input.location ?? (await locationFromAddress(input.address));
  const fields = (slug: string): queries.OrganizationFields => ({
    name: input.name,
    slug,
    email: input.email,
    phone: input.phone,
    website: input.website,
    ...input.address,
    lat: location.lat,
    lng: location.lng,
    timeZone: input.timeZone,
  });
  if (input.slug !== undefined) {
    try {
      return presentOrganization(await queries.insertOrganization(fields(input.slug)));
    } catch (error) {
      if (isUniqueViolation(error)) throw slugIsTaken(input.slug);
      throw error;
    }
  }
  // A made slug that another request took in the meantime: the next free one.
  for (let attempt = 0; ; attempt++) {
    try {
      return presentOrganization(await queries.insertOrganization(fields(await uniqueSlug(slugOf(input.name)))));
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * A merge patch: address field by field, location whole; a new US postcode
 * without a location (or location null) moves the organisation there. Only
 * the caller's own organisation (any, for a platform caller), checked in the
 * UPDATE itself.
 */
export async function updateOrganization(id: number, patch: OrganizationPatch, tenancy: Tenancy): Promise<Organization> {
  const current = await queries.findOrganizationById(id);
  if (!current) throw organizationNotFound(id);
  await checkTimeZone(patch.timeZone);
  const address: AddressFields = { street: current.street, city: current.city, region: current.region, postcode: current.postcode, country: current.country };
  if (patch.address) {
    for (const [field, value] of Object.entries(patch.address)) if (value !== undefined) Object.assign(address, { [field]: value });
    if (address.city === null || address.country === null) {
      throw new ApiError(400, "invalid_body", "An address needs at least a city and a country.", [
        ...(address.city === null ? [{ field: "address.city", issue: "is required" }] : []),
        ...(address.country === null ? [{ field: "address.country", issue: "is required" }] : []),
      ]);
    }
  }
  let location: LatLng | null = current.lat === null || current.lng === null ? null : { lat: current.lat, lng: current.lng };
  const movedPostcode = patch.address && (address.postcode !== current.postcode || address.country !== current.country);
  if (patch.location) location = patch.location;
  else if (patch.location === null || (movedPostcode && address.country === "US" && address.postcode)) location = await locationFromAddress(address);

  const slug = patch.slug ?? current.slug;
  try {
    const row = await queries.updateOrganization(
      id,
      {
        name: patch.name ?? current.name,
        slug,
        email: patch.email === undefined ? current.email : patch.email,
        phone: patch.phone === undefined ? current.phone : patch.phone,
        website: patch.website === undefined ? current.website : patch.website,
        ...address,
        lat: location?.lat ?? null,
        lng: location?.lng ?? null,
        timeZone: patch.timeZone ?? current.timeZone,
      },
      organizationScope(tenancy),
    );
    if (!row) throw organizationNotFound(id);
    return presentOrganization(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw slugIsTaken(slug);
    throw error;
  }
}
