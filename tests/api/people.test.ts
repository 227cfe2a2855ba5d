import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/v1/organizations/[organizationId]/people/[personId]/route";
import { GET as listRoute, POST as createRoute } from "@/app/v1/organizations/[organizationId]/people/route";
import { db } from "@/lib/db";
import type { Person } from "@/lib/people/schemas";
import type { Scope } from "@/lib/keys/schemas";
import { captureLogLines } from "@/tests/log-capture";
import { FIRST_ORG, call, createPet, expectApiError, expectJson, newKey, newOrganization, parseLink, staffSession, type CallOptions } from "./helpers";

// An organisation's people and the fosters among them (issue 50,
// docs/decisions/028): creating, the one email per organisation, the
// filters (hasRoom on a day, with blackouts and open placements), merge
// patches with If-Match, erasure that keeps the placements, tenancy, scopes,
// and the bad input table. Personal data never reaches a log line.

const { lines } = captureLogLines();

let writer: string;
let petsKey: string;
let otherOrg: number;
let otherWriter: string;

beforeAll(async () => {
  ({ key: writer } = await newKey(["pets:read", "pets:write", "people:read", "people:write"], "shelter people"));
  ({ key: petsKey } = await newKey(["pets:read", "pets:write"], "animals only"));
  otherOrg = await newOrganization({ name: "People Elsewhere" });
  ({ key: otherWriter } = await newKey(["pets:read", "people:read", "people:write"], "elsewhere people", { plan: "pro" }, otherOrg));
  await db().organization.update({ where: { id: BigInt(FIRST_ORG) }, data: { timeZone: "America/Chicago" } });
});

const base = (org = FIRST_ORG) => `/v1/organizations/${org}/people`;
const as = (key = writer): CallOptions => ({ key });

const post = (json: unknown, who: CallOptions = as(), org = FIRST_ORG) =>
  call(createRoute, base(org), { method: "POST", json, params: { organizationId: String(org) }, ...who });
const list = (query = "", who: CallOptions = as(), org = FIRST_ORG) =>
  call(listRoute, `${base(org)}${query ? `?${query}` : ""}`, { params: { organizationId: String(org) }, ...who });
const get = (id: number, who: CallOptions = as(), org = FIRST_ORG) =>
  call(getRoute, `${base(org)}/${id}`, { params: { organizationId: String(org), personId: String(id) }, ...who });
const patch = (id: number, json: unknown, who: CallOptions = as(), org = FIRST_ORG) =>
  call(patchRoute, `${base(org)}/${id}`, {
    method: "PATCH",
    json,
    params: { organizationId: String(org), personId: String(id) },
    ...who,
    headers: { "content-type": "application/merge-patch+json", ...who.headers },
  });
const erase = (id: number, who: CallOptions = as(), org = FIRST_ORG) =>
  call(deleteRoute, `${base(org)}/${id}`, { method: "DELETE", params: { organizationId: String(org), personId: String(id) }, ...who });

async function person(json: Record<string, unknown>): Promise<Person> {
  return expectJson<Person>(await post(json), 201);
}

/** An animal placed with the person now (inserted with SQL: the placements' routes are another part). */
async function placeWith(personId: number, name = "Placed"): Promise<{ petId: number; placementId: number }> {
  const pet = await createPet({ name }, { key: writer });
  const [stay] = await db().$queryRaw<{ id: bigint }[]>`SELECT id FROM pet_stays WHERE pet_id = ${BigInt(pet.id)} AND outcome_at IS NULL`;
  const [placement] = await db().$queryRaw<{ id: bigint }[]>`
    INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at)
    VALUES (${BigInt(pet.id)}, ${BigInt(FIRST_ORG)}, ${stay!.id}, ${BigInt(personId)}, now()) RETURNING id`;
  return { petId: pet.id, placementId: Number(placement!.id) };
}

const ROBIN = {
  name: "Robin Fields",
  email: "Robin.Fields@Example.org",
  phone: "+1 312 555 0142",
  address: { street: "1 N State St", city: "Chicago", region: "IL", postcode: "60602", country: "us" },
  notes: "Has a fenced yard.",
  foster: { status: "active", capacity: 2, species: ["dog"], blackouts: [{ from: "2026-12-24", to: "2027-01-02" }] },
};

describe("creating a person", () => {
  it("answers 201 with Location and ETag; the US ZIP code places the home at its centre", async () => {
    const res = await post(ROBIN);
    const robin = await expectJson<Person>(res, 201);
    expect(res.headers.get("location")).toBe(`http://localhost${base()}/${robin.id}`);
    expect(res.headers.get("etag")).toBe('"1"');
    expect(robin).toEqual({
      id: expect.any(Number),
      organizationId: FIRST_ORG,
      name: "Robin Fields",
      email: "Robin.Fields@Example.org",
      phone: "+1 312 555 0142",
      address: { street: "1 N State St", city: "Chicago", region: "IL", postcode: "60602", country: "US" },
      notes: "Has a fenced yard.",
      foster: { status: "active", capacity: 2, species: ["dog"], blackouts: [{ from: "2026-12-24", to: "2027-01-02" }], placedCount: 0, room: 2 },
      erased: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await db().person.findUniqueOrThrow({ where: { id: BigInt(robin.id) }, select: { lat: true, lng: true } });
    expect(row.lat).toBeCloseTo(41.88, 1);
    expect(row.lng).toBeCloseTo(-87.63, 1);
    expect(await expectJson<Person>(await get(robin.id))).toEqual(robin);
  });

  it("a name alone is a person who does not foster; a foster's status and capacity default to applicant and 1; a home outside the US has no position", async () => {
    const plain = await person({ name: "Just A Name" });
    expect(plain).toMatchObject({ email: null, phone: null, address: null, notes: null, foster: null, erased: false });
    const applicant = await person({ name: "New Applicant", address: { city: "Toronto", postcode: "M5V 2T6", country: "CA" }, foster: {} });
    expect(applicant.foster).toEqual({ status: "applicant", capacity: 1, species: [], blackouts: [], placedCount: 0, room: 1 });
    const row = await db().person.findUniqueOrThrow({ where: { id: BigInt(applicant.id) }, select: { lat: true, lng: true } });
    expect(row).toEqual({ lat: null, lng: null });
  });

  it("a second person with the same email, in any case, is 409 person_exists naming the first; another organisation may have it", async () => {
    const first = await person({ name: "Sam Original", email: "sam.dup@example.org" });
    const body = await expectApiError(await post({ name: "Sam Again", email: "SAM.DUP@example.ORG" }), 409, "person_exists");
    expect(body.message).toContain(`person ${first.id} (Sam Original)`);
    expect(body.details).toEqual([{ field: "email", issue: expect.stringContaining(`person ${first.id}`) }]);
    // And by a patch.
    const other = await person({ name: "Sam Other", email: "sam.other@example.org" });
    await expectApiError(await patch(other.id, { email: "Sam.Dup@example.org" }), 409, "person_exists");
    expect((await post({ name: "Sam Elsewhere", email: "sam.dup@example.org" }, as(otherWriter), otherOrg)).status).toBe(201);
  });
});

describe("the list", () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    const make = async (name: string, foster: Record<string, unknown> | null, email?: string) =>
      (await person({ name, email: email ?? `${name.toLowerCase().replace(/\W+/g, ".")}@list.example`, foster })).id;
    ids = {
      roomy: await make("Ann Roomy", { status: "active", capacity: 2, species: [] }),
      full: await make("Bea Full", { status: "active", capacity: 1, species: ["cat"] }),
      away: await make("Cal Away", { status: "active", capacity: 3, species: ["dog"], blackouts: [{ from: "2030-03-01", to: "2030-03-10" }] }),
      paused: await make("Dee Paused", { status: "paused", capacity: 2 }),
      applicant: await make("Eve Applicant", { status: "applicant", capacity: 1, species: ["dog", "cat"] }),
      neighbour: await make("Fay Neighbour", null, "fay@somewhere.example"),
    };
    await placeWith(ids.full!, "Whiskers");
    await placeWith(ids.roomy!, "Rex");
  });

  const names = async (query: string) => (await expectJson<Person[]>(await list(query))).map((p) => p.name);

  it("is in name order and pages through the Link header, each person once", async () => {
    const seen: string[] = [];
    let url: string | undefined = `${base()}?q=.example&limit=2`;
    while (url) {
      const res: Response = await call(listRoute, url, { params: { organizationId: String(FIRST_ORG) }, ...as() });
      seen.push(...(await expectJson<Person[]>(res)).map((p) => p.name!));
      url = parseLink(res.headers.get("link")).next;
    }
    expect(seen.filter((n) => /^(Ann|Bea|Cal|Dee|Eve|Fay) /.test(n))).toEqual([
      "Ann Roomy",
      "Bea Full",
      "Cal Away",
      "Dee Paused",
      "Eve Applicant",
      "Fay Neighbour",
    ]);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("filters by role, status (a comma list), species and q (name or email, ignoring case)", async () => {
    expect(await names("role=foster&q=list.example")).toEqual(["Ann Roomy", "Bea Full", "Cal Away", "Dee Paused", "Eve Applicant"]);
    expect(await names("status=paused,applicant&q=list.example")).toEqual(["Dee Paused", "Eve Applicant"]);
    expect(await names("species=cat&q=list.example")).toEqual(["Ann Roomy", "Bea Full", "Dee Paused", "Eve Applicant"]);
    expect(await names("q=SOMEWHERE")).toEqual(["Fay Neighbour"]);
    expect(await names("q=fay neigh")).toEqual(["Fay Neighbour"]);
    expect(await names("q=%25")).toEqual([]);
  });

  it("hasRoom: active, capacity above the open placements, the day in no blackout; placedCount and room say it", async () => {
    expect(await names("hasRoom=true&on=2030-03-05&q=list.example")).toEqual(["Ann Roomy"]);
    expect(await names("hasRoom=true&on=2030-03-11&q=list.example")).toEqual(["Ann Roomy", "Cal Away"]);
    expect(await names("hasRoom=true&q=list.example")).toEqual(["Ann Roomy", "Cal Away"]);
    expect(await names("hasRoom=false&on=2030-03-05&q=list.example")).toEqual(["Bea Full", "Cal Away", "Dee Paused", "Eve Applicant"]);
    const [full] = await expectJson<Person[]>(await list("q=Bea"));
    expect(full!.foster).toMatchObject({ capacity: 1, placedCount: 1, room: 0 });
    const [roomy] = await expectJson<Person[]>(await list("q=Ann Roomy"));
    expect(roomy!.foster).toMatchObject({ capacity: 2, placedCount: 1, room: 1 });
    // A capacity lowered below the animals placed: room is 0, never negative.
    await patch(ids.roomy!, { foster: { capacity: 1 } });
    expect((await expectJson<Person>(await get(ids.roomy!))).foster).toMatchObject({ capacity: 1, placedCount: 1, room: 0 });
    expect(await names("hasRoom=true&on=2030-03-11&q=list.example")).toEqual(["Cal Away"]);
    await patch(ids.roomy!, { foster: { capacity: 2 } });
  });

  it("refuses a bad filter, `on` without hasRoom, and another list's cursor", async () => {
    await expectApiError(await list("status=sleeping"), 400, "invalid_query");
    await expectApiError(await list("on=2030-01-01"), 400, "invalid_query");
    await expectApiError(await list("hasRoom=yes"), 400, "invalid_query");
    await expectApiError(await list("role=adopter"), 400, "invalid_query");
    await expectApiError(await list("cursor=abc"), 400, "invalid_cursor");
  });
});

describe("a merge patch", () => {
  it("changes only what it names: foster fields one by one, the address field by field; null removes the role", async () => {
    const p = await person({ ...ROBIN, email: "patch.me@example.org" });
    const paused = await expectJson<Person>(await patch(p.id, { foster: { status: "paused" } }));
    expect(paused).toEqual({ ...p, foster: { ...p.foster!, status: "paused" }, updatedAt: expect.any(String) });
    const moved = await expectJson<Person>(await patch(p.id, { address: { street: null, postcode: "60201" } }));
    expect(moved.address).toEqual({ street: null, city: "Chicago", region: "IL", postcode: "60201", country: "US" });
    const row = await db().person.findUniqueOrThrow({ where: { id: BigInt(p.id) }, select: { lat: true } });
    expect(row.lat).toBeCloseTo(42.05, 1); // Evanston's ZIP code's centre
    const noFoster = await expectJson<Person>(await patch(p.id, { foster: null, notes: null }));
    expect(noFoster).toMatchObject({ foster: null, notes: null, name: "Robin Fields", phone: ROBIN.phone });
    const again = await expectJson<Person>(await patch(p.id, { foster: { capacity: 3 } }));
    expect(again.foster).toEqual({ status: "applicant", capacity: 3, species: [], blackouts: [], placedCount: 0, room: 3 });
  });

  it("honours If-Match: the current ETag passes, an old one is 412 with the current ETag; a patch that changes nothing keeps the version", async () => {
    const p = await person({ name: "Versioned", email: "versioned@example.org" });
    const ok = await patch(p.id, { phone: "555 0100" }, { key: writer, headers: { "if-match": '"1"' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe('"2"');
    const stale = await patch(p.id, { phone: "555 0199" }, { key: writer, headers: { "if-match": '"1"' } });
    await expectApiError(stale, 412, "precondition_failed");
    expect(stale.headers.get("etag")).toBe('"2"');
    const same = await patch(p.id, { phone: "555 0100" });
    expect(same.headers.get("etag")).toBe('"2"');
    await expectApiError(await patch(p.id, { phone: "555 0100" }, { key: writer, headers: { "if-match": "nonsense" } }), 400, "invalid_header");
  });
});

describe("erasing a person", () => {
  it("is 409 person_has_animals while an animal is placed; afterwards the personal fields go, the row and its placements stay", async () => {
    const p = await person({ ...ROBIN, email: "erase.foster@example.org" });
    const { placementId } = await placeWith(p.id, "Still here");
    const refused = await expectApiError(await erase(p.id), 409, "person_has_animals");
    expect(refused.message).toContain("1 animal placed");
    expect((await expectJson<Person>(await get(p.id))).name).toBe("Robin Fields");

    await db().$executeRaw`UPDATE pet_placements SET end_at = now(), end_reason = 'returnedToShelter' WHERE id = ${BigInt(placementId)}`;
    expect((await erase(p.id)).status).toBe(204);
    const erased = await expectJson<Person>(await get(p.id));
    expect(erased).toMatchObject({ id: p.id, name: null, email: null, phone: null, address: null, notes: null, foster: null, erased: true });
    const row = await db().person.findUniqueOrThrow({ where: { id: BigInt(p.id) }, select: { lat: true, street: true, erasedAt: true } });
    expect(row).toMatchObject({ lat: null, street: null, erasedAt: expect.any(Date) });
    expect(await db().petPlacement.count({ where: { personId: BigInt(p.id) } })).toBe(1);
    // Gone from the list, its email free again, and not to be changed.
    expect((await expectJson<Person[]>(await list("q=erase.foster"))).length).toBe(0);
    expect((await post({ name: "New Owner Of The Address", email: "erase.foster@example.org" })).status).toBe(201);
    await expectApiError(await patch(p.id, { name: "Back" }), 409, "person_erased");
    expect((await erase(p.id)).status).toBe(204);
  });
});

describe("tenancy and scopes", () => {
  it("a person of another organisation is 404 alike one that does not exist, even for a platform key", async () => {
    const theirs = await expectJson<Person>(await post({ name: "Their Person" }, as(otherWriter), otherOrg), 201);
    const nobody = await expectApiError(await get(987654321), 404, "not_found");
    expect(nobody.message).toBe("There is no person with id 987654321.");
    expect((await expectApiError(await get(theirs.id), 404, "not_found")).message).toBe(`There is no person with id ${theirs.id}.`);
    await expectApiError(await patch(theirs.id, { name: "Taken" }), 404, "not_found");
    await expectApiError(await erase(theirs.id), 404, "not_found");
    const { key: platform } = await newKey(["pets:read", "people:read", "people:write"], "platform people", { plan: "pro" }, null);
    await expectApiError(await get(theirs.id, as(platform)), 404, "not_found");
    expect((await get(theirs.id, as(platform), otherOrg)).status).toBe(200);
    // Another organisation's key on this organisation's path: 403.
    await expectApiError(await list("", as(otherWriter)), 403, "forbidden");
    expect((await db().person.findUniqueOrThrow({ where: { id: BigInt(theirs.id) }, select: { name: true } })).name).toBe("Their Person");
  });

  it("needs people:read to read and people:write (with people:read) to change; staff hold both", async () => {
    const p = await person({ name: "Scoped", email: "scoped@example.org" });
    const key = async (scopes: Scope[]) => as((await newKey(scopes, "scoped")).key);
    await expectApiError(await list("", as(petsKey)), 403, "forbidden");
    await expectApiError(await get(p.id, await key(["pets:read", "records:read"])), 403, "forbidden");
    await expectApiError(await patch(p.id, { name: "No" }, await key(["people:read"])), 403, "forbidden");
    await expectApiError(await post({ name: "No" }, await key(["people:write"])), 403, "forbidden");
    expect((await get(p.id, await key(["people:read"]))).status).toBe(200);
    const staff = await staffSession();
    expect((await list("", { headers: staff.headers })).status).toBe(200);
    expect((await patch(p.id, { notes: "Staff wrote this." }, { headers: staff.headers })).status).toBe(200);
    await expectApiError(await list("", {}), 401, "unauthorized");
  });
});

describe("bad input: a clear 400 naming the field, never a 500", () => {
  const CASES: [string, unknown, number, string, string][] = [
    ["capacity 0", { name: "X", foster: { capacity: 0 } }, 400, "invalid_body", "foster.capacity"],
    ["capacity 51", { name: "X", foster: { capacity: 51 } }, 400, "invalid_body", "foster.capacity"],
    ["capacity 2.5", { name: "X", foster: { capacity: 2.5 } }, 400, "invalid_body", "foster.capacity"],
    ['capacity "three"', { name: "X", foster: { capacity: "three" } }, 400, "invalid_body", "foster.capacity"],
    ["an email without a domain", { name: "X", email: "robin@" }, 400, "invalid_body", "email"],
    ["an email without an @", { name: "X", email: "robin" }, 400, "invalid_body", "email"],
    [
      "a US postcode that is no ZIP code",
      { name: "X", address: { city: "Nowhere", postcode: "00000", country: "US" } },
      400,
      "unknown_location",
      "address.postcode",
    ],
    [
      "a US postcode that is not digits",
      { name: "X", address: { city: "Nowhere", postcode: "SW1A 1AA", country: "US" } },
      400,
      "unknown_location",
      "address.postcode",
    ],
    ["a country of three letters", { name: "X", address: { city: "Paris", country: "FRA" } }, 400, "invalid_body", "address.country"],
    ["a country that is no code", { name: "X", address: { city: "Paris", country: "XX" } }, 400, "invalid_body", "address.country"],
    [
      "a blackout ending before it starts",
      { name: "X", foster: { blackouts: [{ from: "2027-01-10", to: "2027-01-02" }] } },
      400,
      "invalid_body",
      "foster.blackouts.0.to",
    ],
    [
      "a blackout day that is no date",
      { name: "X", foster: { blackouts: [{ from: "2027-02-30", to: "2027-03-02" }] } },
      400,
      "invalid_body",
      "foster.blackouts.0.from",
    ],
    ["an unknown field", { name: "X", nickname: "Y" }, 400, "invalid_body", "nickname"],
    ["an unknown foster field", { name: "X", foster: { capacity: 1, room: 3 } }, 400, "invalid_body", "foster.room"],
    ["a name of 101 characters", { name: "x".repeat(101) }, 400, "invalid_body", "name"],
    ["a blank name", { name: "   " }, 400, "invalid_body", "name"],
    ["no name", { email: "a@b.example" }, 400, "invalid_body", "name"],
    ["a NUL byte in the notes", { name: "X", notes: "a\u0000b" }, 400, "invalid_body", "notes"],
    ["a NUL byte in the name", { name: "X\u0000Y" }, 400, "invalid_body", "name"],
    ["a species nobody takes", { name: "X", foster: { species: ["horse"] } }, 400, "invalid_body", "foster.species.0"],
    ["notes of 5001 characters", { name: "X", notes: "n".repeat(5001) }, 400, "invalid_body", "notes"],
    [
      "51 blackouts",
      { name: "X", foster: { blackouts: Array.from({ length: 51 }, () => ({ from: "2027-01-01", to: "2027-01-01" })) } },
      400,
      "invalid_body",
      "foster.blackouts",
    ],
  ];
  for (const [what, json, status, code, field] of CASES) {
    it(`${what}: ${status} ${code} naming ${field}`, async () => {
      const body = await expectApiError(await post(json), status, code);
      expect(body.details?.map((d) => d.field)).toContain(field);
    });
  }

  it("in a patch too: an unknown field, a bad capacity, an address left without a city, an empty patch", async () => {
    const p = await person({ name: "Patched Badly", address: { city: "Chicago", country: "US" } });
    expect((await expectApiError(await patch(p.id, { nickname: "Y" }), 400, "invalid_body")).details?.[0]?.field).toBe("nickname");
    expect((await expectApiError(await patch(p.id, { foster: { capacity: 0 } }), 400, "invalid_body")).details?.[0]?.field).toBe("foster.capacity");
    expect((await expectApiError(await patch(p.id, { address: { city: null } }), 400, "invalid_body")).details?.[0]?.field).toBe("address.city");
    expect((await expectApiError(await patch(p.id, { address: { postcode: "99999" } }), 400, "unknown_location")).details?.[0]?.field).toBe("address.postcode");
    await expectApiError(await patch(p.id, {}), 400, "invalid_body");
  });
});

describe("personal data stays out of logs", () => {
  it("no log line of this file holds a person's name, email, phone, street or notes", () => {
    const text = lines.join("\n");
    for (const secret of [
      "Robin Fields",
      "Robin.Fields@Example.org",
      "robin.fields@example.org",
      "312 555 0142",
      "1 N State St",
      "fenced yard",
      "sam.dup@example.org",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines.length).toBeGreaterThan(10);
  });
});
