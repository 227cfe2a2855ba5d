import { beforeAll, describe, expect, it } from "vitest";
import { GET as history } from "@/app/v1/pets/[petId]/history/route";
import { PATCH } from "@/app/v1/pets/[petId]/route";
import { POST } from "@/app/v1/pets/route";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, createPet, expectApiError, expectJson, newKey, parseLink, seedPets, staffSession, type CallOptions, type StaffSession } from "./helpers";

// The audit trail: every create and update recorded (who, when, which
// request, before and after), append-only, and readable by staff only
// through GET /v1/pets/{petId}/history.

let key: string;
let keyId: number;
let staff: StaffSession;

beforeAll(async () => {
  ({ key, id: keyId } = await newKey(["pets:read", "pets:write"], "Acme shelter app"));
  staff = await staffSession("keeper@petstore.test");
});

const readHistory = (petId: number | string, options: CallOptions = { headers: staff.headers }, query = "") =>
  call(history, `/v1/pets/${petId}/history${query}`, { params: { petId: String(petId) }, ...options });

async function createByKey(json: unknown): Promise<{ pet: Pet; requestId: string }> {
  const res = await call(POST, "/v1/pets", { method: "POST", key, json });
  return { pet: await expectJson<Pet>(res, 201), requestId: res.headers.get("x-request-id")! };
}

async function patchAs(petId: number, json: unknown, options: CallOptions): Promise<{ pet: Pet; requestId: string }> {
  const res = await call(PATCH, `/v1/pets/${petId}`, { method: "PATCH", json, params: { petId: String(petId) }, ...options });
  return { pet: await expectJson<Pet>(res), requestId: res.headers.get("x-request-id")! };
}

describe("what is recorded", () => {
  it("a create by an API key: who (key id and name), when, the request id, no before, the whole animal after", async () => {
    const before = Date.now();
    const { pet, requestId } = await createByKey({ name: "Pepper", categoryId: 2 });
    const entries = await expectJson<HistoryEntry[]>(await readHistory(pet.id));
    expect(entries).toEqual([
      {
        id: expect.any(Number),
        action: "created",
        at: expect.any(String),
        version: 1,
        requestId,
        actor: { kind: "api_key", id: keyId, name: "Acme shelter app" },
        before: null,
        after: pet,
      },
    ]);
    const at = Date.parse(entries[0]!.at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("an update by staff: the staff account's id and email, the changed fields before, the animal after; newest first", async () => {
    const { pet } = await createByKey({ name: "Rosie", categoryId: 1 });
    const sold = await patchAs(pet.id, { status: "sold", name: "Rosie" }, { headers: staff.headers });
    const renamed = await patchAs(pet.id, { name: "Rosie Posie" }, { key });

    const entries = await expectJson<HistoryEntry[]>(await readHistory(pet.id));
    // Sold ends the animal's stay with an adoption: a record of its own at the same version (pet.stay.ended).
    expect(entries.map((e) => [e.action, e.version])).toEqual([
      ["updated", 3],
      ["stay_ended", 2],
      ["updated", 2],
      ["created", 1],
    ]);
    expect(entries[1]).toMatchObject({ requestId: sold.requestId, stay: { outcome: { type: "adoption" } } });
    expect(entries[2]).toMatchObject({
      actor: { kind: "staff", id: staff.staffId, email: "keeper@petstore.test" },
      requestId: sold.requestId,
      before: { status: "available" }, // only what changed: the name was sent unchanged
      after: { ...pet, status: "sold", version: 2 },
    });
    expect(entries[0]).toMatchObject({
      actor: { kind: "api_key", id: keyId },
      requestId: renamed.requestId,
      before: { name: "Rosie" },
      after: renamed.pet,
    });
  });

  it("keeps the key's name as it was when the change was made", async () => {
    const renamedKey = await newKey(["pets:read", "pets:write"], "Old name");
    const pet = await createPet({ name: "Mochi", categoryId: 2 }, { key: renamedKey.key });
    await db().apiKey.update({ where: { id: BigInt(renamedKey.id) }, data: { name: "New name" } });
    const [entry] = await expectJson<HistoryEntry[]>(await readHistory(pet.id));
    expect(entry?.actor).toEqual({ kind: "api_key", id: renamedKey.id, name: "Old name" });
  });

  it("an animal loaded without the API (seed data) has an empty history until it changes", async () => {
    const [pet] = await seedPets([{ name: "Seeded" }]);
    expect(await expectJson(await readHistory(pet!.id))).toEqual([]);
  });

  it("pages newest first through the Link header", async () => {
    const { pet } = await createByKey({ name: "Busy", categoryId: 1 });
    for (const status of ["pending", "available", "pending", "sold"]) await patchAs(pet.id, { status }, { key });
    const first = await readHistory(pet.id, { headers: staff.headers }, "?limit=2");
    // The sale's two records (the change, and its stay ending with an adoption) share version 5.
    expect((await expectJson<HistoryEntry[]>(first)).map((e) => e.version)).toEqual([5, 5]);
    const next = parseLink(first.headers.get("link")).next!;
    const second = await call(history, next, { params: { petId: String(pet.id) }, headers: staff.headers });
    expect((await expectJson<HistoryEntry[]>(second)).map((e) => e.version)).toEqual([4, 3]);
    const third = await call(history, parseLink(second.headers.get("link")).next!, { params: { petId: String(pet.id) }, headers: staff.headers });
    expect((await expectJson<HistoryEntry[]>(third)).map((e) => e.version)).toEqual([2, 1]);
    expect(third.headers.get("link")).toBeNull();
  });
});

describe("who may read it", () => {
  it("signed-in staff: 200", async () => {
    const { pet } = await createByKey({ name: "Visible", categoryId: 1 });
    expect((await readHistory(pet.id)).status).toBe(200);
  });

  it("an API key, even with every scope a key can have → 403 forbidden", async () => {
    const { pet } = await createByKey({ name: "Hidden", categoryId: 1 });
    await expectApiError(await readHistory(pet.id, { key }), 403, "forbidden");
  });

  it("no credentials → 401", async () => {
    const { pet } = await createByKey({ name: "Hidden too", categoryId: 1 });
    await expectApiError(await readHistory(pet.id, {}), 401, "unauthorized");
  });

  it("an unknown animal → 404; a malformed id → 400; a bad limit or cursor → 400", async () => {
    await expectApiError(await readHistory(987654321), 404, "not_found");
    await expectApiError(await readHistory("abc"), 400, "invalid_path");
    const { pet } = await createByKey({ name: "Queries", categoryId: 1 });
    await expectApiError(await readHistory(pet.id, { headers: staff.headers }, "?limit=0"), 400, "invalid_query");
    await expectApiError(await readHistory(pet.id, { headers: staff.headers }, "?cursor=nonsense"), 400, "invalid_cursor");
  });
});

describe("append-only", () => {
  it("the database refuses to update or delete audit records", async () => {
    const { pet } = await createByKey({ name: "Permanent", categoryId: 1 });
    const where = { petId: BigInt(pet.id) };
    await expect(db().petAudit.updateMany({ where, data: { actorName: "someone else" } })).rejects.toThrow(/append-only/);
    await expect(db().petAudit.deleteMany({ where })).rejects.toThrow(/append-only/);
    await expect(db().$executeRaw`UPDATE pet_audit SET before = '{}' WHERE pet_id = ${BigInt(pet.id)}`).rejects.toThrow(/append-only/);
    expect(await db().petAudit.count({ where })).toBe(1);
  });
});
