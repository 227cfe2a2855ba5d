import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as catchAll from "@/app/v1/[[...path]]/route";
import * as categoriesRoute from "@/app/v1/categories/route";
import * as petRoute from "@/app/v1/pets/[petId]/route";
import * as petsRoute from "@/app/v1/pets/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import * as pageQueries from "@/lib/pets/queries/pages";
import * as lookupQueries from "@/lib/pets/queries/lookups";
import * as writeQueries from "@/lib/pets/queries/writes";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, IN_THE_SHELTER, LISTING_UNKNOWN, newKey, seedPets, type RouteHandler } from "./helpers";

// What every /v1 response has in common: request ids, CORS, the error shape,
// 404/405 answers, and errors that leak nothing.

let key: string;
let readOnlyKey: string;
let pet: Pet;

beforeAll(async () => {
  ({ key } = await newKey());
  ({ key: readOnlyKey } = await newKey(["pets:read"]));
  [pet] = (await seedPets([{ name: "Header test", categoryId: 1 }])) as [Pet];
});

afterEach(() => {
  vi.restoreAllMocks();
  setClock();
});

const json = { "content-type": "application/json" };
const petParams = () => ({ petId: String(pet.id) });

/** A spread of answers, success and error, from every route. */
const RESPONSES: [string, () => Promise<Response>][] = [
  ["200 list", () => call(petsRoute.GET, "/v1/pets", { key })],
  ["201 create", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, json: { name: "Rex", categoryId: 1 } })],
  ["200 get", () => call(petRoute.GET, `/v1/pets/${pet.id}`, { key, params: petParams() })],
  ["200 categories", () => call(categoriesRoute.GET, "/v1/categories", { key })],
  ["400 invalid_query", () => call(petsRoute.GET, "/v1/pets?limit=0", { key })],
  ["400 invalid_body", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, json: {} })],
  ["401", () => call(petsRoute.GET, "/v1/pets")],
  ["403", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key: readOnlyKey, json: { name: "Rex", categoryId: 1 } })],
  ["404 pet", () => call(petRoute.GET, "/v1/pets/999999", { key, params: { petId: "999999" } })],
  ["404 path", () => call(catchAll.GET, "/v1/nope", { key, params: { path: ["nope"] } })],
  ["405", () => call(petsRoute.DELETE, "/v1/pets", { method: "DELETE", key })],
  ["413", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, headers: json, body: "x".repeat(65 * 1024 + 1) })],
  ["415", () => call(petsRoute.POST, "/v1/pets", { method: "POST", key, body: "x", headers: { "content-type": "text/plain" } })],
];

describe("Vary", () => {
  it.each(RESPONSES)("%s varies on the caller (Authorization, Cookie) and on nothing else", async (_label, send) => {
    expect((await send()).headers.get("vary")).toBe("Authorization, Cookie");
  });
});

describe("X-Request-Id", () => {
  it.each(RESPONSES)("%s carries a fresh X-Request-Id", async (_label, send) => {
    const res = await send();
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("each request gets its own id", async () => {
    const a = await call(petsRoute.GET, "/v1/pets", { key });
    const b = await call(petsRoute.GET, "/v1/pets", { key });
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  it.each(["abc-123", "req_01HZX.9:a", "A".repeat(128)])("echoes a sane incoming X-Request-Id %s", async (id) => {
    const ok = await call(petsRoute.GET, "/v1/pets", { key, headers: { "x-request-id": id } });
    expect(ok.headers.get("x-request-id")).toBe(id);
    const failed = await call(petsRoute.GET, "/v1/pets", { headers: { "x-request-id": id } });
    expect(failed.status).toBe(401);
    expect(failed.headers.get("x-request-id")).toBe(id);
  });

  it.each(["<script>", "a b", "A".repeat(129), "x;y", "ünï"])("replaces an insane incoming X-Request-Id %j", async (id) => {
    const res = await call(petsRoute.GET, "/v1/pets", { key, headers: { "x-request-id": id } });
    const echoed = res.headers.get("x-request-id");
    expect(echoed).not.toBe(id);
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
  });

  // Product notes: "Every response carries X-Request-Id". Preflight answers bypass withApi.
  it.each([
    ["/v1/pets", petsRoute.OPTIONS],
    ["/v1/pets/{petId}", petRoute.OPTIONS],
    ["/v1/categories", categoriesRoute.OPTIONS],
  ])("the CORS preflight answer of OPTIONS %s carries X-Request-Id too", async (label, options) => {
    const res = await options(new Request(`http://localhost${label}`, { method: "OPTIONS" }));
    expect(res.status).toBe(204);
    expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });

  it("a preflight for a path that does not exist fails like the request would (404, with X-Request-Id)", async () => {
    const res = await catchAll.OPTIONS(new Request("http://localhost/v1/anything", { method: "OPTIONS" }), {
      params: Promise.resolve({ path: ["anything"] }),
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await res.json()).toMatchObject({ code: "not_found", status: 404 });
  });
});

describe("CORS", () => {
  const EXPOSED = [
    "Link",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Retry-After",
    "Deprecation",
    "Sunset",
    "Location",
    "X-Request-Id",
  ];

  it.each(RESPONSES)("%s: Access-Control-Allow-Origin * and the exposed headers", async (_label, send) => {
    const res = await send();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    for (const header of EXPOSED) expect(exposed).toContain(header.toLowerCase());
  });

  it.each([
    ["/v1/pets", petsRoute.OPTIONS, ["GET", "POST"]],
    ["/v1/pets/{petId}", petRoute.OPTIONS, ["GET"]],
    ["/v1/categories", categoriesRoute.OPTIONS, ["GET"]],
  ])("OPTIONS %s → 204 preflight allowing Authorization", async (label, options, methods) => {
    const res = await options(new Request(`http://localhost${label}`, { method: "OPTIONS" }));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const allowMethods = (res.headers.get("access-control-allow-methods") ?? "").split(",").map((m) => m.trim());
    for (const method of methods) expect(allowMethods).toContain(method);
    const allowHeaders = (res.headers.get("access-control-allow-headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    expect(allowHeaders).toContain("authorization");
    expect(allowHeaders).toContain("content-type");
  });
});

describe("405 method_not_allowed", () => {
  it.each([
    ["PUT /v1/pets", petsRoute.PUT, "PUT", "/v1/pets", {}, ["GET", "POST"]],
    ["PATCH /v1/pets", petsRoute.PATCH, "PATCH", "/v1/pets", {}, ["GET", "POST"]],
    ["DELETE /v1/pets", petsRoute.DELETE, "DELETE", "/v1/pets", {}, ["GET", "POST"]],
    ["POST /v1/pets/{petId}", petRoute.POST, "POST", "/v1/pets/1", { petId: "1" }, ["GET"]],
    ["DELETE /v1/pets/{petId}", petRoute.DELETE, "DELETE", "/v1/pets/1", { petId: "1" }, ["GET"]],
    ["POST /v1/categories", categoriesRoute.POST, "POST", "/v1/categories", {}, ["GET"]],
  ])("%s → 405 with an Allow header", async (_label, handler, method, path, params, allowed) => {
    const res = await call(handler as RouteHandler, path, { method, key, params });
    await expectApiError(res, 405, "method_not_allowed");
    const allow = (res.headers.get("allow") ?? "").split(",").map((m) => m.trim());
    for (const m of allowed) expect(allow).toContain(m);
    expect(allow).not.toContain(method);
  });
});

describe("unknown paths", () => {
  it.each([
    ["GET", ["nope"]],
    ["POST", ["store", "orders"]],
    ["DELETE", ["pets", "1", "photos"]],
    ["GET", []],
  ] as const)("%s /v1/%s → 404 not_found as JSON", async (method, path) => {
    const handler = catchAll[method as "GET" | "POST" | "DELETE"];
    const res = await call(handler, `/v1/${path.join("/")}`, { method, key, params: { path: [...path] } });
    await expectApiError(res, 404, "not_found");
  });
});

describe("the error shape", () => {
  it.each(RESPONSES.filter(([label]) => /^[45]/.test(label)))("%s is exactly { code, message, status (+details) }", async (label, send) => {
    const res = await send();
    expect(res.status).toBe(Number(label.slice(0, 3)));
    const body = (await res.clone().json()) as Record<string, unknown>;
    await expectApiError(res, res.status, String(body.code));
  });
});

describe("unexpected failures leak nothing", () => {
  const SECRET = 'relation "pets" secret SQL';

  it("an unknown error → 500 internal_error, generic, without the error's message", async () => {
    vi.spyOn(pageQueries, "findPetPage").mockRejectedValue(
      Object.assign(new Error(SECRET), { stack: `Error: ${SECRET}\n    at secretFrame (/srv/app/lib/pets/queries.ts:1:1)` }),
    );
    const res = await call(petsRoute.GET, "/v1/pets", { key });
    const text = await res.clone().text();
    const body = await expectApiError(res, 500, "internal_error");
    expect(body.details).toBeUndefined();
    for (const leak of ["secret", "relation", "SQL", "queries.ts", "secretFrame", " at ", "stack", "Error:"]) expect(text).not.toContain(leak);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("a Prisma-style error on create → 500 without the query", async () => {
    vi.spyOn(writeQueries, "createPetWithRecords").mockRejectedValue(
      Object.assign(new Error('Invalid `prisma.pet.create()` invocation: INSERT INTO "pets" violates secret'), { code: "P2010" }),
    );
    const res = await call(petsRoute.POST, "/v1/pets", { method: "POST", key, json: { name: "Rex", categoryId: 1 } });
    const text = await res.clone().text();
    await expectApiError(res, 500, "internal_error");
    for (const leak of ["prisma", "INSERT", "secret", "P2010"]) expect(text).not.toContain(leak);
  });

  it("a refused database connection → 503 service_unavailable with Retry-After", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:5432"), { code: "ECONNREFUSED" });
    vi.spyOn(lookupQueries, "findPetById").mockRejectedValue(refused);
    const res = await call(petRoute.GET, `/v1/pets/${pet.id}`, { key, params: petParams() });
    const text = await res.clone().text();
    await expectApiError(res, 503, "service_unavailable");
    expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    for (const leak of ["10.0.0.7", "5432", "ECONNREFUSED"]) expect(text).not.toContain(leak);
  });

  it("a refused connection wrapped as a cause → 503 too", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    vi.spyOn(lookupQueries, "findCategories").mockRejectedValue(new Error("driver adapter error", { cause: refused }));
    const res = await call(categoriesRoute.GET, "/v1/categories", { key });
    await expectApiError(res, 503, "service_unavailable");
    expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  });
});

describe("int64 ids leave as JSON numbers", () => {
  it("ids and categoryIds are numbers in the JSON text, not strings", async () => {
    const res = await call(petsRoute.POST, "/v1/pets", { method: "POST", key, json: { name: "Numbers", categoryId: 5 } });
    const text = await res.clone().text();
    const created = await expectJson<Pet>(res, 201);
    expect(text).toMatch(new RegExp(`"id":${created.id}[,}]`));
    expect(text).toMatch(/"categoryId":5[,}]/);

    const listText = await (await call(petsRoute.GET, "/v1/pets?limit=100", { key })).text();
    expect(listText).not.toMatch(/"(id|categoryId)":"/);
  });

  it("the largest id a client may use, 2^53-1, round-trips exactly", async () => {
    const big = BigInt(Number.MAX_SAFE_INTEGER);
    await db().pet.create({ data: { id: big, name: "Big", categoryId: 2n, organizationId: 1n, status: "sold" } });
    try {
      const res = await call(petRoute.GET, `/v1/pets/${big}`, { key, params: { petId: String(big) } });
      const text = await res.clone().text();
      expect(await expectJson<Pet>(res)).toEqual({
        id: Number.MAX_SAFE_INTEGER,
        name: "Big",
        categoryId: 2,
        organizationId: 1,
        status: "sold",
        version: 1,
        sex: "unknown",
        size: null,
        birthDate: null,
        ageGroup: null,
        breed: null,
        description: null,
        goodWith: { children: null, dogs: null, cats: null },
        photos: [],
        ...LISTING_UNKNOWN,
        ...IN_THE_SHELTER,
      });
      expect(text).toContain(`"id":${big}`);
      const listed = await expectJson<Pet[]>(await call(petsRoute.GET, "/v1/pets?status=sold", { key }));
      expect(listed[0]?.id).toBe(Number.MAX_SAFE_INTEGER);
    } finally {
      await db().pet.delete({ where: { id: big } });
    }
  });
});
