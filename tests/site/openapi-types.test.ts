import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { TYPES_FILE, generateSiteTypes } from "@/scripts/openapi-types";

// The site's calls are typed from the contract: lib/site/openapi-types.ts is
// generated from the OpenAPI document. When a schema changes and the file is
// not regenerated, the pages would be typed against the old contract: fail.

describe("lib/site/openapi-types.ts", () => {
  it("is what `npm run openapi:types` generates from the current document", async () => {
    const committed = fs.readFileSync(TYPES_FILE, "utf8");
    const fresh = await generateSiteTypes();
    expect(committed === fresh, "lib/site/openapi-types.ts is stale: run `npm run openapi:types` and commit the result").toBe(true);
  }, 30_000);

  it("types the site-only endpoints and the partner contract, webhooks included", async () => {
    const text = fs.readFileSync(TYPES_FILE, "utf8");
    for (const path of ['"/pets"', '"/events"', '"/webhooks/{webhookId}/deliveries"', '"/session"', '"/keys/{keyId}/webhooks"', '"/pets/{petId}/history"']) {
      expect(text).toContain(`${path}: {`);
    }
    expect(text).toMatch(/export interface webhooks \{[\s\S]*"pet\.updated"/);
  });
});
