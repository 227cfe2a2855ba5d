import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";

// Checks real responses against the OpenAPI document: every body validates
// against the schema declared for its path/method/status, and every
// documented-kind header a response carries is declared for it (and the
// other way round). Used by the contract tests of every part of the API.

export type Json = Record<string, unknown>;
export interface ResponseSpec {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Json }>;
}
export interface Operation {
  operationId: string;
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; style?: string; explode?: boolean; schema: Json }[];
  responses: Record<string, ResponseSpec>;
}

export type Document = {
  openapi: string;
  info: { version: string };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  paths: Record<string, Record<string, Operation>>;
};

export const COMPONENTS_ID = "https://petstore.test/components.json";

/** `#/components/schemas/X` → a reference into the components schema registered with Ajv. */
export function rewriteRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteRefs) as T;
  if (node && typeof node === "object") {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")
          ? `${COMPONENTS_ID}#/$defs/${v.slice("#/components/schemas/".length)}`
          : rewriteRefs(v),
      ]),
    ) as T;
  }
  return node;
}

/** Headers of the kinds the document describes per response. */
const DOCUMENTED_KIND =
  /^(x-ratelimit-.+|ratelimit|ratelimit-policy|link|location|deprecation|sunset|retry-after|www-authenticate|allow|etag|idempotent-replayed)$/i;

/** A checker for one document. `sometimes`: "<header> <path> <method>" declared headers that are only sent sometimes. */
export function conformance(doc: Document, sometimes: Set<string>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const format of ["int64", "int32"]) ajv.addFormat(format, true);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(doc.components.schemas) });

  function operation(pathKey: string, method: string): Operation {
    const op = doc.paths[pathKey]?.[method];
    expect(op, `${method.toUpperCase()} ${pathKey} in the document`).toBeDefined();
    return op!;
  }

  /** Validates a real response against what the document declares for it; returns the body. */
  async function expectConforms(pathKey: string, method: string, res: Response): Promise<unknown> {
    const label = `${method.toUpperCase()} ${pathKey} → ${res.status}`;
    const spec = operation(pathKey, method).responses[String(res.status)];
    expect(spec, `${label} is declared`).toBeDefined();

    const text = await res.text();
    const schema = spec!.content?.["application/json"]?.schema;
    expect(schema, `${label} declares an application/json body`).toBeDefined();
    expect(res.headers.get("content-type")).toMatch(/^application\/json\b/);
    const body: unknown = JSON.parse(text);
    const validate = ajv.compile(rewriteRefs(schema!));
    expect(validate(body), `${label}: ${ajv.errorsText(validate.errors)}\nbody: ${text.slice(0, 300)}`).toBe(true);

    const declared = new Set(Object.keys(spec!.headers ?? {}).map((h) => h.toLowerCase()));
    const present = [...res.headers.keys()].filter((h) => DOCUMENTED_KIND.test(h));
    for (const header of present) expect(declared, `${label}: header ${header} is declared`).toContain(header.toLowerCase());
    // And the other way round: what the document promises is there (Link on a
    // list only when there is another page).
    for (const header of declared) {
      if (sometimes.has(`${header} ${pathKey} ${method}`)) continue;
      expect(res.headers.has(header), `${label}: declared header ${header} is sent`).toBe(true);
    }

    // An error's code is one of those the response's description lists.
    if (res.status >= 400) {
      const code = (body as { code: string }).code;
      expect(spec!.description, `${label}: code ${code} listed`).toContain(`\`${code}\``);
    }
    return body;
  }

  return { ajv, operation, expectConforms };
}
