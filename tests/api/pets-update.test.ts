import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getPetRoute, OPTIONS, PATCH } from "@/app/v1/pets/[petId]/route";
import { GET as listPetsRoute, POST as createPetRoute } from "@/app/v1/pets/route";
import * as auditQueries from "@/lib/audit/queries";
import * as petQueries from "@/lib/pets/queries/writes";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import { ORIGIN, call, createPet, expectApiError, expectJson, newKey, seedPets, staffSession, type CallOptions, type StaffSession } from "./helpers";
import { petView, presentPet, type StoredPet } from "@/lib/pets/present";

// PATCH /v1/pets/{petId} - change an animal: a JSON merge patch, versioned
// with ETag / If-Match, recorded in the audit trail in the same transaction.

let key: string;
let readOnlyKey: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "updater"));
  ({ key: readOnlyKey } = await newKey(["pets:read"], "reader"));
  staff = await staffSession();
});

afterEach(() => vi.restoreAllMocks());

const MERGE_PATCH = { "content-type": "application/merge-patch+json" };

function patch(petId: number | string, json: unknown, options: CallOptions = {}) {
  return call(PATCH, `/v1/pets/${petId}`, { method: "PATCH", key, json, params: { petId: String(petId) }, ...options });
}

/** A fresh animal for one test, at version 1. */
async function freshPet(seed: { name?: string; categoryId?: number; status?: Pet["status"] } = {}): Promise<Pet> {
  const [pet] = await seedPets([{ name: "Biscuit", categoryId: 1, status: "available", ...seed }]);
  return pet!;
}

async function stored(id: number) {
  return db().pet.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { name: true, categoryId: true, status: true, version: true } });
}

const auditCount = (petId: number) => db().petAudit.count({ where: { petId: BigInt(petId) } });

describe("PATCH /v1/pets/{petId}: changes", () => {
  it("marks an animal adopted: 200 with the changed Pet, its version bumped, the new ETag", async () => {
    const pet = await freshPet();
    const res = await patch(pet.id, { status: "sold" });
    const body = await expectJson<Pet>(res);
    expect(body).toEqual({ ...pet, status: "sold", version: 2 });
    expect(res.headers.get("etag")).toBe('"2"');
    expect(await stored(pet.id)).toMatchObject({ status: "sold", version: 2 });
  });

  it("changes only the fields sent (merge patch); the others keep their values", async () => {
    const pet = await freshPet({ name: "Luna", categoryId: 2, status: "pending" });
    const renamed = await expectJson<Pet>(await patch(pet.id, { name: "  Luna Belle  " }));
    expect(renamed).toEqual({ ...pet, name: "Luna Belle", version: 2 });
    const moved = await expectJson<Pet>(await patch(pet.id, { categoryId: 3, status: "available" }));
    expect(moved).toEqual({ ...pet, name: "Luna Belle", categoryId: 3, status: "available", version: 3 });
  });

  it.each([
    ["application/merge-patch+json", MERGE_PATCH],
    ["application/json", { "content-type": "application/json" }],
    ["application/merge-patch+json; charset=utf-8", { "content-type": "application/merge-patch+json; charset=utf-8" }],
  ])("accepts Content-Type %s", async (_label, headers) => {
    const pet = await freshPet();
    expect((await expectJson<Pet>(await patch(pet.id, { status: "pending" }, { headers }))).status).toBe("pending");
  });

  it("a patch that changes nothing answers the animal as it is: same version, no audit record", async () => {
    const pet = await freshPet({ status: "pending" });
    const res = await patch(pet.id, { status: "pending", name: "Biscuit" });
    expect(await expectJson<Pet>(res)).toEqual(pet);
    expect(res.headers.get("etag")).toBe('"1"');
    expect(await auditCount(pet.id)).toBe(0);
  });

  it("every later read carries the new version: the list by id and the deprecated getPet", async () => {
    const pet = await freshPet();
    await expectJson(await patch(pet.id, { status: "sold" }));
    expect(await expectJson<Pet[]>(await call(listPetsRoute, `/v1/pets?id=${pet.id}`, { key }))).toEqual([{ ...pet, status: "sold", version: 2 }]);
    const one = await call(getPetRoute, `/v1/pets/${pet.id}`, { key, params: { petId: String(pet.id) } });
    expect(one.headers.get("etag")).toBe('"2"');
  });

  it("POST's answer carries the ETag of version 1, which PATCH then accepts", async () => {
    const created = await call(createPetRoute, "/v1/pets", { method: "POST", key, json: { name: "Fresh", categoryId: 1 } });
    const pet = await expectJson<Pet>(created, 201);
    expect(created.headers.get("etag")).toBe('"1"');
    const res = await patch(pet.id, { status: "sold" }, { headers: { "if-match": created.headers.get("etag")! } });
    expect((await expectJson<Pet>(res)).version).toBe(2);
  });

  it("signed-in staff change animals through the same endpoint (session cookie, own Origin)", async () => {
    const pet = await freshPet();
    const res = await call(PATCH, `/v1/pets/${pet.id}`, {
      method: "PATCH",
      json: { status: "pending" },
      params: { petId: String(pet.id) },
      headers: staff.headers,
    });
    expect((await expectJson<Pet>(res)).status).toBe("pending");
  });

  it("a staff cookie on a request from another site is refused (CSRF), nothing changed", async () => {
    const pet = await freshPet();
    const res = await call(PATCH, `/v1/pets/${pet.id}`, {
      method: "PATCH",
      json: { status: "sold" },
      params: { petId: String(pet.id) },
      headers: { ...staff.headers, origin: "https://evil.example" },
    });
    await expectApiError(res, 403, "forbidden");
    expect(await stored(pet.id)).toMatchObject({ status: "available", version: 1 });
  });
});

describe("PATCH /v1/pets/{petId}: If-Match", () => {
  it("the current ETag → 200", async () => {
    const pet = await freshPet();
    const res = await patch(pet.id, { status: "sold" }, { headers: { "if-match": '"1"' } });
    expect((await expectJson<Pet>(res)).version).toBe(2);
  });

  it("a stale ETag → 412 precondition_failed with the current ETag; nothing changed, nothing recorded", async () => {
    const pet = await freshPet();
    await expectJson(await patch(pet.id, { name: "Changed by someone else" }));
    const res = await patch(pet.id, { status: "sold" }, { headers: { "if-match": '"1"' } });
    const body = await expectApiError(res, 412, "precondition_failed");
    expect(body.message).toMatch(/version 2/);
    expect(res.headers.get("etag")).toBe('"2"');
    expect(await stored(pet.id)).toMatchObject({ name: "Changed by someone else", status: "available", version: 2 });
    expect(await auditCount(pet.id)).toBe(1);
  });

  it("a stale ETag on a patch that would change nothing is still 412", async () => {
    const pet = await freshPet();
    await expectJson(await patch(pet.id, { status: "pending" }));
    await expectApiError(await patch(pet.id, { status: "pending" }, { headers: { "if-match": '"1"' } }), 412, "precondition_failed");
  });

  it.each([
    ['a list holding the current tag ("7", "1") → 200', '"7", "1"', 200],
    ["* (any current version) → 200", "*", 200],
    ['a weak tag W/"1" (strong comparison never matches it) → 412', 'W/"1"', 412],
    ['a tag that is no version of ours ("abc") → 412', '"abc"', 412],
    ['a non-canonical number ("01") → 412', '"01"', 412],
  ])("%s", async (_label, ifMatch, status) => {
    const pet = await freshPet();
    const res = await patch(pet.id, { status: "sold" }, { headers: { "if-match": ifMatch } });
    if (status === 200) expect((await expectJson<Pet>(res)).status).toBe("sold");
    else await expectApiError(res, 412, "precondition_failed");
  });

  it.each([
    ["an unquoted version", "1"],
    ["an unterminated tag", '"1'],
    ["a trailing comma only", ","],
    ["a bare word", "latest"],
    ["two tags without a comma", '"1" "2"'],
  ])("%s → 400 invalid_header naming If-Match, nothing changed", async (_label, ifMatch) => {
    const pet = await freshPet();
    const body = await expectApiError(await patch(pet.id, { status: "sold" }, { headers: { "if-match": ifMatch } }), 400, "invalid_header");
    expect(body.details?.map((d) => d.field)).toEqual(["If-Match"]);
    expect(await stored(pet.id)).toMatchObject({ status: "available", version: 1 });
  });

  it("two staff saving from the same version at once: exactly one wins, the other gets 412", async () => {
    const pet = await freshPet();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => patch(pet.id, { name: `Writer ${i}` }, { headers: { "if-match": '"1"' } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(412)]);
    const winner = await expectJson<Pet>(results.find((r) => r.status === 200)!);
    expect(await stored(pet.id)).toMatchObject({ name: winner.name, version: 2 });
    expect(await auditCount(pet.id)).toBe(1);
  });

  it("without If-Match, concurrent changes all apply in turn, and each record's 'before' is exactly the previous 'after'", async () => {
    const pet = await freshPet();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => patch(pet.id, { name: `Round ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await stored(pet.id)).version).toBe(9);
    const records = await db().petAudit.findMany({
      where: { petId: BigInt(pet.id) },
      orderBy: { id: "asc" },
      select: { version: true, before: true, after: true },
    });
    expect(records.map((r) => r.version)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    let previousName = "Biscuit";
    for (const record of records) {
      expect(record.before).toEqual({ name: previousName });
      previousName = (record.after as { name: string }).name;
    }
  });
});

describe("PATCH /v1/pets/{petId}: a change from another process between the read and the write", () => {
  // Another instance's writer is not in this process's queue: the statement
  // finds the animal past the version it was read at, and the update reads again.
  async function withWriterBetween(petId: number, write: () => Promise<unknown>) {
    const read = petQueries.readPetForChange;
    let first = true;
    vi.spyOn(petQueries, "readPetForChange").mockImplementation(async (id, org) => {
      const row = await read(id, org);
      if (first && id === petId) {
        first = false;
        await write();
      }
      return row;
    });
  }

  it("without If-Match: read again, applied to the newer version, its record's 'before' that version's", async () => {
    const pet = await freshPet({ name: "Pepper" });
    await withWriterBetween(pet.id, () => db().$executeRaw`UPDATE pets SET name = 'Salt', version = version + 1 WHERE id = ${BigInt(pet.id)}`);
    const body = await expectJson<Pet>(await patch(pet.id, { name: "Mustard" }));
    expect(body).toMatchObject({ name: "Mustard", version: 3 });
    const records = await db().petAudit.findMany({ where: { petId: BigInt(pet.id) }, select: { version: true, before: true } });
    expect(records).toEqual([{ version: 3, before: { name: "Salt" } }]);
  });

  it("with If-Match at the version read: 412 with the newer ETag, nothing written", async () => {
    const pet = await freshPet({ name: "Pepper" });
    await withWriterBetween(pet.id, () => db().$executeRaw`UPDATE pets SET name = 'Salt', version = version + 1 WHERE id = ${BigInt(pet.id)}`);
    const res = await patch(pet.id, { name: "Mustard" }, { headers: { "if-match": '"1"' } });
    await expectApiError(res, 412, "precondition_failed");
    expect(res.headers.get("etag")).toBe('"2"');
    expect(await stored(pet.id)).toMatchObject({ name: "Salt", version: 2 });
    expect(await auditCount(pet.id)).toBe(0);
  });
});

describe("PATCH /v1/pets/{petId}: invalid requests", () => {
  it.each([
    ["an empty object", {}, ""],
    ["an unknown field", { status: "sold", color: "brown" }, "color"],
    ["id (not changeable)", { id: 5, status: "sold" }, "id"],
    ["version (If-Match is the way)", { version: 1, status: "sold" }, "version"],
    ["a blank name", { name: "   " }, "name"],
    ["a name of 101 characters", { name: "x".repeat(101) }, "name"],
    ["a name that is null (no field can be removed)", { name: null }, "name"],
    ["an unknown status", { status: "adopted" }, "status"],
    ["status null", { status: null }, "status"],
    ["categoryId as a string", { categoryId: "2" }, "categoryId"],
    ["categoryId 0", { categoryId: 0 }, "categoryId"],
    ["an array", [{ status: "sold" }], ""],
    ["null", null, ""],
  ])("%s → 400 invalid_body naming the field, nothing changed", async (_label, json, field) => {
    const pet = await freshPet();
    const body = await expectApiError(await patch(pet.id, json, { headers: MERGE_PATCH }), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
    expect(await stored(pet.id)).toMatchObject({ name: "Biscuit", status: "available", version: 1 });
  });

  it("a categoryId that names no category → 400 unknown_category, nothing changed", async () => {
    const pet = await freshPet();
    const body = await expectApiError(await patch(pet.id, { categoryId: 999, status: "sold" }), 400, "unknown_category");
    expect(body.details?.map((d) => d.field)).toEqual(["categoryId"]);
    expect(await stored(pet.id)).toMatchObject({ categoryId: 1n, status: "available", version: 1 });
  });

  it("malformed JSON → 400 invalid_json; text/plain → 415", async () => {
    const pet = await freshPet();
    const params = { petId: String(pet.id) };
    await expectApiError(await call(PATCH, `/v1/pets/${pet.id}`, { method: "PATCH", key, params, body: "{", headers: MERGE_PATCH }), 400, "invalid_json");
    await expectApiError(
      await call(PATCH, `/v1/pets/${pet.id}`, { method: "PATCH", key, params, body: '{"status":"sold"}', headers: { "content-type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
  });

  it("an unknown animal → 404 not_found (with or without If-Match)", async () => {
    await expectApiError(await patch(987654321, { status: "sold" }), 404, "not_found");
    await expectApiError(await patch(987654321, { status: "sold" }, { headers: { "if-match": '"1"' } }), 404, "not_found");
  });

  it.each(["abc", "0", "1.5", "9007199254740992"])("petId=%s → 400 invalid_path", async (petId) => {
    const body = await expectApiError(await patch(petId, { status: "sold" }), 400, "invalid_path");
    expect(body.details?.map((d) => d.field)).toContain("petId");
  });

  it("a key without pets:write → 403; no key → 401; nothing changed", async () => {
    const pet = await freshPet();
    await expectApiError(await patch(pet.id, { status: "sold" }, { key: readOnlyKey }), 403, "forbidden");
    await expectApiError(await patch(pet.id, { status: "sold" }, { key: undefined }), 401, "unauthorized");
    expect(await stored(pet.id)).toMatchObject({ status: "available", version: 1 });
  });
});

describe("the change and its audit record are one transaction", () => {
  it("when the audit record cannot be written, the update is rolled back (500, version unchanged)", async () => {
    const pet = await freshPet();
    vi.spyOn(auditQueries, "insertAuditRecord").mockRejectedValueOnce(new Error("audit write failed"));
    await expectApiError(await patch(pet.id, { status: "sold" }), 500, "internal_error");
    expect(await stored(pet.id)).toMatchObject({ status: "available", version: 1 });
    expect(await auditCount(pet.id)).toBe(0);
  });

  // The create is one statement: a real failure of either record, raised by
  // PostgreSQL itself, must leave no animal (and no other record) behind.
  it.each([
    ["audit record", "pet_audit", "NEW.after->>'name'"],
    ["change-feed event", "events", "NEW.data->'pet'->>'name'"],
  ])("when the %s cannot be written, no animal is created", async (_label, table, nameOf) => {
    const name = `Ghost ${table}`;
    await db().$executeRawUnsafe(`
      CREATE FUNCTION refuse_ghost() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF ${nameOf} = '${name}' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER refuse_ghost BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_ghost()`);
    try {
      const res = await call(createPetRoute, "/v1/pets", { method: "POST", key, json: { name, categoryId: 1 } });
      await expectApiError(res, 500, "internal_error");
      expect(await db().pet.count({ where: { name } })).toBe(0);
      expect(await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pet_audit WHERE after->>'name' = ${name}`).toEqual([{ n: 0n }]);
      expect(await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM events WHERE data->'pet'->>'name' = ${name}`).toEqual([{ n: 0n }]);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER refuse_ghost ON ${table}`);
      await db().$executeRawUnsafe("DROP FUNCTION refuse_ghost()");
    }
  });

  it("a created animal's audit record and event show it exactly as the API does", async () => {
    const pet = await createPet({ name: "Recorded", categoryId: 2, status: "pending" }, { key });
    const [audit] = await db().petAudit.findMany({ where: { petId: BigInt(pet.id) } });
    // Records keep the animal without what depends on the answer (ageGroup, photo URLs): shown, they are the API's Pet.
    const stored = Object.fromEntries(Object.entries(pet).filter(([field]) => field !== "ageGroup"));
    expect(audit).toMatchObject({ action: "created", version: 1, actorKind: "api_key", actorName: "updater", before: null, after: stored });
    expect(presentPet(audit!.after as unknown as StoredPet, petView(new Date(), ORIGIN))).toEqual(pet);
    const [event] = await db().event.findMany({ where: { petId: BigInt(pet.id) } });
    expect(event).toMatchObject({ type: "pet.created", data: { pet: stored } });
    expect(event!.position).not.toBeNull();
  });
});

describe("CORS for PATCH", () => {
  it("the preflight allows PATCH with If-Match; answers expose ETag", async () => {
    const preflight = await OPTIONS(new Request("http://localhost/v1/pets/1", { method: "OPTIONS" }));
    expect(preflight.status).toBe(204);
    const methods = (preflight.headers.get("access-control-allow-methods") ?? "").split(",").map((m) => m.trim());
    expect(methods).toEqual(expect.arrayContaining(["GET", "PATCH"]));
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "")
      .toLowerCase()
      .split(",")
      .map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(["if-match", "idempotency-key", "content-type", "authorization"]));

    const pet = await freshPet();
    const res = await patch(pet.id, { status: "sold" });
    const exposed = (res.headers.get("access-control-expose-headers") ?? "")
      .toLowerCase()
      .split(",")
      .map((h) => h.trim());
    expect(exposed).toEqual(expect.arrayContaining(["etag", "idempotent-replayed"]));
  });
});
