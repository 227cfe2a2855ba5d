import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { env } from "@/lib/env";
import { registerFeedAndWebhooks } from "@/lib/openapi/feed-and-webhooks";
import { registerListingSites } from "@/lib/openapi/listing-sites";
import { registerSitePaths } from "@/lib/openapi/site";
import { registerAlerts } from "@/lib/openapi/alerts";
import { registerOrganizations } from "@/lib/openapi/organizations";
import { registerCategories } from "@/lib/openapi/categories";
import { registerImports } from "@/lib/openapi/imports";
import { registerStays } from "@/lib/openapi/stays";
import { registerPlacements } from "@/lib/openapi/placements";
import { registerReports } from "@/lib/openapi/reports";
import { registerPeople } from "@/lib/openapi/people";
import { registerPets } from "@/lib/openapi/pets";
import { registerFosters } from "@/lib/openapi/fosters";
import { KEY_SCOPE_DESCRIPTIONS, KEY_SCOPES } from "@/lib/keys/schemas";

// The contract, generated from the same zod schemas that parse requests,
// so the document cannot drift from what the handlers accept and return.

/**
 * The contract. "partner": what API keys can call, served at /v1/openapi.json.
 * "site": that plus the site's own endpoints (sessions, key management, the
 * audit trail), never served; it types the pages' calls (lib/site/openapi-types.ts).
 */
export function buildOpenApiDocument(audience: "partner" | "site" = "partner") {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: `Send your API key as \`Authorization: Bearer <API_KEY>\`. Keys look like \`pk_live_\` + 32 letters and digits. A key holds some of these scopes; each operation names the one it needs: ${KEY_SCOPES.map((scope) => `\`${scope}\``).join(", ")}.`,
    // The same list, for tools: what each scope allows.
    "x-scopes": Object.fromEntries(KEY_SCOPES.map((scope) => [scope, KEY_SCOPE_DESCRIPTIONS[scope] ?? scope])),
  });
  const security = [{ [bearer.name]: [] }];

  registerPets(registry, security);
  registerCategories(registry, security);
  registerOrganizations(registry, security);
  registerAlerts(registry, security, audience);
  registerFeedAndWebhooks(registry, security);
  registerListingSites(registry, security);
  registerImports(registry, security);
  registerStays(registry, security);
  registerPlacements(registry, security);
  registerReports(registry, security);
  registerPeople(registry, security);
  registerFosters(registry, security, audience);
  if (audience === "site") registerSitePaths(registry);

  const servers = [{ url: productionBaseUrl("http://localhost:3000"), description: "Production" }];
  const staging = env().STAGING_BASE_URL;
  if (staging) servers.push({ url: staging.replace(/\/+$/, ""), description: "Staging" });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Petstore API",
      version: "1.0.0",
      description:
        "Browse and manage animals available for adoption. All requests need an API key (`Authorization: Bearer <API_KEY>`). Rate limits by plan; every response carries `X-RateLimit-*` headers.",
      license: { name: "MIT", identifier: "MIT" },
      contact: { name: "Petstore API support", email: "api@petstore.example" },
    },
    servers,
    security,
    tags: [
      { name: "pets", description: "Animals available for adoption." },
      { name: "categories", description: "Groups of animals." },
      { name: "organizations", description: "The shelters and rescues animals are at: their contact, address and location." },
      { name: "applications", description: "Applications to adopt an animal, forwarded for an adopter (personal data: write-only for keys)." },
      { name: "alerts", description: "Email me new matches: adopters' alerts for new animals (double opt-in; personal data, never readable by keys)." },
      { name: "events", description: "The change feed: every change to an animal, in order, readable from where you stopped." },
      { name: "webhooks", description: "Endpoints of yours that we call when an animal changes (Standard Webhooks: signed, retried)." },
      {
        name: "listing-sites",
        description: "Your accounts on Petfinder, Adopt-a-Pet and RescueGroups: their files are uploaded over FTP within minutes of a change, and daily.",
      },
      { name: "stays", description: "A shelter's records: each animal's stays, from intake to outcome, in the Basic Data Matrix's categories." },
      {
        name: "placements",
        description:
          "Where each animal lives: its placements in volunteers' foster homes, inside its stays, and the custody list (scope `records:read` / `records:write`).",
      },
      { name: "imports", description: "A shelter's listing file (Petfinder, Adopt-a-Pet, RescueGroups, any CSV) imported in the background." },
      {
        name: "reports",
        description: "The monthly numbers shelters report to Shelter Animals Count (the Basic Data Matrix), from the animals' stays (scope `records:read`).",
      },
      {
        name: "people",
        description: "An organisation's people, fosters among them: personal data, for its staff and its keys with `people:read` / `people:write` only.",
      },
      { name: "fosters", description: "Applications to foster, and fosters' private pages (personal data: scopes `people:read`, `people:write`)." },
      ...(audience === "site" ? [{ name: "site", description: "The site's own endpoints (browser sessions, staff); not for API keys." }] : []),
    ],
  });
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let built: OpenApiDocument | undefined;

/** The production server: PUBLIC_BASE_URL, or else the origin the reader addressed (its path ends in /v1, spec section 1). */
function productionBaseUrl(origin: string): string {
  return (env().PUBLIC_BASE_URL ?? `${origin}/v1`).replace(/\/+$/, "");
}

/**
 * The document for serving: built once per process (its inputs are code and
 * boot-time configuration); only the production server's address follows the
 * origin the reader used, when PUBLIC_BASE_URL does not fix it.
 */
export function openApiDocument(origin: string): OpenApiDocument {
  built ??= buildOpenApiDocument();
  const [production, ...others] = built.servers ?? [];
  return { ...built, servers: [{ ...production!, url: productionBaseUrl(origin) }, ...others] };
}
