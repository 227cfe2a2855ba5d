import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { POST as createOrganizationRoute } from "@/app/v1/organizations/route";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { RouteDeclaration } from "@/lib/http/handler";
import { UNKNOWN_FIELDS_NAMED, validationError } from "@/lib/core/errors";
import { lenientObjects, meantField } from "@/lib/core/unknown-fields";
import { newPetSchema } from "@/lib/pets/schemas/pet";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { call, expectApiError, newKey, seedPets, type RouteHandler } from "./helpers";

// Nothing accepted is lost silently: every JSON body of every route refuses
// the fields it does not know, at every depth, with 400 invalid_body naming
// each (and the field it most likely meant, when a flat spelling of a nested
// one was sent), never a 201 that dropped them. Each route file is read from
// the disk, so a route added later is held to it too.

// The look-up of the field an unknown one meant walks the schema: counted, to show it runs for the named fields only.
vi.mock("@/lib/core/unknown-fields", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/core/unknown-fields")>();
  return { ...actual, meantField: vi.fn(actual.meantField) };
});

const V1 = path.join(process.cwd(), "app", "v1");
const METHODS = ["POST", "PUT", "PATCH", "DELETE", "GET"] as const;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** Every route method that takes a JSON body, with its schema. */
async function bodies(): Promise<{ name: string; schema: z.ZodType }[]> {
  const found: { name: string; schema: z.ZodType }[] = [];
  for (const file of routeFiles(V1)) {
    const mod = (await import(file)) as Record<string, (RouteHandler & { declared?: RouteDeclaration }) | undefined>;
    for (const method of METHODS) {
      const schema = mod[method]?.declared?.body;
      if (schema) found.push({ name: `${method} /${path.relative(path.join(process.cwd(), "app"), path.dirname(file))}`, schema });
    }
  }
  return found;
}

describe("every JSON body", () => {
  it("is strict at every depth: no object in any route's body schema lets an unknown field through", async () => {
    const all = await bodies();
    // The routes that take a JSON body today (a new one joins by itself).
    expect(all.length).toBeGreaterThanOrEqual(16);
    const lenient = Object.fromEntries(all.map(({ name, schema }) => [name, lenientObjects(schema)]).filter(([, paths]) => paths!.length > 0));
    expect(lenient).toEqual({});
  });

  it("each refuses an unknown top-level field by name", async () => {
    for (const { name, schema } of await bodies()) {
      const result = schema.safeParse({ surelyNotAField: 1 });
      expect(result.success, name).toBe(false);
      const unknown = result.error!.issues.flatMap((i) => (i.code === "unrecognized_keys" ? i.keys : []));
      expect(unknown, name).toContain("surelyNotAField");
    }
  });
});

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  items?: JsonSchema;
} & Partial<Record<"allOf" | "anyOf" | "oneOf", JsonSchema[]>>;

/** Every object in a request body's schema (following $refs) that does not say additionalProperties: false, by where it is. */
function openObjects(doc: { components: { schemas: Record<string, JsonSchema> } }, schema: JsonSchema, at: string, seen = new Set<JsonSchema>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  if (schema.$ref) return openObjects(doc, doc.components.schemas[schema.$ref.split("/").at(-1)!]!, `${at} (${schema.$ref.split("/").at(-1)})`, seen);
  const own = schema.properties && schema.additionalProperties !== false ? [at] : [];
  return [
    ...own,
    ...Object.entries(schema.properties ?? {}).flatMap(([key, s]) => openObjects(doc, s, `${at}.${key}`, seen)),
    ...(schema.items ? openObjects(doc, schema.items, `${at}[]`, seen) : []),
    ...(["allOf", "anyOf", "oneOf"] as const).flatMap((k) => (schema[k] ?? []).flatMap((s) => openObjects(doc, s, at, seen))),
  ];
}

describe("the OpenAPI documents", () => {
  it.each(["partner", "site"] as const)("%s: every JSON request body states additionalProperties: false at every depth", (audience) => {
    const doc = buildOpenApiDocument(audience) as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
      components: { schemas: Record<string, JsonSchema> };
    };
    const open: string[] = [];
    let bodies = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
          if (!/json/.test(type)) continue;
          bodies++;
          open.push(...openObjects(doc, media.schema, `${method.toUpperCase()} ${route} ${type}`));
        }
      }
    }
    expect(bodies).toBeGreaterThan(audience === "site" ? 16 : 10);
    expect(open).toEqual([]);
  });
});

describe("POST /v1/pets", () => {
  it("a flat spelling of a nested field is 400 invalid_body naming it and the field it meant; nothing is created", async () => {
    const { key } = await newKey(["pets:read", "pets:write"]);
    const before = await db().pet.count();
    const res = await call(createPetRoute, "/v1/pets", { method: "POST", key, json: { name: "Flat", categoryId: 1, goodWithChildren: false } });
    const body = await expectApiError(res, 400, "invalid_body");
    expect(body.details).toEqual([{ field: "goodWithChildren", issue: "is not a known field: did you mean goodWith.children?" }]);
    expect(body.message).toContain("goodWithChildren");
    expect(await db().pet.count()).toBe(before);
  });

  it("any unknown field, at the top (id included) or nested, is refused by its path", async () => {
    const { key } = await newKey(["pets:read", "pets:write"]);
    const refused = async (json: Record<string, unknown>) =>
      (
        await expectApiError(
          await call(createPetRoute, "/v1/pets", { method: "POST", key, json: { name: "Strict", categoryId: 1, ...json } }),
          400,
          "invalid_body",
        )
      ).details;
    expect(await refused({ id: 5 })).toEqual([{ field: "id", issue: "is not a known field" }]);
    expect(await refused({ Name: "Shout" })).toEqual([{ field: "Name", issue: "is not a known field: did you mean name?" }]);
    expect(await refused({ adoptionFeeAmountCents: 100 })).toEqual([
      { field: "adoptionFeeAmountCents", issue: "is not a known field: did you mean adoptionFee.amountCents?" },
    ]);
    const nested = await refused({ goodWith: { children: true, kids: true } });
    expect(nested?.map((d) => d.field)).toEqual(["goodWith.kids"]);
  });
});

describe("other bodies", () => {
  it("an application with a field it does not take is 400 and nothing is stored", async () => {
    const { key } = await newKey(["pets:read", "applications:write"], "listing site");
    const [pet] = await seedPets([{}]);
    const res = await call(applyRoute, `/v1/pets/${pet!.id}/applications`, {
      method: "POST",
      key,
      params: { petId: String(pet!.id) },
      json: { name: "Extra", email: "extra@example.org", home: "house", message: "Hi.", consent: true, homeVisitOk: true },
    });
    expect((await expectApiError(res, 400, "invalid_body")).details?.map((d) => d.field)).toEqual(["homeVisitOk"]);
    expect(await db().adoptionApplication.count({ where: { email: "extra@example.org" } })).toBe(0);
  });

  it("an organisation's location with a field it does not take is 400 naming its path; a flat latitude names location.lat", async () => {
    const { key } = await newKey(["organizations:manage"], "platform", { plan: "pro" }, null);
    const create = (json: Record<string, unknown>) =>
      call(createOrganizationRoute, "/v1/organizations", { method: "POST", key, json: { name: "Strict Rescue", email: "s@example.org", ...json } });
    const nested = await expectApiError(
      await create({ address: { city: "Leeds", country: "GB" }, location: { lat: 53.8, lng: -1.55, altitude: 30 } }),
      400,
      "invalid_body",
    );
    expect(nested.details?.map((d) => d.field)).toEqual(["location.altitude"]);
    const flat = await expectApiError(await create({ address: { city: "Leeds", country: "GB" }, locationLat: 53.8 }), 400, "invalid_body");
    expect(flat.details).toContainEqual({ field: "locationLat", issue: "is not a known field: did you mean location.lat?" });
  });
});

describe("a body of thousands of unknown fields (issue 48)", () => {
  const manyFields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i.toString(36)}`, 0]));

  it("10,000 unknown fields: the first five are named, the rest counted in one detail, and the schema is walked for the five only", () => {
    vi.mocked(meantField).mockClear();
    const result = newPetSchema.safeParse({ name: "Many", categoryId: 1, ...manyFields(10_000) });
    expect(result.success).toBe(false);
    const error = validationError("invalid_body", result.error!, newPetSchema);
    expect(UNKNOWN_FIELDS_NAMED).toBe(5);
    expect(error.details).toEqual([
      ...["x0", "x1", "x2", "x3", "x4"].map((field) => ({ field, issue: "is not a known field" })),
      { field: "", issue: "and 9995 more fields that are not known" },
    ]);
    expect(error.message).toBe("The request body is invalid. x0: is not a known field");
    expect(vi.mocked(meantField)).toHaveBeenCalledTimes(5);
  });

  it("over HTTP (as many as fit in a body: 5,000, top-level and nested): 400 with five named and the others counted per object; nothing is created", async () => {
    const { key } = await newKey(["pets:read", "pets:write"]);
    const before = await db().pet.count();
    const res = await call(createPetRoute, "/v1/pets", {
      method: "POST",
      key,
      json: { name: "Many", categoryId: 1, ...manyFields(3_000), goodWith: { children: true, ...manyFields(2_000) } },
    });
    const body = await expectApiError(res, 400, "invalid_body");
    // zod reports the nested object first: its first five are named, then each object's rest is counted.
    expect(body.details).toEqual([
      ...["x0", "x1", "x2", "x3", "x4"].map((field) => ({ field: `goodWith.${field}`, issue: "is not one of children, dogs, cats" })),
      { field: "goodWith", issue: "and 1995 more fields in goodWith that are not known" },
      { field: "", issue: "and 3000 more fields that are not known" },
    ]);
    expect(await db().pet.count()).toBe(before);
  });
});
