import { beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, IN_THE_SHELTER, LISTING_UNKNOWN, newKey, type CallOptions } from "./helpers";

// POST /v1/pets - add an animal.

let key: string;
let readOnlyKey: string;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "writer"));
  ({ key: readOnlyKey } = await newKey(["pets:read"], "reader"));
});

const create = (json: unknown, options: CallOptions = {}) => call(POST, "/v1/pets", { method: "POST", key, json, ...options });

async function storedName(id: number): Promise<string | undefined> {
  return (await db().pet.findUnique({ where: { id: BigInt(id) }, select: { name: true } }))?.name;
}

const json = { "content-type": "application/json" };
const KIB = 1024;
/** A valid-looking JSON body of more than 64 KiB. */
const oversized = () => JSON.stringify({ name: "Rex", categoryId: 1, padding: "x".repeat(70 * KIB) });

describe("POST /v1/pets: success", () => {
  it("answers 201 with the Pet: id assigned, name trimmed, status defaulted, categoryId echoed; Location points at it", async () => {
    const res = await create({ name: "  Biscuit \t", categoryId: 2 });
    const pet = await expectJson<Pet>(res, 201);
    expect(pet).toEqual({
      id: expect.any(Number),
      name: "Biscuit",
      categoryId: 2,
      organizationId: 1,
      status: "available",
      version: 1,
      sex: "unknown",
      size: null,
      birthDate: null,
      ageGroup: null,
      breed: null,
      description: null,
      goodWith: { children: null, dogs: null, cats: null },
      photos: [],
      // The listing sites' profile: nothing known, listed on other sites.
      ...LISTING_UNKNOWN,
      ...IN_THE_SHELTER,
    });
    expect(res.headers.get("etag")).toBe('"1"');
    expect(Number.isSafeInteger(pet.id) && pet.id > 0).toBe(true);
    // The spec's fields, the version, and the profile (unknown when not given): answers only grow.
    expect(Object.keys(pet).sort()).toEqual(
      [
        ...[
          "ageGroup",
          "birthDate",
          "breed",
          "categoryId",
          "description",
          "goodWith",
          "id",
          "name",
          "organizationId",
          "photos",
          "sex",
          "size",
          "status",
          "version",
        ],
        ...Object.keys(LISTING_UNKNOWN),
        ...Object.keys(IN_THE_SHELTER),
      ].sort(),
    );

    const location = res.headers.get("location");
    expect(location).not.toBeNull();
    expect(new URL(location!, "http://localhost").pathname).toBe(`/v1/pets/${pet.id}`);
    expect(await storedName(pet.id)).toBe("Biscuit");
  });

  it.each(["available", "pending", "sold"] as const)("keeps status %s when given", async (status) => {
    const pet = await expectJson<Pet>(await create({ name: "Luna", categoryId: 1, status }), 201);
    expect(pet.status).toBe(status);
  });

  it("refuses a client-sent id (and other unknown fields), naming each, and stores nothing", async () => {
    const taken = await expectJson<Pet>(await create({ name: "First", categoryId: 1 }), 201);
    const before = await db().pet.count();
    const body = await expectApiError(await create({ id: taken.id, name: "Impostor", categoryId: 1, extra: true }), 400, "invalid_body");
    expect(body.details).toEqual([
      { field: "id", issue: "is not a known field" },
      { field: "extra", issue: "is not a known field" },
    ]);
    expect(await db().pet.count()).toBe(before);
    expect(await storedName(taken.id)).toBe("First");
  });

  it("the created animal is then listed, first (newest)", async () => {
    const pet = await expectJson<Pet>(await create({ name: "Listed", categoryId: 3, status: "pending" }), 201);
    const listed = await expectJson<Pet[]>(await call(GET, "/v1/pets?limit=5", { key }));
    expect(listed[0]).toEqual(pet);
    const filtered = await expectJson<Pet[]>(await call(GET, "/v1/pets?status=pending&categoryId=3", { key }));
    expect(filtered).toContainEqual(pet);
  });

  it("accepts a name of exactly 100 characters", async () => {
    const name = "n".repeat(100);
    const pet = await expectJson<Pet>(await create({ name, categoryId: 1 }), 201);
    expect(pet.name).toBe(name);
    expect(await storedName(pet.id)).toBe(name);
  });

  it("counts the name after trimming: 100 characters with spaces around are accepted, trimmed", async () => {
    const name = "m".repeat(100);
    const pet = await expectJson<Pet>(await create({ name: `   ${name}\n `, categoryId: 1 }), 201);
    expect(pet.name).toBe(name);
  });

  it("accepts 100 emoji (characters, not UTF-16 units) and stores them exactly", async () => {
    const name = "🐶".repeat(100);
    const pet = await expectJson<Pet>(await create({ name, categoryId: 1 }), 201);
    expect(pet.name).toBe(name);
    expect(await storedName(pet.id)).toBe(name);
  });

  it("stores and returns an HTML-ish Unicode name exactly", async () => {
    const name = "<script>alert(1)</script> 🐾 Zoë & \"Ω\" 'x' \\ 名前";
    const res = await create({ name, categoryId: 4 });
    const pet = await expectJson<Pet>(res, 201);
    expect(pet.name).toBe(name);
    expect(await storedName(pet.id)).toBe(name);
    const listed = await expectJson<Pet[]>(await call(GET, "/v1/pets?categoryId=4", { key }));
    expect(listed.find((p) => p.id === pet.id)?.name).toBe(name);
  });

  it("accepts `application/json; charset=utf-8`", async () => {
    const res = await create({ name: "Charset", categoryId: 1 }, { headers: { "content-type": "application/json; charset=utf-8" } });
    expect((await expectJson<Pet>(res, 201)).name).toBe("Charset");
  });
});

describe("POST /v1/pets: invalid bodies", () => {
  it.each([
    ["missing name", { categoryId: 1 }, "name"],
    ["missing categoryId", { name: "Rex" }, "categoryId"],
    ["blank name", { name: "   ", categoryId: 1 }, "name"],
    ["empty name", { name: "", categoryId: 1 }, "name"],
    ["name of 101 characters", { name: "x".repeat(101), categoryId: 1 }, "name"],
    ["101 emoji", { name: "🐶".repeat(101), categoryId: 1 }, "name"],
    ["name that is a number", { name: 5, categoryId: 1 }, "name"],
    ["name with a NUL character", { name: "a\u0000b", categoryId: 1 }, "name"],
    ["name with a lone surrogate", { name: "a\ud800", categoryId: 1 }, "name"],
    ["categoryId as a string", { name: "Rex", categoryId: "1" }, "categoryId"],
    ["categoryId 1.5", { name: "Rex", categoryId: 1.5 }, "categoryId"],
    ["categoryId 0", { name: "Rex", categoryId: 0 }, "categoryId"],
    ["categoryId 2**53", { name: "Rex", categoryId: 2 ** 53 }, "categoryId"],
    ["status unknown", { name: "Rex", categoryId: 1, status: "adopted" }, "status"],
    ["status null", { name: "Rex", categoryId: 1, status: null }, "status"],
    ["body is an array", [{ name: "Rex", categoryId: 1 }], ""],
    ["body is null", null, ""],
    ["body is a string", "Rex", ""],
  ])("%s → 400 invalid_body naming the field", async (_label, json, field) => {
    const body = await expectApiError(await create(json), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  it("names every offending field at once", async () => {
    const body = await expectApiError(await create({}), 400, "invalid_body");
    expect(body.details?.map((d) => d.field).sort()).toEqual(["categoryId", "name"]);
  });

  it("categoryId 999 (no such category) → 400 unknown_category naming categoryId", async () => {
    const body = await expectApiError(await create({ name: "Rex", categoryId: 999 }), 400, "unknown_category");
    expect(body.details?.map((d) => d.field)).toContain("categoryId");
    expect(await db().pet.count({ where: { name: "Rex" } })).toBe(0);
  });

  it.each([
    ["malformed JSON", "{ name: 'Rex' ", json],
    ["truncated JSON", '{"name":"Rex","categoryId":1', json],
    ["an empty body", "", json],
    ["whitespace only", "   ", json],
  ])("%s → 400 invalid_json", async (_label, body, headers) => {
    await expectApiError(await call(POST, "/v1/pets", { method: "POST", key, body, headers }), 400, "invalid_json");
  });

  it("bytes that are not UTF-8 → 400 invalid_json", async () => {
    const body = new Uint8Array([0x7b, 0x22, 0x6e, 0xff, 0xfe, 0x22, 0x7d]);
    await expectApiError(await call(POST, "/v1/pets", { method: "POST", key, body, headers: json }), 400, "invalid_json");
  });

  it("no body at all → 400 invalid_json", async () => {
    await expectApiError(await call(POST, "/v1/pets", { method: "POST", key, headers: json }), 400, "invalid_json");
  });

  it.each([
    ["text/plain", "text/plain", JSON.stringify({ name: "Rex", categoryId: 1 })],
    ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded", "name=Rex&categoryId=1"],
  ])("Content-Type %s → 415 unsupported_media_type", async (_label, type, body) => {
    const res = await call(POST, "/v1/pets", { method: "POST", key, body, headers: { "content-type": type } });
    await expectApiError(res, 415, "unsupported_media_type");
  });

  it("no Content-Type → 415 unsupported_media_type", async () => {
    // Bytes get no Content-Type from Request (a string body would get text/plain).
    const body = new TextEncoder().encode(JSON.stringify({ name: "Rex", categoryId: 1 }));
    const req = new Request("http://localhost/v1/pets", { method: "POST", headers: { authorization: `Bearer ${key}` }, body });
    expect(req.headers.get("content-type")).toBeNull();
    await expectApiError(await POST(req, { params: Promise.resolve({}) }), 415, "unsupported_media_type");
  });
});

describe("POST /v1/pets: body size", () => {
  it("a body over 64 KiB with a Content-Length → 413 payload_too_large", async () => {
    const body = oversized();
    const res = await call(POST, "/v1/pets", {
      method: "POST",
      key,
      body,
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    });
    await expectApiError(res, 413, "payload_too_large");
  });

  it("a streamed body over 64 KiB without Content-Length → 413 payload_too_large", async () => {
    const bytes = new TextEncoder().encode(oversized());
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8 * KIB) controller.enqueue(bytes.slice(i, i + 8 * KIB));
        controller.close();
      },
    });
    const req = new Request("http://localhost/v1/pets", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    expect(req.headers.get("content-length")).toBeNull();
    await expectApiError(await POST(req, { params: Promise.resolve({}) }), 413, "payload_too_large");
  });

  it("an endless streamed body is cut off at the limit → 413 (it is not read to the end)", async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 4 * KIB;
        controller.enqueue(new Uint8Array(4 * KIB).fill(0x20));
      },
    });
    const res = await call(POST, "/v1/pets", { method: "POST", key, body: stream, headers: json });
    await expectApiError(res, 413, "payload_too_large");
    expect(sent).toBeLessThan(1024 * KIB);
  });

  it("a body just under 64 KiB is read (and judged on its content)", async () => {
    // Padded with JSON's own whitespace: every field of a body must be one it takes.
    const body = `{"name":"Padded",${" ".repeat(60 * KIB)}"categoryId":1}`;
    const res = await call(POST, "/v1/pets", { method: "POST", key, body, headers: json });
    const pet = await expectJson<Pet>(res, 201);
    expect(pet.name).toBe("Padded");
  });
});

describe("POST /v1/pets: authentication and authorisation", () => {
  it("a valid key without pets:write → 403 forbidden, nothing stored", async () => {
    const before = await db().pet.count();
    await expectApiError(await create({ name: "Nope", categoryId: 1 }, { key: readOnlyKey }), 403, "forbidden");
    expect(await db().pet.count()).toBe(before);
  });

  it.each([
    ["an invalid body", { json: { name: "" } }],
    ["malformed JSON", { body: "{", headers: json }],
    ["a wrong Content-Type", { body: "x", headers: { "content-type": "text/plain" } }],
    ["an oversized body", { body: oversized(), headers: json }],
  ])("authentication comes before validation: no key + %s → 401", async (_label, options) => {
    const res = await call(POST, "/v1/pets", { method: "POST", ...(options as CallOptions) });
    await expectApiError(res, 401, "unauthorized");
  });

  it("authorisation comes before validation: read-only key + invalid body → 403", async () => {
    await expectApiError(await create({ name: "" }, { key: readOnlyKey }), 403, "forbidden");
  });
});
