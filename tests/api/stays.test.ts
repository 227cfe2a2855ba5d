import { beforeAll, describe, expect, it } from "vitest";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { GET as historyRoute } from "@/app/v1/pets/[petId]/history/route";
import { GET as getPetRoute, PATCH as patchPet } from "@/app/v1/pets/[petId]/route";
import { POST as endRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { PATCH as correctRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/route";
import { GET as listStaysRoute, POST as openRoute } from "@/app/v1/pets/[petId]/stays/route";
import { GET as listPets, POST as createRoute } from "@/app/v1/pets/route";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import { db } from "@/lib/db";
import type { PetChangeEvent as PetEvent } from "@/lib/events/schemas";
import { createPet } from "@/lib/pets/service";
import { petView } from "@/lib/pets/present";
import { newPetSchema, type Pet } from "@/lib/pets/schemas/pet";
import type { Stay } from "@/lib/stays/schemas";
import { FIRST_ORG, ORIGIN, call, expectApiError, expectJson, newKey, newOrganization, staffSession, type CallOptions, type StaffSession } from "./helpers";

// An animal's stays (issue 42, docs/decisions/023): the rules of opening,
// ending and correcting them, what follows for the animal (status, in care),
// the adoption workflow and a change of status by hand, the audit records and
// events, and who may read and write them.

let key: string;
let reader: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter records"));
  ({ key: reader } = await newKey(["pets:read"], "adopters' site"));
  staff = await staffSession();
  await db().organization.update({ where: { id: BigInt(FIRST_ORG) }, data: { timeZone: "America/Chicago" } });
});

const auth = (): CallOptions => ({ key });

async function create(json: Record<string, unknown> = {}): Promise<Pet> {
  return expectJson<Pet>(await call(createRoute, "/v1/pets", { method: "POST", key, json: { name: "Biscuit", categoryId: 1, ...json } }), 201);
}
const stays = (petId: number, who: CallOptions = auth()) => call(listStaysRoute, `/v1/pets/${petId}/stays`, { params: { petId: String(petId) }, ...who });
const staysOf = async (petId: number) => expectJson<Stay[]>(await stays(petId));
const open = (petId: number, intake: Record<string, unknown>, who: CallOptions = auth()) =>
  call(openRoute, `/v1/pets/${petId}/stays`, { method: "POST", json: { intake }, params: { petId: String(petId) }, ...who });
const end = (petId: number, stayId: number, json: Record<string, unknown>, who: CallOptions = auth()) =>
  call(endRoute, `/v1/pets/${petId}/stays/${stayId}/outcome`, { method: "POST", json, params: { petId: String(petId), stayId: String(stayId) }, ...who });
const correct = (petId: number, stayId: number, json: Record<string, unknown>, who: CallOptions = auth()) =>
  call(correctRoute, `/v1/pets/${petId}/stays/${stayId}`, { method: "PATCH", json, params: { petId: String(petId), stayId: String(stayId) }, ...who });
const row = (petId: number) => db().pet.findUniqueOrThrow({ where: { id: BigInt(petId) }, select: { status: true, inCare: true, version: true } });
const publicIds = async () => (await expectJson<Pet[]>(await call(listPets, "/v1/pets?limit=100", { key: reader }))).map((p) => p.id);

async function eventsOf(petId: number): Promise<PetEvent[]> {
  const all = await expectJson<PetEvent[]>(await call(listEventsRoute, "/v1/events?limit=100", { key }));
  return all.filter((e) => e.data.pet.id === petId);
}

describe("adding an animal opens its first stay", () => {
  it("without an intake: otherIntake, now", async () => {
    const before = Date.now();
    const pet = await create();
    const [stay, ...more] = await staysOf(pet.id);
    expect(more).toEqual([]);
    expect(stay).toMatchObject({ intake: { type: "otherIntake", subtype: null }, outcome: null });
    expect(Date.parse(stay!.intake.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(stay!.intake.at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("with an intake on a date: midnight of that day in the organisation's time zone (Chicago, UTC-6 in winter), the type and the shelter's word", async () => {
    const pet = await create({ intake: { at: "2026-01-15", type: "stray", subtype: "Found on Main St" } });
    expect(await staysOf(pet.id)).toEqual([
      { id: expect.any(Number), intake: { at: "2026-01-15T06:00:00.000Z", type: "stray", subtype: "Found on Main St", detail: null }, outcome: null },
    ]);
    const [local] = await db().$queryRaw<{ day: string }[]>`SELECT intake_on::text AS day FROM pet_stays WHERE pet_id = ${BigInt(pet.id)}`;
    expect(local!.day).toBe("2026-01-15");
  });

  it("an intake in the future, or not a time, is refused naming intake.at; nothing is added", async () => {
    const count = await db().pet.count();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    for (const at of [future, "2999-01-01", "yesterday", "2026-02-30"]) {
      const res = await call(createRoute, "/v1/pets", { method: "POST", key, json: { name: "Later", categoryId: 1, intake: { at, type: "stray" } } });
      const body = await expectApiError(res, 400, "invalid_body");
      expect(
        body.details?.map((d) => d.field),
        at,
      ).toEqual(["intake.at"]);
    }
    const tooLong = await call(createRoute, "/v1/pets", {
      method: "POST",
      key,
      json: { name: "Wordy", categoryId: 1, intake: { type: "stray", subtype: "x".repeat(101) } },
    });
    expect((await expectApiError(tooLong, 400, "invalid_body")).details?.map((d) => d.field)).toEqual(["intake.subtype"]);
    expect(await db().pet.count()).toBe(count);
  });

  it("a sold animal's first stay ends at once with its adoption; { stays: 'provided' } opens none (imports bring their own)", async () => {
    const sold = await create({ status: "sold" });
    expect((await staysOf(sold.id))[0]!.outcome).toMatchObject({ type: "adoption" });
    const context = {
      actor: { kind: "staff" as const, id: staff.staffId, email: staff.email },
      requestId: "import-1",
      tenancy: { kind: "organization" as const, organizationId: FIRST_ORG },
    };
    const imported = await createPet(newPetSchema.parse({ name: "Imported", categoryId: 1 }), context, petView(new Date(), ORIGIN), undefined, {
      stays: "provided",
    });
    expect(await staysOf(imported.id)).toEqual([]);
  });
});

describe("an outcome other than adoption takes the animal out of care; a new intake brings it back", () => {
  it("transferredOut: out of care (off the public list, 404 to adopters' keys), still read by staff with its stays; 409 stay_ended after", async () => {
    const pet = await create({ name: "Pilot" });
    const [first] = await staysOf(pet.id);
    expect(await publicIds()).toContain(pet.id);

    const ended = await expectJson<Stay>(await end(pet.id, first!.id, { type: "transferredOut", subtype: "To County Humane" }));
    expect(ended.outcome).toMatchObject({ type: "transferredOut", subtype: "To County Humane" });
    expect(await row(pet.id)).toMatchObject({ status: "available", inCare: false, version: 2 });
    expect(await publicIds()).not.toContain(pet.id);
    await expectApiError(await call(getPetRoute, `/v1/pets/${pet.id}`, { key: reader, params: { petId: String(pet.id) } }), 404, "not_found");
    // Staff still read it, and its stays.
    expect((await expectJson<Pet>(await call(getPetRoute, `/v1/pets/${pet.id}`, { headers: staff.headers, params: { petId: String(pet.id) } }))).id).toBe(
      pet.id,
    );
    expect(await expectJson<Stay[]>(await stays(pet.id, { headers: staff.headers }))).toEqual([ended]);

    await expectApiError(await end(pet.id, first!.id, { type: "adoption" }), 409, "stay_ended");

    // A return: a new stay, in care and available again, listed again.
    const back = await expectJson<Stay>(await open(pet.id, { type: "transferredIn" }), 201);
    expect(back.outcome).toBeNull();
    expect((await staysOf(pet.id)).map((s) => s.id)).toEqual([first!.id, back.id]);
    expect(await row(pet.id)).toMatchObject({ status: "available", inCare: true, version: 3 });
    expect(await publicIds()).toContain(pet.id);
    await expectApiError(await open(pet.id, { type: "stray" }), 409, "stay_open");

    // Each change: its audit record and event, in order.
    const types = (await eventsOf(pet.id)).map((e) => e.type);
    expect(types).toEqual(["pet.created", "pet.stay.ended", "pet.stay.started"]);
    const ev = (await eventsOf(pet.id))[1]!;
    expect(ev.data).toMatchObject({ stay: ended, previous: {} });
    const history = await expectJson<HistoryEntry[]>(
      await call(historyRoute, `/v1/pets/${pet.id}/history`, { headers: staff.headers, params: { petId: String(pet.id) } }),
    );
    expect(history.map((h) => [h.action, h.version])).toEqual([
      ["stay_started", 3],
      ["stay_ended", 2],
      ["created", 1],
    ]);
  });

  it("an outcome before its intake, or in the future, is refused naming both dates / the field", async () => {
    const pet = await create({ intake: { at: "2026-03-10T12:00:00Z", type: "stray" } });
    const [stay] = await staysOf(pet.id);
    const early = await expectApiError(await end(pet.id, stay!.id, { at: "2026-03-01T00:00:00Z", type: "diedInCare" }), 400, "invalid_body");
    expect(early.message).toContain("2026-03-01T00:00:00.000Z");
    expect(early.message).toContain("2026-03-10T12:00:00.000Z");
    const later = await expectApiError(
      await end(pet.id, stay!.id, { at: new Date(Date.now() + 3_600_000).toISOString(), type: "diedInCare" }),
      400,
      "invalid_body",
    );
    expect(later.details?.map((d) => d.field)).toEqual(["at"]);
    await expectApiError(await end(pet.id, 987654321, { type: "diedInCare" }), 404, "not_found");
    expect(await row(pet.id)).toMatchObject({ inCare: true, version: 1 });
  });
});

describe("stays never overlap", () => {
  it("a new intake inside an earlier stay, or a correction that reaches into another, is 409 stay_overlap naming both stays' dates; never 500", async () => {
    const pet = await create({ intake: { at: "2025-05-01T00:00:00Z", type: "stray" } });
    const [first] = await staysOf(pet.id);
    await expectJson(await end(pet.id, first!.id, { at: "2025-06-01T00:00:00Z", type: "returnedToOwner" }));
    const inside = await expectApiError(await open(pet.id, { at: "2025-05-15T00:00:00Z", type: "stray" }), 409, "stay_overlap");
    expect(inside.message).toContain("2025-05-15T00:00:00.000Z");
    expect(inside.message).toContain("2025-05-01T00:00:00.000Z");
    expect(inside.message).toContain("2025-06-01T00:00:00.000Z");

    // Back on the day it left: not an overlap (the ranges are half-open).
    const second = await expectJson<Stay>(await open(pet.id, { at: "2025-06-01T00:00:00Z", type: "relinquishedByOwner" }), 201);
    const reach = await expectApiError(await correct(pet.id, first!.id, { outcome: { at: "2025-07-01T00:00:00Z" } }), 409, "stay_overlap");
    expect(reach.message).toContain("2025-07-01T00:00:00.000Z");
    expect(reach.message).toContain("2025-06-01T00:00:00.000Z");
    expect(reach.details?.map((d) => d.field)).toEqual(["outcome.at"]);
    const backwards = await expectApiError(await correct(pet.id, second.id, { intake: { at: "2025-04-01" } }), 409, "stay_overlap");
    expect(backwards.details?.map((d) => d.field)).toEqual(["intake.at"]);
    // The database itself refuses it too, whatever path writes.
    await expect(db().petStay.update({ where: { id: BigInt(second.id) }, data: { intakeAt: new Date("2025-05-20T00:00:00Z") } })).rejects.toThrow(
      /pet_stays_no_overlap/,
    );
  });
});

describe("corrections", () => {
  it("a date, type or subtype; correcting the last outcome's type re-derives the animal (adoption ↔ out of care)", async () => {
    const pet = await create({ intake: { at: "2026-02-01", type: "stray" } });
    const [stay] = await staysOf(pet.id);
    const fixed = await expectJson<Stay>(
      await correct(pet.id, stay!.id, { intake: { type: "relinquishedByOwner", subtype: "OWNER SURRENDER", at: "2026-02-02" } }),
    );
    expect(fixed.intake).toEqual({ at: "2026-02-02T06:00:00.000Z", type: "relinquishedByOwner", subtype: "OWNER SURRENDER", detail: null });
    await expectApiError(await correct(pet.id, stay!.id, { outcome: { type: "adoption" } }), 409, "stay_open");
    await expectApiError(await correct(pet.id, stay!.id, {}), 400, "invalid_body");
    await expectApiError(await correct(pet.id, stay!.id, { intake: { colour: "red" } }), 400, "invalid_body");

    await expectJson(await end(pet.id, stay!.id, { type: "adoption", at: "2026-03-01" }));
    expect(await row(pet.id)).toMatchObject({ status: "sold", inCare: true });
    await expectJson(await correct(pet.id, stay!.id, { outcome: { type: "transferredOut" } }));
    expect(await row(pet.id)).toMatchObject({ status: "available", inCare: false });
    await expectJson(await correct(pet.id, stay!.id, { outcome: { type: "adoption" } }));
    expect(await row(pet.id)).toMatchObject({ status: "sold", inCare: true });
    const events = (await eventsOf(pet.id)).map((e) => e.type);
    expect(events).toEqual(["pet.created", "pet.updated", "pet.stay.ended", "pet.updated", "pet.updated"]);
  });
});

describe("the status and the stay never disagree", () => {
  it("sold by hand ends the open stay with an adoption at that moment (pet.updated and pet.stay.ended); back to available by hand reopens it (a correction)", async () => {
    const pet = await create();
    const [stay] = await staysOf(pet.id);
    const before = Date.now();
    await expectJson(await call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", json: { status: "sold" }, key, params: { petId: String(pet.id) } }));
    const [ended] = await staysOf(pet.id);
    expect(ended!.outcome).toMatchObject({ type: "adoption", subtype: null });
    expect(Date.parse(ended!.outcome!.at)).toBeGreaterThanOrEqual(before - 1000);
    const events = await eventsOf(pet.id);
    expect(events.map((e) => [e.type, e.data.pet.version])).toEqual([
      ["pet.created", 1],
      ["pet.updated", 2],
      ["pet.stay.ended", 2],
    ]);

    await expectJson(await call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", json: { status: "available" }, key, params: { petId: String(pet.id) } }));
    expect(await staysOf(pet.id)).toEqual([{ ...stay, outcome: null }]);
    expect(await row(pet.id)).toMatchObject({ status: "available", inCare: true });
  });

  it("the adoption workflow ends the stay: completing an application makes the animal sold and its stay ends with adoption", async () => {
    const pet = await create({ name: "Juniper" });
    const res = await call(applyRoute, `/v1/pets/${pet.id}/applications`, {
      method: "POST",
      key: (await newKey(["pets:read", "applications:write"], "listing site")).key,
      params: { petId: String(pet.id) },
      json: { name: "Sam", email: "sam.stays@example.org", home: "house", message: "Hello", consent: true },
    });
    const application = (await expectJson<{ id: number }>(res, 201)).id;
    const step = (to: string) =>
      call(transitionRoute, `/v1/applications/${application}/transitions`, {
        method: "POST",
        json: { to },
        headers: staff.headers,
        params: { applicationId: String(application) },
      });
    await expectJson(await step("approved"));
    // While the adoption is under way, its application decides the status: recording an adoption by hand waits for it.
    const [stay] = await staysOf(pet.id);
    await expectApiError(await end(pet.id, stay!.id, { type: "adoption" }), 409, "adoption_in_progress");
    await expectJson(await step("completed"));
    const after = await staysOf(pet.id);
    expect(after).toHaveLength(1);
    expect(after[0]!.outcome).toMatchObject({ type: "adoption" });
    expect(await row(pet.id)).toMatchObject({ status: "sold", inCare: true });
    expect((await eventsOf(pet.id)).map((e) => e.type).slice(-2)).toEqual(["pet.updated", "pet.stay.ended"]);

    // Returned after its adoption: a new intake, a new stay; the adoption stays recorded.
    const back = await expectJson<Stay>(await open(pet.id, { type: "relinquishedByOwner", subtype: "Returned" }), 201);
    expect((await staysOf(pet.id)).map((s) => [s.id, s.outcome?.type ?? null])).toEqual([
      [after[0]!.id, "adoption"],
      [back.id, null],
    ]);
    expect(await row(pet.id)).toMatchObject({ status: "available", inCare: true });
  });
});

describe("who may read and write stays", () => {
  it("its organisation's staff and keys with records:read / records:write; a key without them 403; another organisation's key and staff 403; nothing changes", async () => {
    const pet = await create();
    const [stay] = await staysOf(pet.id);
    expect((await stays(pet.id, { headers: staff.headers })).status).toBe(200);
    const petsOnly = (await newKey(["pets:read", "pets:write"], "pets only")).key;
    await expectApiError(await stays(pet.id, { key: petsOnly }), 403, "forbidden");
    await expectApiError(await end(pet.id, stay!.id, { type: "diedInCare" }, { key: petsOnly }), 403, "forbidden");
    const readOnly = (await newKey(["records:read"], "records reader")).key;
    expect((await stays(pet.id, { key: readOnly })).status).toBe(200);
    await expectApiError(await open(pet.id, { type: "stray" }, { key: readOnly }), 403, "forbidden");

    const other = await newOrganization({ name: "Elsewhere Stays" });
    const foreignKey = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "foreign", { plan: "pro" }, other)).key;
    const foreignStaff = await staffSession(undefined, { organizationId: other });
    for (const who of [{ key: foreignKey }, { headers: foreignStaff.headers }]) {
      await expectApiError(await stays(pet.id, who), 403, "forbidden");
      await expectApiError(await end(pet.id, stay!.id, { type: "diedInCare" }, who), 403, "forbidden");
      await expectApiError(await correct(pet.id, stay!.id, { intake: { type: "stray" } }, who), 403, "forbidden");
      await expectApiError(await open(pet.id, { type: "stray" }, who), 403, "forbidden");
    }
    expect(await staysOf(pet.id)).toEqual([stay]);
    expect(await row(pet.id)).toMatchObject({ version: 1, inCare: true });
    await expectApiError(await stays(987654321), 404, "not_found");
  });
});

describe("the organisation's time zone", () => {
  it("is read and set through the organisation's API (an IANA name the database knows, else 400 naming timeZone); a date is midnight there", async () => {
    const { GET: getOrg, PATCH: patchOrg } = await import("@/app/v1/organizations/[organizationId]/route");
    const other = await newOrganization({ name: "Paris Refuge" });
    const orgKey = (await newKey(["organizations:manage", "pets:read", "pets:write", "records:read", "records:write"], "paris", { plan: "pro" }, other)).key;
    const path = `/v1/organizations/${other}`;
    const params = { organizationId: String(other) };
    expect((await expectJson<{ timeZone: string }>(await call(getOrg, path, { key: orgKey, params }))).timeZone).toBe("UTC");
    for (const timeZone of ["Mars/Olympus_Mons", "UTC+3", ""]) {
      const refused = await expectApiError(await call(patchOrg, path, { method: "PATCH", key: orgKey, params, json: { timeZone } }), 400, "invalid_body");
      expect(
        refused.details?.map((d) => d.field),
        timeZone,
      ).toEqual(["timeZone"]);
    }
    const saved = await expectJson<{ timeZone: string }>(
      await call(patchOrg, path, { method: "PATCH", key: orgKey, params, json: { timeZone: "Europe/Paris" } }),
    );
    expect(saved.timeZone).toBe("Europe/Paris");
    const pet = await expectJson<Pet>(
      await call(createRoute, "/v1/pets", { method: "POST", key: orgKey, json: { name: "Minou", categoryId: 2, intake: { at: "2026-07-14", type: "stray" } } }),
      201,
    );
    const [stay] = await expectJson<Stay[]>(await stays(pet.id, { key: orgKey }));
    expect(stay!.intake.at).toBe("2026-07-13T22:00:00.000Z");
  });
});

describe("an animal out of care cannot be sold by hand", () => {
  it("409 stay_ended until a new intake; nothing changes", async () => {
    const pet = await create({ name: "Drifter" });
    const [stay] = await staysOf(pet.id);
    await expectJson(await end(pet.id, stay!.id, { type: "lostInCare" }));
    const before = await row(pet.id);
    await expectApiError(
      await call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", json: { status: "sold" }, key, params: { petId: String(pet.id) } }),
      409,
      "stay_ended",
    );
    expect(await row(pet.id)).toEqual(before);
    await expectJson(await open(pet.id, { type: "stray" }), 201);
    await expectJson(await call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", json: { status: "sold" }, key, params: { petId: String(pet.id) } }));
    expect((await staysOf(pet.id)).map((s) => s.outcome?.type)).toEqual(["lostInCare", "adoption"]);
  });
});
