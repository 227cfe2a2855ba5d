import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, openApiDocument } from "@/lib/openapi/document";

// The contract pinned byte for byte: moving modules around (issue 41) must not
// change a single character of what partners and the site read. The fixtures
// are the documents as served (the partner one through the same function as
// GET /v1/openapi.json, for a fixed origin) and the site's build (what
// scripts/openapi-types.ts generates the typed client from), as text.
// A deliberate change of the contract regenerates them:
//   UPDATE_OPENAPI_FIXTURES=1 npm run test:unit -- tests/api/openapi-fixture.test.ts
// and the diff of the fixture is then part of the review.

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/openapi");
const ORIGIN = "http://petstore.test";

const documents: Record<string, () => unknown> = {
  "partner.json": () => openApiDocument(ORIGIN),
  "site.json": () => buildOpenApiDocument("site"),
};

describe("the OpenAPI documents are byte-for-byte the committed ones", () => {
  for (const [file, build] of Object.entries(documents)) {
    it(file, () => {
      const text = `${JSON.stringify(build(), null, 2)}\n`;
      const fixture = path.join(FIXTURES, file);
      if (process.env.UPDATE_OPENAPI_FIXTURES === "1") writeFileSync(fixture, text);
      expect(text === readFileSync(fixture, "utf8"), `${file} differs from tests/fixtures/openapi/${file}`).toBe(true);
    });
  }
});
