import { beforeAll, describe, expect, it } from "vitest";
import { GET as custodyRoute } from "@/app/v1/organizations/[organizationId]/custody/route";
import { GET as eventsRoute } from "@/app/v1/events/route";
import { POST as newStayRoute } from "@/app/v1/pets/[petId]/stays/route";
import { POST as outcomeRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { POST as createRoute } from "@/app/v1/pets/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { db } from "@/lib/db";
import type { PetEvent } from "@/lib/events/schemas";
import type { CustodyEntry, Placement } from "@/lib/placements/schemas";
import type { Pet } from "@/lib/pets/schemas/pet";
import { attemptDeliveries } from "@/lib/webhooks/delivery";
import { dispatchEvents } from "@/lib/webhooks/dispatch";
import { startReceiver } from "@/tests/webhook-receiver";
import {
  allowPrivateWebhooks,
  call,
  expectApiError,
  expectJson,
  newKey,
  newOrganization,
  parseLink,
  staffSession,
  type CallOptions,
  type StaffSession,
} from "./helpers";
import { newFoster, recordsCallers, place, placementRows, placementsOf, staysOf } from "./placements-helpers";

// Intake straight into a foster home (a new animal, a new stay: the stay and
// the placement start together or not at all), the staff's custody list, and
// what the feed and webhooks say of a placement (never a person).

allowPrivateWebhooks();

let key: string;
let staff: StaffSession;
const asKey = (): CallOptions => ({ key });

beforeAll(async () => ({ key, staff } = await recordsCallers()));

const create = (json: Record<string, unknown>) => call(createRoute, "/v1/pets", { method: "POST", key, json: { name: "Biscuit", categoryId: 1, ...json } });

describe("intake straight into a foster home", () => {
  it("on creating an animal: its first stay and the placement start together at the intake's instant", async () => {
    const foster = await newFoster();
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const pet = await expectJson<Pet>(await create({ intake: { type: "stray", at, fosterId: foster } }), 201);
    const [stay] = await staysOf(pet.id, asKey());
    expect(stay!.intake.at).toBe(at);
    expect(await placementsOf(pet.id, asKey())).toEqual([expect.objectContaining({ personId: foster, stayId: stay!.id, startAt: at, endAt: null })]);
    // An ordinary create is untouched.
    expect(await placementsOf((await expectJson<Pet>(await create({}), 201)).id, asKey())).toEqual([]);
  });

  it("a refused fosterId creates no animal and no stay (409s naming intake.fosterId; 404 for a person not of the organisation)", async () => {
    const before = { pets: await db().pet.count(), stays: await db().petStay.count(), audit: await db().petAudit.count() };
    const cases: [number, number, string][] = [
      [await newFoster({ status: "paused" }), 409, "foster_not_active"],
      [await newFoster({ blackouts: [{ from: "2000-01-01", to: "2099-12-31" }] }), 409, "foster_in_blackout"],
      [await newFoster({ species: ["other"] }), 409, "foster_species"],
      [await newFoster({ organizationId: await newOrganization() }), 404, "not_found"],
    ];
    const full = await newFoster({ capacity: 1 });
    await expectJson(await create({ intake: { type: "stray", fosterId: full } }), 201);
    const afterFull = { pets: await db().pet.count(), stays: await db().petStay.count(), audit: await db().petAudit.count() };
    cases.push([full, 409, "foster_full"]);
    for (const [fosterId, status, code] of cases) {
      const body = await expectApiError(await create({ intake: { type: "stray", fosterId } }), status, code);
      expect(body.details?.[0]?.field).toBe("intake.fosterId");
    }
    expect(afterFull.pets).toBe(before.pets + 1);
    expect({ pets: await db().pet.count(), stays: await db().petStay.count(), audit: await db().petAudit.count() }).toEqual(afterFull);
    // A key that lists animals (pets:write) but does not write records may not place one.
    const lister = (await newKey(["pets:read", "pets:write"], "lister")).key;
    const listed = await call(createRoute, "/v1/pets", {
      method: "POST",
      key: lister,
      json: { name: "Listed", categoryId: 1, intake: { type: "stray", fosterId: await newFoster() } },
    });
    await expectApiError(listed, 403, "forbidden");
    expect(await db().pet.count()).toBe(afterFull.pets);
    // A sold animal's first stay ends at once: there is no stay to place it in.
    await expectApiError(await create({ status: "sold", intake: { type: "stray", fosterId: await newFoster() } }), 409, "no_open_stay");
  });

  it("on a new stay: the intake and the placement together, or neither", async () => {
    const pet = await expectJson<Pet>(await create({}), 201);
    const [first] = await staysOf(pet.id, asKey());
    const params = { petId: String(pet.id), stayId: String(first!.id) };
    await expectJson(
      await call(outcomeRoute, `/v1/pets/${pet.id}/stays/${first!.id}/outcome`, { method: "POST", key, json: { type: "transferredOut" }, params }),
    );
    const paused = await newFoster({ status: "paused" });
    const refused = await call(newStayRoute, `/v1/pets/${pet.id}/stays`, {
      method: "POST",
      key,
      json: { intake: { type: "transferredIn", fosterId: paused } },
      params: { petId: String(pet.id) },
    });
    expect((await expectApiError(refused, 409, "foster_not_active")).details?.[0]?.field).toBe("intake.fosterId");
    expect(await staysOf(pet.id, asKey())).toHaveLength(1);
    const foster = await newFoster();
    const res = await call(newStayRoute, `/v1/pets/${pet.id}/stays`, {
      method: "POST",
      key,
      json: { intake: { type: "transferredIn", fosterId: foster } },
      params: { petId: String(pet.id) },
    });
    const stay = await expectJson<{ id: number; intake: { at: string } }>(res, 201);
    expect(await placementsOf(pet.id, asKey())).toEqual([expect.objectContaining({ personId: foster, stayId: stay.id, startAt: stay.intake.at })]);
    const [record] = await db().petAudit.findMany({ where: { petId: BigInt(pet.id) }, orderBy: { id: "desc" }, take: 1 });
    expect(record).toMatchObject({ action: "stay_started", placements: [expect.objectContaining({ personId: foster })] });
  });
});

describe("custody: where each animal in care is", () => {
  let org: number;
  let orgKey: string;
  let shelterPet: Pet;
  let fostered: Pet;
  let overdue: Pet;
  let foster: number;
  let placement: Placement;

  beforeAll(async () => {
    org = await newOrganization({ name: "Custody Rescue" });
    orgKey = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "custody", { plan: "pro" }, org)).key;
    const mk = async (name: string) =>
      expectJson<Pet>(await call(createRoute, "/v1/pets", { method: "POST", key: orgKey, json: { name, categoryId: 1 } }), 201);
    shelterPet = await mk("At the shelter");
    fostered = await mk("Fostered");
    overdue = await mk("Overdue");
    await mk("Gone").then(async (gone) => {
      const [s] = await staysOf(gone.id, { key: orgKey });
      await call(outcomeRoute, `/v1/pets/${gone.id}/stays/${s!.id}/outcome`, {
        method: "POST",
        key: orgKey,
        json: { type: "transferredOut" },
        params: { petId: String(gone.id), stayId: String(s!.id) },
      });
    });
    foster = await newFoster({ organizationId: org, name: "Robin Foster", capacity: 5 });
    placement = await expectJson<Placement>(await place(fostered.id, { personId: foster, expectedEndOn: "2099-01-01" }, { key: orgKey }), 201);
    await expectJson(await place(overdue.id, { personId: foster, expectedEndOn: "2020-01-01" }, { key: orgKey }), 201);
  });

  const custody = (who: CallOptions, query = "") =>
    call(custodyRoute, `/v1/organizations/${org}/custody${query}`, { ...who, params: { organizationId: String(org) } });

  it("lists the animals in care (not those out of care) with where each is; the foster's name only for readers of the people", async () => {
    const staffOfOrg = await staffSession(undefined, { organizationId: org });
    const list = await expectJson<CustodyEntry[]>(await custody({ headers: staffOfOrg.headers }));
    expect(list.map((e) => e.name)).toEqual(["At the shelter", "Fostered", "Overdue"]);
    expect(list[0]).toEqual({ petId: shelterPet.id, name: "At the shelter", categoryId: 1, custody: { kind: "shelter" } });
    expect(list[1]!.custody).toEqual({
      kind: "foster",
      placementId: placement.id,
      personId: foster,
      personName: "Robin Foster",
      since: placement.startAt,
      expectedEndOn: "2099-01-01",
      overdue: false,
    });
    // A key without people:read: where, not who.
    const byKey = await expectJson<CustodyEntry[]>(await custody({ key: orgKey }));
    expect(byKey[1]!.custody).toMatchObject({ kind: "foster", personId: foster, personName: null });
    const peopleKey = (await newKey(["records:read", "people:read"], "people reader", { plan: "pro" }, org)).key;
    expect((await expectJson<CustodyEntry[]>(await custody({ key: peopleKey })))[1]!.custody).toMatchObject({ personName: "Robin Foster" });
  });

  it("filters: where, personId, overdue; paged by cursor", async () => {
    const names = async (query: string) => (await expectJson<CustodyEntry[]>(await custody({ key: orgKey }, query))).map((e) => e.name);
    expect(await names("?where=shelter")).toEqual(["At the shelter"]);
    expect(await names("?where=foster")).toEqual(["Fostered", "Overdue"]);
    expect(await names(`?personId=${foster}`)).toEqual(["Fostered", "Overdue"]);
    expect(await names("?personId=987654321")).toEqual([]);
    expect(await names("?overdue=true")).toEqual(["Overdue"]);
    const first = await custody({ key: orgKey }, "?limit=2");
    expect((await expectJson<CustodyEntry[]>(first)).map((e) => e.name)).toEqual(["At the shelter", "Fostered"]);
    const next = parseLink(first.headers.get("link")).next!;
    const second = await call(custodyRoute, next, { key: orgKey, params: { organizationId: String(org) } });
    expect((await expectJson<CustodyEntry[]>(second)).map((e) => e.name)).toEqual(["Overdue"]);
    for (const query of ["?where=home", "?overdue=yes", "?personId=x", "?limit=0", "?cursor=nonsense"]) {
      expect([400]).toContain((await custody({ key: orgKey }, query)).status);
    }
  });

  it("another organisation's key and staff are refused; a key without records:read too", async () => {
    await expectApiError(await custody({ key }), 403, "forbidden");
    await expectApiError(await custody({ headers: staff.headers }), 403, "forbidden");
    const reader = (await newKey(["pets:read"], "reader", { plan: "pro" }, org)).key;
    await expectApiError(await custody({ key: reader }), 403, "forbidden");
  });
});

describe("the feed and webhooks say a placement is a change of the animal, and nothing of the person", () => {
  it("pet.updated to records readers and everyone else alike, with no name, email, phone or street", async () => {
    const listingKey = (await newKey(["pets:read", "webhooks:manage"], "listing partner")).key;
    const recordsKey = (await newKey(["pets:read", "records:read", "webhooks:manage"], "records partner")).key;
    const receiver = await startReceiver();
    try {
      for (const k of [listingKey, recordsKey]) {
        await expectJson(await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key: k, json: { url: receiver.url, events: ["pet.updated"] } }), 201);
      }
      const pet = await expectJson<Pet>(await create({ name: "Private" }), 201);
      const foster = await newFoster({ name: "Secret Person Name" });
      const row = await db().person.findUniqueOrThrow({ where: { id: BigInt(foster) } });
      await expectJson(await place(pet.id, { personId: foster }, asKey()), 201);
      const personal = [row.name!, row.email!, row.phone!, row.street!];
      for (const k of [listingKey, recordsKey]) {
        const events = await expectJson<PetEvent[]>(await call(eventsRoute, "/v1/events?limit=100", { key: k }));
        const mine = events.filter((e) => e.data.pet.id === pet.id);
        expect(mine.map((e) => e.type)).toEqual(["pet.created", "pet.updated"]);
        const text = JSON.stringify(mine);
        for (const word of personal) expect(text).not.toContain(word);
      }
      await dispatchEvents();
      const pending = await db().webhookDelivery.findMany({ where: { status: "pending" }, select: { id: true } });
      await attemptDeliveries(
        pending.map((d) => d.id),
        { owner: "placements-test" },
      );
      const bodies = receiver.requests.map((r) => r.body).filter((b) => b.includes(`"id":${pet.id}`));
      expect(bodies.length).toBe(2);
      for (const body of bodies) for (const word of personal) expect(body).not.toContain(word);
      expect((await placementRows(pet.id)).length).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});
