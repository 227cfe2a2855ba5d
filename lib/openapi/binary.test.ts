import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";

// A photo travels as bytes: the multipart form's `file` part (the one body
// the document offers, decision 024; the image as the body itself is taken
// too, and described in `x-raw-image-body`). OpenAPI 3.1 describes such bytes with contentMediaType, but
// the common generators key files on `format: binary` (openapi-typescript's
// Blob recipe, @hey-api/openapi-ts, openapi-generator); 3.1 allows both
// together. Without it, a generated client types the photo as a string and
// its validator rejects the Blob it is given.

type Schema = { $ref?: string; type?: unknown; format?: unknown; contentMediaType?: unknown; properties?: Record<string, Schema> };

function binaryParts(document: ReturnType<typeof buildOpenApiDocument>): { where: string; schema: Schema }[] {
  const found: { where: string; schema: Schema }[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods as Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>)) {
      for (const [mediaType, { schema: declared }] of Object.entries(operation.requestBody?.content ?? {})) {
        const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
        const schema = declared?.$ref ? components[declared.$ref.split("/").at(-1)!] : declared;
        if (!schema) continue;
        const where = `${method.toUpperCase()} ${path} ${mediaType}`;
        if (schema.contentMediaType || mediaType.startsWith("image/")) found.push({ where, schema });
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          if (property.contentMediaType) found.push({ where: `${where} ${name}`, schema: property });
        }
      }
    }
  }
  return found;
}

describe("binary request parts in the OpenAPI documents", () => {
  it.each(["partner", "site"] as const)("are strings of format binary beside their contentMediaType (%s)", (audience) => {
    const parts = binaryParts(buildOpenApiDocument(audience));
    expect(parts.map((p) => p.where)).toEqual(expect.arrayContaining(["POST /pets/{petId}/photos multipart/form-data file"]));
    // One documented body for the photo: a generator that cannot choose between media types sends neither.
    expect(parts.filter((p) => / image\//.test(p.where))).toEqual([]);
    for (const { where, schema } of parts) {
      expect({ where, type: schema.type, format: schema.format, media: typeof schema.contentMediaType }).toEqual({
        where,
        type: "string",
        format: "binary",
        media: "string",
      });
    }
  });
});
