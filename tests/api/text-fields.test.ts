import { beforeAll, describe, expect, it } from "vitest";
import { POST as endRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { PATCH as correctRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/route";
import { GET as listStaysRoute, POST as openRoute } from "@/app/v1/pets/[petId]/stays/route";
import { GET as listPets, POST as createRoute } from "@/app/v1/pets/route";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { readJsonBody } from "@/lib/http/body";
import { readFormUpload } from "@/lib/http/form-upload";
import { readQuery } from "@/lib/http/query";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { Stay } from "@/lib/stays/schemas";
import { call, expectApiError, expectJson, newKey } from "./helpers";

// Issue 48: one rule for the text of every request. A NUL character in a
// stay's subtype (or in intake.subtype of POST /v1/pets) was a 500 (the
// database refused it), and a lone surrogate was stored as U+FFFD without a
// word. Every text field of every body and query is refused now with 400
// naming the field (lib/core/text.ts, checked by the readers every route goes
// through: lib/http/body.ts, lib/http/query.ts).

const NUL = "Found on\u0000 Main St";
const LONE = "Found on \ud800Main St";
const ISSUE = "must not contain NUL or unpaired surrogate characters";

let key: string;
beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter records"));
});

const post = (json: unknown) => call(createRoute, "/v1/pets", { method: "POST", key, json });

describe("the reproductions", () => {
  it.each([
    ["a NUL", NUL],
    ["a lone surrogate", LONE],
  ])("POST /v1/pets with %s in intake.subtype: 400 invalid_body naming intake.subtype, and no animal made", async (_label, subtype) => {
    const before = await db().pet.count();
    const body = await expectApiError(await post({ name: "Subtle", categoryId: 1, intake: { type: "stray", subtype } }), 400, "invalid_body");
    expect(body.details).toEqual([{ field: "intake.subtype", issue: ISSUE }]);
    expect(body.message).toBe(`The request body is invalid. intake.subtype: ${ISSUE}`);
    expect(await db().pet.count()).toBe(before);
  });

  it("a stay's subtype (a new intake, an outcome, a correction) with a NUL or a lone surrogate: 400 naming the field; what is stored is unchanged", async () => {
    const pet = await expectJson<Pet>(await post({ name: "Stayer", categoryId: 1, intake: { type: "stray", subtype: "Found" } }), 201);
    const [stay] = await expectJson<Stay[]>(await call(listStaysRoute, `/v1/pets/${pet.id}/stays`, { key, params: { petId: String(pet.id) } }));
    const params = { petId: String(pet.id), stayId: String(stay!.id) };
    for (const subtype of [NUL, LONE]) {
      const ended = await call(endRoute, `/v1/pets/${pet.id}/stays/${stay!.id}/outcome`, {
        method: "POST",
        key,
        params,
        json: { type: "transferredOut", subtype },
      });
      expect((await expectApiError(ended, 400, "invalid_body")).details).toEqual([{ field: "subtype", issue: ISSUE }]);
      const corrected = await call(correctRoute, `/v1/pets/${pet.id}/stays/${stay!.id}`, { method: "PATCH", key, params, json: { intake: { subtype } } });
      expect((await expectApiError(corrected, 400, "invalid_body")).details?.map((d) => d.field)).toEqual(["intake.subtype"]);
      const opened = await call(openRoute, `/v1/pets/${pet.id}/stays`, {
        method: "POST",
        key,
        params: { petId: String(pet.id) },
        json: { intake: { type: "stray", subtype } },
      });
      expect((await expectApiError(opened, 400, "invalid_body")).details?.map((d) => d.field)).toEqual(["intake.subtype"]);
    }
    const rows = await db().petStay.findMany({ where: { petId: BigInt(pet.id) }, select: { intakeSubtype: true, outcomeType: true } });
    expect(rows).toEqual([{ intakeSubtype: "Found", outcomeType: null }]);
  });

  it("a query's text: ?q with a NUL, ?near with a NUL, ?q with a surrogate's UTF-8 bytes (which the URL parser turns into U+FFFD): 400 invalid_query naming the parameter", async () => {
    for (const [query, field] of [
      ["q=a%00b", "q"],
      ["near=41.88%00,-87.63", "near"],
      ["q=a%ED%A0%80b", "q"],
      ["q=%FF", "q"],
    ] as const) {
      const body = await expectApiError(await call(listPets, `/v1/pets?${query}`, { key }), 400, "invalid_query");
      expect(
        body.details?.map((d) => d.field),
        query,
      ).toEqual([field]);
    }
    // A % that encodes nothing is a plain character, and real UTF-8 is text.
    expect((await call(listPets, "/v1/pets?q=100%", { key })).status).toBe(200);
    expect((await call(listPets, `/v1/pets?q=${encodeURIComponent("Zoë 🐶")}`, { key })).status).toBe(200);
  });
});

describe("a form's text fields (a photo's alt, an import's options)", () => {
  it("a NUL in a field is 400 invalid_body naming it; the same form without it is read", async () => {
    const form = (alt: string) => {
      const data = new FormData();
      data.set("file", new Blob([Buffer.from("bytes")], { type: "image/jpeg" }), "rex.jpg");
      data.set("alt", alt);
      return new Request("http://localhost/v1/pets/1/photos", { method: "POST", body: data });
    };
    const limits = { maxFileBytes: 1_000, tooLarge: () => new ApiError(413, "payload_too_large", "too large"), fields: ["alt"] };
    const error = await refusal(() => readFormUpload(form("Asleep\u0000"), limits));
    expect([error.status, error.code, error.details]).toEqual([400, "invalid_body", [{ field: "alt", issue: ISSUE }]]);
    expect((await readFormUpload(form("Asleep on a blanket"), limits)).fields).toEqual({ alt: "Asleep on a blanket" });
  });
});

// ---------------------------------------------------------------- every field of the contract

type JsonSchema = { $ref?: string; type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema } & Partial<
  Record<"allOf" | "anyOf" | "oneOf", JsonSchema[]>
>;
type Operation = { parameters?: { in: string; name: string; schema?: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, JsonSchema> } };

const isString = (s: JsonSchema) => s.type === "string" || (Array.isArray(s.type) && s.type.includes("string"));

/** Every path to a string in a schema (following $refs; an array's item as index 0), as the answers name fields. */
function stringPaths(doc: Document, schema: JsonSchema, at: string[] = [], seen: Set<JsonSchema> = new Set()): string[][] {
  if (schema.$ref) {
    const target = doc.components.schemas[schema.$ref.split("/").at(-1)!]!;
    if (seen.has(target)) return [];
    return stringPaths(doc, target, at, new Set([...seen, target]));
  }
  return [
    ...(isString(schema) ? [at] : []),
    ...Object.entries(schema.properties ?? {}).flatMap(([key, s]) => stringPaths(doc, s, [...at, key], seen)),
    ...(schema.items ? stringPaths(doc, schema.items, [...at, "0"], seen) : []),
    ...(["allOf", "anyOf", "oneOf"] as const).flatMap((k) => (schema[k] ?? []).flatMap((s) => stringPaths(doc, s, at, seen))),
  ];
}

/** A body holding `text` at `path` (objects, and arrays for numeric steps), nothing else. */
function bodyWith(path: string[], text: string): unknown {
  if (path.length === 0) return text;
  const [head, ...rest] = path;
  return head === "0" ? [bodyWith(rest, text)] : { [head!]: bodyWith(rest, text) };
}

async function refusal(read: () => Promise<unknown> | unknown): Promise<ApiError> {
  try {
    await read();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe.each(["partner", "site"] as const)("every text field of the %s document", (audience) => {
  const doc = buildOpenApiDocument(audience) as unknown as Document;
  const operations = Object.entries(doc.paths).flatMap(([route, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${route}`, op })),
  );

  it("in a JSON request body refuses a NUL and a lone surrogate with 400 invalid_body naming the field", async () => {
    const cases = operations.flatMap(({ name, op }) =>
      Object.entries(op.requestBody?.content ?? {})
        .filter(([type]) => /json/.test(type))
        .flatMap(([, media]) => stringPaths(doc, media.schema).map((path) => ({ name, path }))),
    );
    // Dozens of text fields (a new one joins by itself): names, descriptions, subtypes, e-mails, URLs…
    expect(cases.length).toBeGreaterThan(audience === "site" ? 60 : 40);
    expect(cases.some(({ path }) => path.join(".") === "intake.subtype")).toBe(true);
    for (const { name, path } of cases) {
      for (const text of [NUL, LONE]) {
        const request = new Request("http://localhost/v1", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(bodyWith(path, text)),
        });
        const error = await refusal(() => readJsonBody(request));
        expect([error.status, error.code], name).toEqual([400, "invalid_body"]);
        expect(error.details, `${name} ${path.join(".")}`).toEqual([{ field: path.join("."), issue: ISSUE }]);
      }
    }
  });

  it("in a query refuses a NUL and a surrogate's bytes with 400 invalid_query naming the parameter", async () => {
    const cases = operations.flatMap(({ name, op }) => (op.parameters ?? []).filter((p) => p.in === "query").map((p) => ({ name, param: p.name })));
    expect(cases.length).toBeGreaterThan(20);
    for (const { name, param } of cases) {
      for (const value of ["a%00b", "a%ED%A0%80b"]) {
        const error = await refusal(() => readQuery(new URL(`http://localhost/v1?${encodeURIComponent(param)}=${value}`)));
        expect([error.status, error.code, error.details], `${name} ?${param}`).toEqual([400, "invalid_query", [{ field: param, issue: expect.any(String) }]]);
      }
    }
  });
});
