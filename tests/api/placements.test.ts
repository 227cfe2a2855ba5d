import { beforeAll, describe, expect, it } from "vitest";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { GET as historyRoute } from "@/app/v1/pets/[petId]/history/route";
import { PATCH as patchPet } from "@/app/v1/pets/[petId]/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { POST as outcomeRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { PATCH as correctStayRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/route";
import { db } from "@/lib/db";
import type { Placement } from "@/lib/placements/schemas";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import type { Pet } from "@/lib/pets/schemas/pet";
import { FIRST_ORG, call, createPet, expectApiError, expectJson, newKey, newOrganization, parseLink, type CallOptions, type StaffSession } from "./helpers";
import {
  categoryNamed,
  recordsCallers,
  correctPlacement,
  endPlacement,
  listPlacements,
  newFoster,
  place,
  placementRows,
  placementsOf,
  staysOf,
} from "./placements-helpers";

// Where each animal is (issue 50, docs/decisions/028): placing an animal with
// a foster, moving it, bringing it back, correcting a placement, the foster's
// rules (active, not in a blackout, with room; staff may override the room),
// and every kind of outcome ending the open placement at its instant.

let key: string;
let staff: StaffSession;
let asStaff: CallOptions;
const asKey = (): CallOptions => ({ key });

beforeAll(async () => {
  ({ key, staff } = await recordsCallers());
  asStaff = { headers: staff.headers };
});

const hourAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const newPet = (json: Record<string, unknown> = {}) => createPet({ name: "Biscuit", intake: { type: "stray", at: hourAgo(48) }, ...json }, { key });
const version = async (petId: number) => (await db().pet.findUniqueOrThrow({ where: { id: BigInt(petId) }, select: { version: true } })).version;

describe("placing an animal with a foster", () => {
  it("201 with the placement, Location and the animal's ETag; listed oldest first; its version bumped with an audit record holding the placement", async () => {
    const pet = await newPet();
    const foster = await newFoster();
    const res = await place(pet.id, { personId: foster, at: hourAgo(24), expectedEndOn: "2099-01-31", note: "Quiet home" }, asKey());
    const placement = await expectJson<Placement>(res, 201);
    expect(placement).toEqual({
      id: expect.any(Number),
      personId: foster,
      stayId: (await staysOf(pet.id, asKey()))[0]!.id,
      startAt: expect.any(String),
      endAt: null,
      endReason: null,
      expectedEndOn: "2099-01-31",
      note: "Quiet home",
      capacityOverridden: false,
    });
    expect(res.headers.get("location")).toBe(`http://localhost/v1/pets/${pet.id}/placements/${placement.id}`);
    expect(res.headers.get("etag")).toBe(`"${pet.version + 1}"`);
    expect(await version(pet.id)).toBe(pet.version + 1);
    expect(await placementsOf(pet.id, asKey())).toEqual([placement]);
    const history = await expectJson<HistoryEntry[]>(
      await call(historyRoute, `/v1/pets/${pet.id}/history`, { headers: staff.headers, params: { petId: String(pet.id) } }),
    );
    expect(history[0]).toMatchObject({ action: "placement_started", version: pet.version + 1, placements: [placement] });
  });

  it("an animal with no open stay cannot be placed (409 no_open_stay); nor one already with that foster (409 placement_open)", async () => {
    const sold = await newPet({ status: "sold" });
    const foster = await newFoster();
    await expectApiError(await place(sold.id, { personId: foster }, asKey()), 409, "no_open_stay");
    const pet = await newPet();
    await expectJson(await place(pet.id, { personId: foster }, asKey()), 201);
    const again = await expectApiError(await place(pet.id, { personId: foster }, asKey()), 409, "placement_open");
    expect(again.details?.[0]?.field).toBe("personId");
  });

  it("at most one open placement: moving ends the open one as movedToAnotherFoster and starts the next at the same instant, in one change", async () => {
    const pet = await newPet();
    const [first, second] = [await newFoster(), await newFoster()];
    await expectJson(await place(pet.id, { personId: first, at: hourAgo(10) }, asKey()), 201);
    const v = await version(pet.id);
    const at = hourAgo(2);
    const moved = await expectJson<Placement>(await place(pet.id, { personId: second, at }, asKey()), 201);
    const rows = await placementRows(pet.id);
    expect(rows.map((r) => [Number(r.personId), r.endReason, r.endAt?.toISOString() ?? null])).toEqual([
      [first, "movedToAnotherFoster", new Date(at).toISOString()],
      [second, null, null],
    ]);
    expect(moved.startAt).toBe(new Date(at).toISOString());
    expect(await version(pet.id)).toBe(v + 1);
    // The database itself refuses a second open placement, whatever the path.
    await expect(
      db().petPlacement.create({
        data: { petId: BigInt(pet.id), organizationId: BigInt(FIRST_ORG), stayId: rows[0]!.stayId, personId: BigInt(first), startAt: new Date() },
      }),
    ).rejects.toThrow();
    // A move before the open placement's start would overlap it.
    await expectApiError(await place(pet.id, { personId: first, at: hourAgo(3) }, asKey()), 409, "placement_overlap");
  });

  it("listed oldest first, paged as every list is: limit and the Link header's cursors, forwards and back", async () => {
    const pet = await newPet();
    const fosters = [await newFoster(), await newFoster(), await newFoster()];
    for (const [i, personId] of fosters.entries()) await expectJson(await place(pet.id, { personId, at: hourAgo(30 - i * 10) }, asKey()), 201);
    const first = await listPlacements(pet.id, asKey(), "?limit=2");
    expect((await expectJson<Placement[]>(first)).map((p) => p.personId)).toEqual(fosters.slice(0, 2));
    const links = parseLink(first.headers.get("link"));
    expect(links.prev).toBeUndefined();
    const second = await listPlacements(pet.id, asKey(), new URL(links.next!).search);
    expect((await expectJson<Placement[]>(second)).map((p) => p.personId)).toEqual(fosters.slice(2));
    const back = parseLink(second.headers.get("link"));
    expect(back.next).toBeUndefined();
    const again = await listPlacements(pet.id, asKey(), new URL(back.prev!).search);
    expect((await expectJson<Placement[]>(again)).map((p) => p.personId)).toEqual(fosters.slice(0, 2));
    // A stay's cursor is not a placement's.
    await expectApiError(await listPlacements(pet.id, asKey(), "?cursor=eyJ2IjoxLCJkIjoiYWZ0ZXIiLCJpZCI6MX0"), 400, "invalid_cursor");
  });

  it("`at`: not in the future, not before the open stay's intake; bad input is a 400 naming the field, never a 500", async () => {
    const pet = await newPet();
    const foster = await newFoster();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await expectApiError(await place(pet.id, { personId: foster, at: future }, asKey()), 400, "invalid_body")).details?.[0]?.field).toBe("at");
    await expectApiError(await place(pet.id, { personId: foster, at: hourAgo(100) }, asKey()), 409, "placement_outside_stay");
    for (const [json, field] of [
      [{}, "personId"],
      [{ personId: "x" }, "personId"],
      [{ personId: foster, at: "yesterday" }, "at"],
      [{ personId: foster, expectedEndOn: "2026-02-30" }, "expectedEndOn"],
      [{ personId: foster, note: "x".repeat(501) }, "note"],
      [{ personId: foster, overrideCapacity: "yes" }, "overrideCapacity"],
      [{ personId: foster, extra: 1 }, "extra"],
    ] as const) {
      const body = await expectApiError(await place(pet.id, json, asKey()), 400, "invalid_body");
      expect(body.details?.map((d) => d.field)).toContain(field);
    }
    expect(await placementRows(pet.id)).toEqual([]);
  });

  it("the person must be of the animal's organisation and not erased (404)", async () => {
    const pet = await newPet();
    const elsewhere = await newFoster({ organizationId: await newOrganization() });
    const erased = await newFoster({ erased: true });
    await expectApiError(await place(pet.id, { personId: elsewhere }, asKey()), 404, "not_found");
    await expectApiError(await place(pet.id, { personId: erased }, asKey()), 404, "not_found");
    await expectApiError(await place(pet.id, { personId: 987654321 }, asKey()), 404, "not_found");
  });

  it("If-Match: a stale version is 412 and nothing is placed", async () => {
    const pet = await newPet();
    const foster = await newFoster();
    const res = await place(pet.id, { personId: foster }, { key, headers: { "if-match": `"${pet.version + 5}"` } });
    await expectApiError(res, 412, "precondition_failed");
    expect(await placementRows(pet.id)).toEqual([]);
    await expectJson(await place(pet.id, { personId: foster }, { key, headers: { "if-match": `"${pet.version}"` } }), 201);
  });
});

describe("who may take an animal", () => {
  it("foster_not_active says the status; a person without a foster role is refused too", async () => {
    const pet = await newPet();
    for (const status of ["applicant", "paused", "inactive", "doNotPlace"] as const) {
      const body = await expectApiError(await place(pet.id, { personId: await newFoster({ status }) }, asKey()), 409, "foster_not_active");
      expect(body.message).toContain(status);
    }
    const body = await expectApiError(await place(pet.id, { personId: await newFoster({ status: null }) }, asKey()), 409, "foster_not_active");
    expect(body.message).toContain("no foster role");
  });

  it("foster_in_blackout names the blackout that holds the day (in the organisation's zone)", async () => {
    const pet = await newPet();
    const foster = await newFoster({
      blackouts: [
        { from: "2020-01-01", to: "2020-01-10" },
        { from: "2026-01-01", to: "2099-12-31" },
      ],
    });
    const body = await expectApiError(await place(pet.id, { personId: foster }, asKey()), 409, "foster_in_blackout");
    expect(body.message).toContain("from 2026-01-01 to 2099-12-31");
    // Before the blackout began, the same foster takes it.
    const old = await newPet({ intake: { type: "stray", at: "2025-12-01" } });
    await expectJson(await place(old.id, { personId: foster, at: "2025-12-31" }, asKey()), 201);
  });

  it("foster_species: a foster who named species takes only those (by the animal's category), staff included; none named takes any", async () => {
    const [dogs, cats, rabbits] = [await categoryNamed("Dogs"), await categoryNamed("Cats"), await categoryNamed("Rabbits")];
    const catsOnly = await newFoster({ species: ["cat"], capacity: 5 });
    const dog = await newPet({ categoryId: dogs });
    const refused = await expectApiError(await place(dog.id, { personId: catsOnly }, asKey()), 409, "foster_species");
    expect(refused.message).toContain("takes cat only, and the animal is a dog");
    expect(refused.details).toEqual([{ field: "personId", issue: "takes cat only (the animal: dog)" }]);
    // No override: staff change the foster's species first (capacity's override does not reach it).
    await expectApiError(await place(dog.id, { personId: catsOnly, overrideCapacity: true }, asStaff), 409, "foster_species");
    const rabbit = await newPet({ categoryId: rabbits });
    expect((await expectApiError(await place(rabbit.id, { personId: catsOnly }, asKey()), 409, "foster_species")).message).toContain("the animal is neither");
    expect(await placementRows(dog.id)).toEqual([]);
    await expectJson(await place((await newPet({ categoryId: cats })).id, { personId: catsOnly }, asKey()), 201);
    await expectJson(await place(rabbit.id, { personId: await newFoster({ species: ["dog", "other"] }) }, asKey()), 201);
    await expectJson(await place(dog.id, { personId: await newFoster({ species: [] }) }, asKey()), 201);
  });

  it("foster_full says the capacity and the count; staff may override (recorded and audited), a key may not (403)", async () => {
    const foster = await newFoster({ capacity: 1 });
    const [a, b] = [await newPet(), await newPet()];
    await expectJson(await place(a.id, { personId: foster }, asKey()), 201);
    const full = await expectApiError(await place(b.id, { personId: foster }, asKey()), 409, "foster_full");
    expect(full.message).toMatch(/room for 1 animal and has 1 placed/);
    await expectApiError(await place(b.id, { personId: foster, overrideCapacity: true }, asKey()), 403, "forbidden");
    const placed = await expectJson<Placement>(await place(b.id, { personId: foster, overrideCapacity: true }, asStaff), 201);
    expect(placed.capacityOverridden).toBe(true);
    const [record] = await db().petAudit.findMany({ where: { petId: BigInt(b.id) }, orderBy: { id: "desc" }, take: 1 });
    expect(record).toMatchObject({ action: "placement_started", actorKind: "staff", placements: [expect.objectContaining({ capacityOverridden: true })] });
    // With room, overrideCapacity changes nothing.
    const roomy = await newFoster();
    expect((await expectJson<Placement>(await place((await newPet()).id, { personId: roomy, overrideCapacity: true }, asStaff), 201)).capacityOverridden).toBe(
      false,
    );
  });

  it("concurrent placements cannot overfill a foster: the foster's row is locked while the room is counted", async () => {
    const foster = await newFoster({ capacity: 2 });
    const pets = await Promise.all(Array.from({ length: 6 }, () => newPet()));
    const results = await Promise.all(pets.map((p) => place(p.id, { personId: foster }, asKey())));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(((await r.json()) as { code: string }).code).toBe("foster_full");
    expect(await db().petPlacement.count({ where: { personId: BigInt(foster), endAt: null } })).toBe(2);
  });
});

describe("ending and correcting a placement", () => {
  it("end: 200 with the reason; 409 placement_ended after; stayEnded is not the caller's; not before its start", async () => {
    const pet = await newPet();
    const placed = await expectJson<Placement>(await place(pet.id, { personId: await newFoster(), at: hourAgo(5) }, asKey()), 201);
    await expectApiError(await endPlacement(pet.id, placed.id, { reason: "stayEnded" }, asKey()), 400, "invalid_body");
    await expectApiError(await endPlacement(pet.id, placed.id, { reason: "other", at: hourAgo(6) }, asKey()), 400, "invalid_body");
    const res = await endPlacement(pet.id, placed.id, { reason: "returnedToShelter" }, asKey());
    const ended = await expectJson<Placement>(res, 200);
    expect(ended).toMatchObject({ id: placed.id, endReason: "returnedToShelter", endAt: expect.any(String) });
    expect(res.headers.get("etag")).toBe(`"${await version(pet.id)}"`);
    await expectApiError(await endPlacement(pet.id, placed.id, { reason: "other" }, asKey()), 409, "placement_ended");
    await expectApiError(await endPlacement(pet.id, 987654321, { reason: "other" }, asKey()), 404, "not_found");
  });

  it("PATCH corrects dates, expected end and note; overlaps and dates outside the stay are 409s, never a 500", async () => {
    const pet = await newPet();
    const [f1, f2] = [await newFoster(), await newFoster()];
    const first = await expectJson<Placement>(await place(pet.id, { personId: f1, at: hourAgo(20) }, asKey()), 201);
    await expectJson(await endPlacement(pet.id, first.id, { reason: "returnedToShelter", at: hourAgo(15) }, asKey()));
    const second = await expectJson<Placement>(await place(pet.id, { personId: f2, at: hourAgo(10) }, asKey()), 201);

    const fixed = await expectJson<Placement>(await correctPlacement(pet.id, second.id, { expectedEndOn: "2099-02-01", note: "  " }, asKey()));
    expect(fixed).toMatchObject({ expectedEndOn: "2099-02-01", note: null });
    await expectApiError(await correctPlacement(pet.id, second.id, { startAt: hourAgo(16) }, asKey()), 409, "placement_overlap");
    await expectApiError(await correctPlacement(pet.id, first.id, { endAt: hourAgo(9) }, asKey()), 409, "placement_overlap");
    await expectApiError(await correctPlacement(pet.id, first.id, { startAt: hourAgo(60) }, asKey()), 409, "placement_outside_stay");
    await expectApiError(await correctPlacement(pet.id, second.id, { endAt: hourAgo(1) }, asKey()), 409, "placement_open");
    await expectApiError(await correctPlacement(pet.id, first.id, { endAt: hourAgo(19.5), startAt: hourAgo(19) }, asKey()), 400, "invalid_body");
    await expectApiError(await correctPlacement(pet.id, first.id, {}, asKey()), 400, "invalid_body");
    const moved = await expectJson<Placement>(await correctPlacement(pet.id, first.id, { startAt: hourAgo(21), endAt: hourAgo(12) }, asKey()));
    expect(moved.endAt).toBe(new Date(moved.endAt!).toISOString());
    // A stay's intake corrected past a placement's start: the database's rule, said as a 409.
    const [stay] = await staysOf(pet.id, asKey());
    const res = await call(correctStayRoute, `/v1/pets/${pet.id}/stays/${stay!.id}`, {
      method: "PATCH",
      key,
      json: { intake: { at: hourAgo(11) } },
      params: { petId: String(pet.id), stayId: String(stay!.id) },
    });
    await expectApiError(res, 409, "placement_outside_stay");
  });
});

describe("any outcome ends the open placement at its instant, as stayEnded", () => {
  async function placed(): Promise<{ pet: Pet; placement: Placement; stayId: number }> {
    const pet = await newPet();
    const placement = await expectJson<Placement>(await place(pet.id, { personId: await newFoster(), at: hourAgo(24) }, asKey()), 201);
    return { pet, placement, stayId: placement.stayId };
  }
  const endedAs = async (petId: number) => (await placementRows(petId)).map((r) => ({ endAt: r.endAt?.toISOString() ?? null, endReason: r.endReason }));

  it("a recorded outcome (transferredOut), in the outcome's audit record", async () => {
    const { pet, stayId } = await placed();
    const at = hourAgo(3);
    await expectJson(
      await call(outcomeRoute, `/v1/pets/${pet.id}/stays/${stayId}/outcome`, {
        method: "POST",
        key,
        json: { type: "transferredOut", at },
        params: { petId: String(pet.id), stayId: String(stayId) },
      }),
    );
    expect(await endedAs(pet.id)).toEqual([{ endAt: new Date(at).toISOString(), endReason: "stayEnded" }]);
    const [record] = await db().petAudit.findMany({ where: { petId: BigInt(pet.id) }, orderBy: { id: "desc" }, take: 1 });
    expect(record).toMatchObject({ action: "stay_ended", placements: [expect.objectContaining({ endReason: "stayEnded" })] });
  });

  it("an outcome before the placement began is refused (409 placement_outside_stay), nothing written", async () => {
    const { pet, stayId } = await placed();
    const v = await version(pet.id);
    const res = await call(outcomeRoute, `/v1/pets/${pet.id}/stays/${stayId}/outcome`, {
      method: "POST",
      key,
      json: { type: "adoption", at: hourAgo(30) },
      params: { petId: String(pet.id), stayId: String(stayId) },
    });
    await expectApiError(res, 409, "placement_outside_stay");
    expect(await version(pet.id)).toBe(v);
    expect((await staysOf(pet.id, asKey()))[0]!.outcome).toBeNull();
  });

  it("a correction of the outcome moves the placement's end with it", async () => {
    const { pet, stayId } = await placed();
    await call(outcomeRoute, `/v1/pets/${pet.id}/stays/${stayId}/outcome`, {
      method: "POST",
      key,
      json: { type: "transferredOut", at: hourAgo(3) },
      params: { petId: String(pet.id), stayId: String(stayId) },
    });
    const at = hourAgo(5);
    await expectJson(
      await call(correctStayRoute, `/v1/pets/${pet.id}/stays/${stayId}`, {
        method: "PATCH",
        key,
        json: { outcome: { at } },
        params: { petId: String(pet.id), stayId: String(stayId) },
      }),
    );
    expect(await endedAs(pet.id)).toEqual([{ endAt: new Date(at).toISOString(), endReason: "stayEnded" }]);
  });

  it("a sale (status sold by hand) ends it with the stay's adoption; taking the sale back reopens it", async () => {
    const { pet } = await placed();
    await expectJson(await call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", key, json: { status: "sold" }, params: { petId: String(pet.id) } }));
    const [stay] = await staysOf(pet.id, asKey());
    expect(await endedAs(pet.id)).toEqual([{ endAt: stay!.outcome!.at, endReason: "stayEnded" }]);
    await expectJson(await call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", key, json: { status: "available" }, params: { petId: String(pet.id) } }));
    expect(await endedAs(pet.id)).toEqual([{ endAt: null, endReason: null }]);
  });

  it("the adoption workflow completing (through the animal's write path)", async () => {
    const { pet } = await placed();
    const { key: site } = await newKey(["pets:read", "applications:write"], "adopters' site");
    const application = await expectJson<{ id: number }>(
      await call(applyRoute, `/v1/pets/${pet.id}/applications`, {
        method: "POST",
        key: site,
        json: { name: "Sam", email: "sam@example.org", home: "house", message: "Hello", consent: true },
        params: { petId: String(pet.id) },
      }),
      201,
    );
    for (const to of ["in_review", "approved", "completed"]) {
      await expectJson(
        await call(transitionRoute, `/v1/applications/${application.id}/transitions`, {
          method: "POST",
          headers: staff.headers,
          json: { to },
          params: { applicationId: String(application.id) },
        }),
      );
    }
    const [stay] = await staysOf(pet.id, asKey());
    expect(stay!.outcome?.type).toBe("adoption");
    expect(await endedAs(pet.id)).toEqual([{ endAt: stay!.outcome!.at, endReason: "stayEnded" }]);
  });
});
