import { Prisma } from "@/lib/generated/prisma/client";
import { staleVersion } from "@/lib/core/conditional";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, invalidCursorFor, keysetPage } from "@/lib/core/pagination";
import type { AddressPatch } from "@/lib/organizations/schemas";
import { lookUpZip } from "@/lib/organizations/zip";
import { forbidden } from "@/lib/organizations/tenancy";
import * as queries from "@/lib/people/queries";
import type { ListPeopleQuery, NewPerson, Person, PersonPatch } from "@/lib/people/schemas";
import { mayReadPeopleOf, type Viewer } from "@/lib/visibility/policy";

// The rules of an organisation's people (docs/decisions/028): who reads them
// (the one policy, lib/visibility/policy.ts), one email per person of an
// organisation, a US home placed at its ZIP code's centre, merge patches
// with If-Match, and erasure that keeps the row for its placements. Nothing
// here writes an event, an audit record or a log line with a person's
// data: personal data stays in this table and the answers to its readers.

/** Refused unless the viewer reads this organisation's people (staff, keys with people:read, the platform's with it). */
export function assertMayReadPeople(viewer: Viewer, organizationId: number): void {
  if (!mayReadPeopleOf(viewer, organizationId)) {
    throw forbidden("An organisation's people are personal data: only its staff and its keys with people:read (or a platform key with it) read them.");
  }
}

export function presentPerson(row: queries.PersonRow): Person {
  const foster =
    row.fosterStatus === null || row.fosterCapacity === null
      ? null
      : {
          status: row.fosterStatus,
          capacity: row.fosterCapacity,
          species: row.fosterSpecies,
          blackouts: row.fosterBlackouts,
          placedCount: row.placedCount,
          room: Math.max(0, row.fosterCapacity - row.placedCount),
        };
  return {
    id: Number(row.id),
    organizationId: Number(row.organizationId),
    name: row.name,
    email: row.email,
    phone: row.phone,
    address:
      row.city === null || row.country === null
        ? null
        : { street: row.street, city: row.city, region: row.region, postcode: row.postcode, country: row.country },
    notes: row.notes,
    foster,
    erased: row.erasedAt !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getPerson(organizationId: number, id: number): Promise<{ person: Person; version: number }> {
  const row = await queries.findPerson(organizationId, id);
  // Another organisation's person is as absent as one that never was.
  if (!row) throw notFound("person", id);
  return { person: presentPerson(row), version: row.version };
}

export interface PeoplePage {
  people: Person[];
  cursors: { next?: string; prev?: string };
}

/** The organisation's people in name order (case-insensitive, then id), keyset-paged; erased people are left out. */
export async function listPeople(organizationId: number, query: ListPeopleQuery, now: Date): Promise<PeoplePage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && cursor.s === undefined) throw invalidCursorFor("another list, not this list of people in name order");
  const position = cursor && { name: cursor.s!, id: cursor.id };
  const backwards = cursor?.d === "before";
  const rows = await queries.findPeoplePage({
    organizationId,
    foster: query.role === "foster",
    statuses: query.status,
    species: query.species,
    hasRoom: query.hasRoom === undefined ? undefined : { room: query.hasRoom, on: query.on ?? null, now },
    search: query.q,
    take: query.limit + 1,
    ...(backwards ? { before: position } : { after: position }),
  });
  const { page, cursors } = keysetPage(rows, query.limit, cursor, (row) => ({ s: (row.name ?? "").toLowerCase(), id: Number(row.id) }));
  return { people: page.map(presentPerson), cursors };
}

export type Home = Pick<queries.PersonFields, "street" | "city" | "region" | "postcode" | "country" | "lat" | "lng">;
const NO_HOME: Home = { street: null, city: null, region: null, postcode: null, country: null, lat: null, lng: null };

/**
 * Where a home is: a US home's postcode must be a US ZIP code (ZIP+4 taken),
 * and places it at the ZIP code's centre; elsewhere, or without a postcode,
 * the home has no position.
 */
export async function placeHome(address: Omit<Home, "lat" | "lng">): Promise<Home> {
  if (address.country !== "US" || address.postcode === null) return { ...address, lat: null, lng: null };
  const zip = /^([0-9]{5})(?:-[0-9]{4})?$/.exec(address.postcode)?.[1];
  const place = zip ? await lookUpZip(zip) : null;
  if (!place) {
    throw new ApiError(
      400,
      "unknown_location",
      `${address.postcode} was read as a US ZIP code, but there is no such ZIP code in our data: a US home's postcode must be its ZIP code (5 digits, or ZIP+4).`,
      [{ field: "address.postcode", issue: `names no US ZIP code (${address.postcode})` }],
    );
  }
  return { ...address, lat: place.lat, lng: place.lng };
}

function mergedAddress(current: queries.PersonRow, patch: AddressPatch): Omit<Home, "lat" | "lng"> {
  const address = { street: current.street, city: current.city, region: current.region, postcode: current.postcode, country: current.country };
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) Object.assign(address, { [field]: value });
  if (address.city === null || address.country === null) {
    throw new ApiError(400, "invalid_body", "The request body is invalid. An address needs at least a city and a country.", [
      ...(address.city === null ? [{ field: "address.city", issue: "is required" }] : []),
      ...(address.country === null ? [{ field: "address.country", issue: "is required" }] : []),
    ]);
  }
  return address;
}

const isUniqueViolation = (error: unknown) =>
  (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") || (error as { code?: string } | null)?.code === "23505";

/** 409 person_exists, naming the person who has the email (as far as it can still be found). */
async function personExists(organizationId: number, email: string): Promise<ApiError> {
  const holder = await queries.findPersonByEmail(organizationId, email).catch(() => null);
  const which = holder ? `person ${holder.id}${holder.name === null ? "" : ` (${holder.name})`}` : "another person";
  return new ApiError(409, "person_exists", `This organisation already has ${which} with this email: change that person instead of adding another.`, [
    { field: "email", issue: `is already the email of ${which} of this organisation` },
  ]);
}

async function written(organizationId: number, email: string | null, write: () => Promise<queries.PersonRow | null>): Promise<queries.PersonRow | null> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error) && email !== null) throw await personExists(organizationId, email);
    throw error;
  }
}

export async function createPerson(organizationId: number, input: NewPerson): Promise<{ person: Person; version: number }> {
  const home = input.address ? await placeHome(input.address) : NO_HOME;
  const row = await written(organizationId, input.email, () =>
    queries.insertPerson(organizationId, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      ...home,
      notes: input.notes,
      fosterStatus: input.foster?.status ?? null,
      fosterCapacity: input.foster?.capacity ?? null,
      fosterSpecies: input.foster?.species ?? [],
      fosterBlackouts: input.foster?.blackouts ?? [],
    }),
  );
  return { person: presentPerson(row!), version: row!.version };
}

const preconditionFailed = (current: number) =>
  staleVersion(current, { changed: "The person has changed since you read them: they are", readAgain: "Read them again" });

const erasedRefused = (id: number) =>
  new ApiError(409, "person_erased", `Person ${id} was erased: their record stays for its placements' history and cannot be changed.`);

/**
 * A merge patch: `address` and `foster` field by field, `null` removes.
 * Written only if the person is still at the version read (and at one of
 * `expectedVersions`, If-Match's, when given): 412 otherwise. A patch that
 * changes nothing answers the person as they are.
 */
export async function updatePerson(
  organizationId: number,
  id: number,
  patch: PersonPatch,
  expectedVersions: number[] | undefined,
): Promise<{ person: Person; version: number }> {
  const current = await queries.findPerson(organizationId, id);
  if (!current) throw notFound("person", id);
  if (expectedVersions && !expectedVersions.includes(current.version)) throw preconditionFailed(current.version);
  if (current.erasedAt) throw erasedRefused(id);

  let home: Home = {
    street: current.street,
    city: current.city,
    region: current.region,
    postcode: current.postcode,
    country: current.country,
    lat: current.lat,
    lng: current.lng,
  };
  if (patch.address === null) home = NO_HOME;
  else if (patch.address) {
    const address = mergedAddress(current, patch.address);
    const moved = address.postcode !== current.postcode || address.country !== current.country;
    home = moved ? await placeHome(address) : { ...address, lat: current.lat, lng: current.lng };
  }
  let foster =
    current.fosterStatus === null
      ? null
      : { status: current.fosterStatus, capacity: current.fosterCapacity!, species: current.fosterSpecies, blackouts: current.fosterBlackouts };
  if (patch.foster === null) foster = null;
  else if (patch.foster) {
    foster = {
      status: patch.foster.status ?? foster?.status ?? "applicant",
      capacity: patch.foster.capacity ?? foster?.capacity ?? 1,
      species: patch.foster.species ?? foster?.species ?? [],
      blackouts: patch.foster.blackouts ?? foster?.blackouts ?? [],
    };
  }
  const fields: queries.PersonFields = {
    name: patch.name ?? current.name,
    email: patch.email === undefined ? current.email : patch.email,
    phone: patch.phone === undefined ? current.phone : patch.phone,
    ...home,
    notes: patch.notes === undefined ? current.notes : patch.notes,
    fosterStatus: foster?.status ?? null,
    fosterCapacity: foster?.capacity ?? null,
    fosterSpecies: foster?.species ?? [],
    fosterBlackouts: foster?.blackouts ?? [],
  };
  const unchanged = (Object.keys(fields) as (keyof queries.PersonFields)[]).every((k) => JSON.stringify(fields[k]) === JSON.stringify(current[k]));
  if (unchanged) return { person: presentPerson(current), version: current.version };

  const row = await written(organizationId, fields.email, () => queries.updatePersonIfVersion(organizationId, id, current.version, fields));
  if (row) return { person: presentPerson(row), version: row.version };
  // Changed (or erased, or gone) between the read and the write.
  const now = await queries.findPerson(organizationId, id);
  if (!now) throw notFound("person", id);
  if (now.erasedAt) throw erasedRefused(id);
  throw preconditionFailed(now.version);
}

const hasAnimals = (id: number | bigint, placed: number) =>
  new ApiError(
    409,
    "person_has_animals",
    `Person ${id} has ${placed} animal${placed === 1 ? "" : "s"} placed with them: end ${placed === 1 ? "that placement" : "those placements"} (the animal back at the shelter, or moved to another foster) before erasing them.`,
  );

/**
 * DELETE: erases the person (every personal field null, the foster role
 * gone), keeping the row so its placements still say "a former foster".
 * 409 person_has_animals while an animal is placed with them.
 */
export async function erasePerson(organizationId: number, id: number, now: Date): Promise<void> {
  const outcome = await queries.erasePersonRow(BigInt(id), BigInt(organizationId), now);
  if (outcome.erased) return;
  if (outcome.reason === "missing") throw notFound("person", id);
  throw hasAnimals(id, outcome.placed ?? 1);
}

// An access or erasure request by email (lib/privacy): every organisation's records of that address.

/** A person's record as an access request answers it: the record, and what they sent as a foster. */
export type ExportedPerson = Person & {
  fosterApplications: { at: string; message: string | null; decision: string | null }[];
  fosterNotes: { at: string; petId: number; text: string | null }[];
};

export async function exportPeopleByEmail(email: string): Promise<ExportedPerson[]> {
  const rows = await queries.findPeopleByEmail(email.trim());
  const writings = await queries.findFosterWritings(rows.map((r) => r.id));
  return rows.map((row) => {
    const theirs = writings.filter((w) => w.personId === String(row.id));
    return {
      ...presentPerson(row),
      fosterApplications: theirs.filter((w) => w.kind === "application").map((w) => ({ at: w.at.toISOString(), message: w.text, decision: w.decision })),
      fosterNotes: theirs.filter((w) => w.kind === "note").map((w) => ({ at: w.at.toISOString(), petId: Number(w.petId), text: w.text })),
    };
  });
}

export interface PeopleErasure {
  erased: number;
  /** People kept because an animal is placed with them (erase them once it is not). */
  refused: { id: number; organizationId: number; placed: number }[];
}

export async function erasePeopleByEmail(email: string, now: Date): Promise<PeopleErasure> {
  const out: PeopleErasure = { erased: 0, refused: [] };
  for (const row of await queries.findPeopleByEmail(email.trim())) {
    const outcome = await queries.erasePersonRow(row.id, null, now);
    if (outcome.erased) out.erased++;
    else if (outcome.reason === "placed") out.refused.push({ id: Number(row.id), organizationId: Number(row.organizationId), placed: outcome.placed ?? 1 });
  }
  return out;
}
