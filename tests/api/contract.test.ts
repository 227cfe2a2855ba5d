import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as categoriesRoute from "@/app/v1/categories/route";
import * as breedsRoute from "@/app/v1/categories/[categoryId]/breeds/route";
import * as openapiRoute from "@/app/v1/openapi.json/route";
import * as petRoute from "@/app/v1/pets/[petId]/route";
import * as petsRoute from "@/app/v1/pets/route";
import { setClock } from "@/lib/clock";
import * as idempotencyQueries from "@/lib/idempotency/queries";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import * as queries from "@/lib/pets/queries/pages";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, enableRateLimit, expectJson, newKey, seedPets, UNKNOWN_KEY, type CallOptions } from "./helpers";
import { COMPONENTS_ID, conformance, type Document } from "./openapi-conformance";

// The OpenAPI document against the handlers' real answers: every body
// validates against the schema declared for its path/method/status, and every
// documented-kind header a response carries is declared for it.

const PRODUCTION = "https://api.petstore.example/v1";
const STAGING = "https://staging.petstore.example/v1";
// Read lazily by lib/env on first use (after this file is loaded).
vi.stubEnv("PUBLIC_BASE_URL", PRODUCTION);
vi.stubEnv("STAGING_BASE_URL", STAGING);
// With the limiter on, responses carry every header the document declares.
enableRateLimit();

const doc = buildOpenApiDocument() as unknown as Document;

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Declared headers that are only sent sometimes: Link when there is another page, Idempotent-Replayed on replays. */
const { ajv, operation, expectConforms } = conformance(doc, new Set(["link /pets get", "idempotent-replayed /pets post"]));

let key: string;
let readOnlyKey: string;
let writeOnlyKey: string;
let pet: Pet;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"]));
  ({ key: readOnlyKey } = await newKey(["pets:read"]));
  ({ key: writeOnlyKey } = await newKey(["pets:write"]));
  [pet] = (await seedPets([
    { name: "Biscuit", categoryId: 1 },
    { name: "Luna", categoryId: 2, status: "sold" },
    { name: "Kiwi", categoryId: 4, status: "pending" },
  ])) as [Pet];
});

afterEach(() => {
  vi.restoreAllMocks();
  setClock();
});

afterAll(() => {
  vi.unstubAllEnvs();
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1, version 1.0.0", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
  });

  it("names the operations listPets, createPet, getPet, updatePet (and listCategories)", () => {
    expect(operation("/pets", "get").operationId).toBe("listPets");
    expect(operation("/pets", "post").operationId).toBe("createPet");
    expect(operation("/pets/{petId}", "get").operationId).toBe("getPet");
    expect(operation("/pets/{petId}", "patch").operationId).toBe("updatePet");
    expect(operation("/categories", "get").operationId).toBe("listCategories");
    expect(operation("/categories/{categoryId}/breeds", "get").operationId).toBe("listCategoryBreeds");
  });

  it("marks getPet deprecated, and only getPet", () => {
    expect(operation("/pets/{petId}", "get").deprecated).toBe(true);
    expect(operation("/pets", "get").deprecated).not.toBe(true);
    expect(operation("/pets", "post").deprecated).not.toBe(true);
    expect(operation("/pets/{petId}", "patch").deprecated).not.toBe(true);
  });

  it("names getPet's successor, the list by id, and documents id and q on the list", () => {
    expect(operation("/pets/{petId}", "get").description).toContain("GET /pets?id={petId}");
    const params = operation("/pets", "get").parameters ?? [];
    expect(params.find((p) => p.name === "id")).toMatchObject({
      in: "query",
      style: "form",
      explode: false,
      schema: { type: "array", maxItems: 100, items: { type: "integer", format: "int64" } },
    });
    expect(params.find((p) => p.name === "q")).toMatchObject({ in: "query", schema: { type: "string", minLength: 1, maxLength: 100 } });
  });

  it("documents the request headers Idempotency-Key and If-Match, and PATCH's two media types", () => {
    const header = (path: string, method: string, name: string) => operation(path, method).parameters?.find((p) => p.in === "header" && p.name === name);
    expect(header("/pets", "post", "Idempotency-Key")).toMatchObject({ required: false, schema: { type: "string", minLength: 1, maxLength: 255 } });
    expect(header("/pets/{petId}", "patch", "If-Match")).toMatchObject({ required: false, schema: { type: "string" } });
    const patch = doc.paths["/pets/{petId}"]!.patch as unknown as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(patch.requestBody.content).sort()).toEqual(["application/json", "application/merge-patch+json"]);
    expect(doc.components.schemas.PetPatch).toMatchObject({ additionalProperties: false, minProperties: 1 });
  });

  it("uses HTTP bearer security, globally and on every operation, each with a 401", () => {
    const schemes = Object.entries(doc.components.securitySchemes);
    expect(schemes).toHaveLength(1);
    const [name, scheme] = schemes[0]!;
    expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ [name]: [] }]);
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        expect(op.security ?? doc.security).toEqual([{ [name]: [] }]);
        expect(op.responses["401"], op.operationId).toBeDefined();
      }
    }
  });

  it("lists the production and staging servers, each ending in /v1", () => {
    expect(doc.servers).toEqual([
      { url: PRODUCTION, description: "Production" },
      { url: STAGING, description: "Staging" },
    ]);
  });

  it("documents limit as an integer 1..100 defaulting to 20, and status as the PetStatus enum", () => {
    const params = operation("/pets", "get").parameters ?? [];
    const limit = params.find((p) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } });
    const status = params.find((p) => p.name === "status");
    expect(status?.schema).toMatchObject({ enum: ["available", "pending", "sold"] });
    const petId = operation("/pets/{petId}", "get").parameters?.find((p) => p.name === "petId");
    expect(petId).toMatchObject({ in: "path", required: true, schema: { type: "integer", format: "int64" } });
  });

  it("the served /v1/openapi.json is the same document", async () => {
    const served = await expectJson(await call(openapiRoute.GET, "/v1/openapi.json"));
    expect(served).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("passes `redocly lint`", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "petstore-openapi-"));
    try {
      const file = path.join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const result = spawnSync(path.join(ROOT, "node_modules", ".bin", "redocly"), ["lint", file], {
        cwd: dir,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      });
      expect(result.error).toBeUndefined();
      expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 70_000);
});

describe("real responses conform to the document", () => {
  const json = { "content-type": "application/json" };
  const create = (body: unknown, auth: CallOptions = { key }) => call(petsRoute.POST, "/v1/pets", { method: "POST", json: body, ...auth });
  const getOne = (petId: string, auth: CallOptions = { key }) => call(petRoute.GET, `/v1/pets/${petId}`, { params: { petId }, ...auth });

  it.each([
    ["200 list (with a Link to the next page)", () => call(petsRoute.GET, "/v1/pets?limit=1", { key }), 200],
    ["200 list, filtered", () => call(petsRoute.GET, "/v1/pets?status=sold&categoryId=2", { key }), 200],
    ["400 invalid_query", () => call(petsRoute.GET, "/v1/pets?limit=0", { key }), 400],
    ["400 invalid_cursor", () => call(petsRoute.GET, "/v1/pets?cursor=garbage", { key }), 400],
    ["401", () => call(petsRoute.GET, "/v1/pets", { key: UNKNOWN_KEY }), 401],
    ["403", () => call(petsRoute.GET, "/v1/pets", { key: writeOnlyKey }), 403],
  ])("GET /pets: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    const body = await expectConforms("/pets", "get", res);
    if (status === 200) expect(Array.isArray(body)).toBe(true);
  });

  it("GET /pets: the 200 with a Link header is declared with Link", async () => {
    const res = await call(petsRoute.GET, "/v1/pets?limit=1", { key, headers: { host: "shelter.example:8080" } });
    expect(res.headers.get("link")).toContain('rel="next"');
    // Links are built on the origin the client addressed (not PUBLIC_BASE_URL, not the framework's host).
    expect(res.headers.get("link")).toContain("<http://shelter.example:8080/v1/pets?");
    await expectConforms("/pets", "get", res);
  });

  it.each([
    ["500 internal_error", "findPetPage", new Error('relation "pets" secret SQL'), 500],
    ["503 service_unavailable", "findPetPage", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), 503],
  ] as const)("GET /pets: %s", async (_label, fn, error, status) => {
    vi.spyOn(queries, fn).mockRejectedValue(error);
    const res = await call(petsRoute.GET, "/v1/pets", { key });
    expect(res.status).toBe(status);
    await expectConforms("/pets", "get", res);
  });

  it.each([
    ["200 list by id", () => call(petsRoute.GET, `/v1/pets?id=${pet.id},999999`, { key }), 200],
    ["200 name search", () => call(petsRoute.GET, "/v1/pets?q=bis&status=available", { key }), 200],
    ["400 invalid_query (id)", () => call(petsRoute.GET, "/v1/pets?id=1,,2", { key }), 400],
    ["400 invalid_query (q)", () => call(petsRoute.GET, "/v1/pets?q=", { key }), 400],
  ])("GET /pets: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    await expectConforms("/pets", "get", res);
  });

  it("POST /pets: 201 replayed (Idempotent-Replayed), 422 idempotency_key_reused, 400 invalid_header, 409 idempotency_in_progress", async () => {
    const withKey = (body: unknown, idem: string) =>
      call(petsRoute.POST, "/v1/pets", { method: "POST", key, json: body, headers: { "idempotency-key": idem } });
    await expectConforms("/pets", "post", await withKey({ name: "Once", categoryId: 1 }, "contract-1"));
    const replay = await withKey({ name: "Once", categoryId: 1 }, "contract-1");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await expectConforms("/pets", "post", replay);
    const reused = await withKey({ name: "Twice", categoryId: 1 }, "contract-1");
    expect(reused.status).toBe(422);
    await expectConforms("/pets", "post", reused);
    const invalid = await withKey({ name: "Bad", categoryId: 1 }, "x".repeat(256));
    expect(invalid.status).toBe(400);
    await expectConforms("/pets", "post", invalid);

    vi.spyOn(idempotencyQueries, "reserveKey").mockRejectedValueOnce(Object.assign(new Error("canceling statement due to lock timeout"), { code: "55P03" }));
    const busy = await withKey({ name: "Busy", categoryId: 1 }, "contract-2");
    expect(busy.status).toBe(409);
    await expectConforms("/pets", "post", busy);
  });

  it.each([
    ["201 created", () => create({ name: "Contract", categoryId: 3 }), 201],
    ["400 invalid_body", () => create({ name: "", categoryId: "1" }), 400],
    ["400 invalid_json", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, body: "{", headers: json }), 400],
    ["400 unknown_category", () => create({ name: "Rex", categoryId: 999 }), 400],
    ["401", () => create({ name: "Rex", categoryId: 1 }, {}), 401],
    ["403", () => create({ name: "Rex", categoryId: 1 }, { key: readOnlyKey }), 403],
    ["413", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, headers: json, body: " ".repeat(64 * 1024 + 1) }), 413],
    ["415", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, headers: { "content-type": "text/plain" }, body: "{}" }), 415],
  ])("POST /pets: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    const body = await expectConforms("/pets", "post", res);
    if (status === 201) {
      expect(res.headers.get("location")).toBe(`http://localhost/v1/pets/${(body as Pet).id}`);
    }
  });

  it.each([
    ["200", () => getOne(String(pet.id)), 200],
    ["400 invalid_path", () => getOne("abc"), 400],
    ["401", () => getOne(String(pet.id), {}), 401],
    ["403", () => getOne(String(pet.id), { key: writeOnlyKey }), 403],
    ["404", () => getOne("999999"), 404],
  ])("GET /pets/{petId}: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    await expectConforms("/pets/{petId}", "get", res);
  });

  describe("PATCH /pets/{petId}", () => {
    const patchPet = (petId: string, body: unknown, options: CallOptions = {}) =>
      call(petRoute.PATCH, `/v1/pets/${petId}`, { method: "PATCH", key, json: body, params: { petId }, ...options });
    const mergePatch = { "content-type": "application/merge-patch+json" };

    it.each([
      ["200 changed", (id: string) => patchPet(id, { status: "pending" }, { headers: mergePatch }), 200],
      ["200 with a matching If-Match", (id: string) => patchPet(id, { status: "sold" }, { headers: { "if-match": '"1"' } }), 200],
      ["400 invalid_body", (id: string) => patchPet(id, { status: "adopted", color: "red" }), 400],
      [
        "400 invalid_json",
        (id: string) => call(petRoute.PATCH, `/v1/pets/${id}`, { method: "PATCH", key, body: "{", headers: mergePatch, params: { petId: id } }),
        400,
      ],
      ["400 invalid_header", (id: string) => patchPet(id, { status: "sold" }, { headers: { "if-match": "1" } }), 400],
      ["400 invalid_path", () => patchPet("abc", { status: "sold" }), 400],
      ["400 unknown_category", (id: string) => patchPet(id, { categoryId: 999 }), 400],
      ["401", (id: string) => patchPet(id, { status: "sold" }, { key: UNKNOWN_KEY }), 401],
      ["403", (id: string) => patchPet(id, { status: "sold" }, { key: readOnlyKey }), 403],
      ["404", () => patchPet("999999", { status: "sold" }), 404],
      ["412 precondition_failed", (id: string) => patchPet(id, { status: "sold" }, { headers: { "if-match": '"7"' } }), 412],
      [
        "413",
        (id: string) =>
          call(petRoute.PATCH, `/v1/pets/${id}`, { method: "PATCH", key, headers: mergePatch, body: " ".repeat(64 * 1024 + 1), params: { petId: id } }),
        413,
      ],
      [
        "415",
        (id: string) =>
          call(petRoute.PATCH, `/v1/pets/${id}`, { method: "PATCH", key, headers: { "content-type": "text/plain" }, body: "{}", params: { petId: id } }),
        415,
      ],
    ])("%s", async (_label, send, status) => {
      const [fresh] = await seedPets([{ name: "Patchable", categoryId: 1 }]);
      const res = await send(String(fresh!.id));
      expect(res.status).toBe(status);
      await expectConforms("/pets/{petId}", "patch", res);
    });
  });

  it("GET /pets/{petId}: 410 gone after the sunset", async () => {
    setClock(new Date("2030-12-05T00:00:00Z"));
    const res = await getOne(String(pet.id));
    expect(res.status).toBe(410);
    await expectConforms("/pets/{petId}", "get", res);
  });

  it.each([
    ["200", () => call(categoriesRoute.GET, "/v1/categories", { key }), 200],
    ["401", () => call(categoriesRoute.GET, "/v1/categories", { authorization: "Basic xyz" }), 401],
    ["403", () => call(categoriesRoute.GET, "/v1/categories", { key: writeOnlyKey }), 403],
  ])("GET /categories: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    const body = await expectConforms("/categories", "get", res);
    if (status === 200) {
      expect((body as { id: number; name: string }[]).map(({ id, name }) => ({ id, name }))).toEqual(
        ["Dogs", "Cats", "Rabbits", "Birds", "Reptiles", "Small mammals"].map((name, i) => ({ id: i + 1, name })),
      );
    }
  });

  it.each([
    ["200", () => call(breedsRoute.GET, "/v1/categories/2/breeds", { key, params: { categoryId: "2" } }), 200],
    ["400", () => call(breedsRoute.GET, "/v1/categories/x/breeds", { key, params: { categoryId: "x" } }), 400],
    ["404", () => call(breedsRoute.GET, "/v1/categories/99/breeds", { key, params: { categoryId: "99" } }), 404],
    ["401", () => call(breedsRoute.GET, "/v1/categories/2/breeds", { authorization: "Basic xyz", params: { categoryId: "2" } }), 401],
    ["403", () => call(breedsRoute.GET, "/v1/categories/2/breeds", { key: writeOnlyKey, params: { categoryId: "2" } }), 403],
  ])("GET /categories/{categoryId}/breeds: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    await expectConforms("/categories/{categoryId}/breeds", "get", res);
  });

  it("GET /pets: 429 rate_limited, then 429 key_temporarily_banned", async () => {
    const limited = await newKey(["pets:read"], "tiny quota", { plan: "enterprise", perMinute: 2, perDay: 1000 });
    setClock(new Date("2027-03-01T10:00:05Z"));
    const send = () => call(petsRoute.GET, "/v1/pets", { key: limited.key });
    for (let i = 0; i < 2; i++) await expectConforms("/pets", "get", await send());

    const res = await send();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("55");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await expectConforms("/pets", "get", res)).toMatchObject({ code: "rate_limited" });

    expect((await send()).status).toBe(429);
    const banned = await send(); // 2 × the per-minute figure + 1: banned
    expect(banned.status).toBe(429);
    expect(await expectConforms("/pets", "get", banned)).toMatchObject({ code: "key_temporarily_banned" });
  });

  it("405 answers (methods the document has no operation for) still match the Error schema", async () => {
    const validate = ajv.getSchema(`${COMPONENTS_ID}#/$defs/Error`)!;
    for (const [handler, method, p, params] of [
      [petsRoute.PUT, "PUT", "/v1/pets", {}],
      [petRoute.POST, "POST", "/v1/pets/1", { petId: "1" }],
    ] as const) {
      const res = await call(handler, p, { method, key, params });
      expect(res.status).toBe(405);
      const body = await res.json();
      expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    }
  });
});
