import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { KEY_SCOPES, type Scope } from "@/lib/keys/schemas";
import { LIVE_KEYS_PER_ORGANIZATION } from "@/lib/keys/plans";
import { FIRST_ORG, call, expectApiError, expectJson, newKey, newOrganization, seedPets, staffSession, type StaffSession } from "./helpers";
import { allRoutes } from "./route-list";

// Tenancy, held over every route. Each /v1 route file is read from the disk
// and each of its methods checked against this table: public routes are
// listed with why they are public; every other one is called with another
// organisation's API key and another organisation's staff session, on the
// first organisation's animal, application, key, webhook endpoint or
// profile, and must refuse (403, or 404 where the resource is the calling
// key's own) with nothing changed, or (lists) show none of it. A route
// added later is in neither list and fails the first test; one declared
// wrongly fails its row.

/** Routes anyone with the scope may call whatever organisation the data is of, and why. */
const PUBLIC: Record<string, string> = {
  "GET /v1/pets": "animals are public across organisations",
  "GET /v1/pets/{petId}": "animals are public across organisations",
  "GET /v1/categories": "categories are shared",
  "GET /v1/categories/{categoryId}/breeds": "categories and the listing sites' breed names are shared",
  "GET /v1/organizations": "organisations' profiles are public",
  "GET /v1/organizations/{organizationId}": "organisations' profiles are public",
  "GET /v1/organizations/{organizationId}/listings/{file}": "the listing sites' file holds only public animals (the pull feed)",
  "GET /v1/openapi.json": "the contract",
  "POST /v1/pets/{petId}/applications": "adopters and listing sites apply for any shelter's animal",
  "GET /v1/application-links/{token}": "the private link's token is the credential",
  "POST /v1/application-links/{token}/withdraw": "the private link's token is the credential",
  "POST /v1/alerts": "adopters ask to hear of any shelter's new animals (no organisation's data)",
  "GET /v1/alerts/{token}": "the alert's private link: its token is the credential",
  "PATCH /v1/alerts/{token}": "the alert's private link: its token is the credential",
  "DELETE /v1/alerts/{token}": "the alert's private link: its token is the credential",
  "POST /v1/alerts/{token}/confirm": "the alert's private link: its token is the credential",
  "POST /v1/alerts/{token}/unsubscribe": "the alert's private link: its token is the credential (RFC 8058 one-click)",
  "POST /v1/organizations/{organizationId}/foster-applications": "adopters and listing sites apply to foster for any shelter",
  "GET /v1/foster-links/{token}": "the foster's private link: its token is the credential",
  "PATCH /v1/foster-links/{token}": "the foster's private link: its token is the credential",
  "POST /v1/foster-links/{token}/notes": "the foster's private link: its token is the credential",
  "POST /v1/foster-links/{token}/ready": "the foster's private link: its token is the credential",
  "GET /v1/session": "the caller's own session",
  "POST /v1/session": "sign-in",
  "DELETE /v1/session": "sign-out",
  "GET /v1/{path}": "404 for paths that do not exist",
  "POST /v1/{path}": "404 for paths that do not exist",
  "PUT /v1/{path}": "404 for paths that do not exist",
  "PATCH /v1/{path}": "404 for paths that do not exist",
  "DELETE /v1/{path}": "404 for paths that do not exist",
};

// The first organisation's things, and another organisation's callers.
let home: {
  pet: number;
  stay: number;
  photo: number;
  application: number;
  key: number;
  keySecret: string;
  webhook: number;
  staff: StaffSession;
  listingSite: number;
  listingSiteChange: number;
  import: number;
  person: number;
};
let foreign: { org: number; key: string; staff: StaffSession; pet: number };

beforeAll(async () => {
  const [pet] = await seedPets([{ name: "Home pet" }]);
  const photo = await db().petPhoto.create({
    data: { petId: BigInt(pet!.id), position: 0, width: 10, height: 10, placeholder: "data:,", files: {}, fileKeys: [] },
    select: { id: true },
  });
  const key = await newKey(["pets:read", "pets:write", "webhooks:manage", "applications:write", "organizations:manage"], "home key");
  const webhook = await db().webhookEndpoint.create({
    data: { apiKeyId: BigInt(key.id), url: "https://hooks.home.example/in", events: ["pet.created", "pet.updated"], secret: "sealed", startAfter: 0n },
    select: { id: true },
  });
  const homeStaff = await staffSession();
  const { POST: apply } = await import("@/app/v1/pets/[petId]/applications/route");
  const applied = await call(apply, `/v1/pets/${pet!.id}/applications`, {
    method: "POST",
    key: key.key,
    params: { petId: String(pet!.id) },
    json: { name: "Sam", email: "sam@example.org", home: "house", message: "Hello", consent: true },
  });
  expect(applied.status).toBe(201);
  const application = ((await applied.json()) as { id: number }).id;
  const listingSite = await db().listingSite.create({
    data: { organizationId: BigInt(FIRST_ORG), site: "petfinder", host: "members.petfinder.com", username: "home", password: "sealed", accountId: "HOME1" },
    select: { id: true },
  });
  const listingSiteChange = await db().listingSiteAudit.create({
    data: {
      organizationId: BigInt(FIRST_ORG),
      siteId: listingSite.id,
      site: "petfinder",
      action: "created",
      fields: ["host"],
      after: { host: "members.petfinder.com" },
      actorKind: "staff",
      actorId: 1n,
      actorName: "home@petstore.test",
      requestId: "home",
    },
    select: { id: true },
  });
  const imported = await db().import.create({
    data: {
      organizationId: BigInt(FIRST_ORG),
      format: "petfinder",
      encoding: "utf-8",
      dryRun: true,
      missing: "keep",
      counts: {},
      photos: {},
      actorKind: "api_key",
      actorId: BigInt(key.id),
    },
    select: { id: true },
  });
  // The animal's stay (seeded animals have none: the create path opens it).
  const stay = await db().petStay.create({
    data: { petId: BigInt(pet!.id), organizationId: BigInt(FIRST_ORG), intakeAt: new Date("2026-01-01T00:00:00Z"), intakeType: "stray" },
    select: { id: true },
  });
  home = {
    pet: pet!.id,
    stay: Number(stay.id),
    photo: Number(photo.id),
    application,
    key: key.id,
    keySecret: key.key,
    webhook: Number(webhook.id),
    staff: homeStaff,
    listingSite: Number(listingSite.id),
    listingSiteChange: Number(listingSiteChange.id),
    import: Number(imported.id),
    person: Number(
      (
        await db().person.create({
          data: { organizationId: BigInt(FIRST_ORG), name: "Home Foster", fosterStatus: "active", fosterCapacity: 1 },
          select: { id: true },
        })
      ).id,
    ),
  };

  const org = await newOrganization({ name: "Elsewhere Rescue" });
  const [foreignPet] = await seedPets([{ name: "Foreign pet", organizationId: org }]);
  const foreignKey = await newKey(
    // Every scope a key can hold: each route's refusal is then the tenancy's, never a missing scope's.
    [...KEY_SCOPES],
    "foreign key",
    { plan: "pro" },
    org,
  );
  foreign = { org, key: foreignKey.key, staff: await staffSession(undefined, { organizationId: org }), pet: foreignPet!.id };
});

/** What a refused write must leave as it was. */
async function footprint() {
  const [pet, application, key, webhook, org, pets, photos, keys, listingSite, uploads, imports, stays, people] = await Promise.all([
    db().pet.findUniqueOrThrow({ where: { id: BigInt(home.pet) }, select: { name: true, version: true, status: true, inCare: true } }),
    db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(home.application) }, select: { state: true, updatedAt: true } }),
    db().apiKey.findUniqueOrThrow({ where: { id: BigInt(home.key) }, select: { revokedAt: true, bannedUntil: true } }),
    db().webhookEndpoint.findUniqueOrThrow({ where: { id: BigInt(home.webhook) }, select: { enabled: true, url: true, secret: true } }),
    db().organization.findUniqueOrThrow({ where: { id: BigInt(FIRST_ORG) }, select: { name: true, slug: true } }),
    db().pet.count({ where: { organizationId: BigInt(FIRST_ORG) } }),
    db().petPhoto.count({ where: { petId: BigInt(home.pet) } }),
    db().apiKey.count({ where: { organizationId: BigInt(FIRST_ORG) } }),
    db().listingSite.findUniqueOrThrow({ where: { id: BigInt(home.listingSite) }, select: { enabled: true, host: true, password: true, username: true } }),
    db().listingUpload.count(),
    db().import.count({ where: { organizationId: BigInt(FIRST_ORG) } }),
    db().petStay.findMany({ where: { petId: BigInt(home.pet) }, orderBy: { id: "asc" } }),
    db().person.findMany({ where: { organizationId: BigInt(FIRST_ORG) }, orderBy: { id: "asc" } }),
  ]);
  return { pet, application, key, webhook, org, pets, photos, keys, listingSite, uploads, imports, stays, people };
}

type Caller = { key?: string; headers?: Record<string, string> };
const asKey = (): Caller => ({ key: foreign.key });
const asStaff = (): Caller => ({ headers: foreign.staff.headers });

interface Row {
  /** The request another organisation's caller makes on the first organisation's resource. */
  request: () => { path: string; params: Record<string, string>; json?: unknown; body?: BodyInit; headers?: Record<string, string> };
  /** How each caller is refused: the status (403; 404 where the resource is the calling key's own and so "not there" for another). */
  refused?: { key?: number; staff?: number };
  /** For lists of private data: what another organisation's caller sees must hold none of the first's. */
  shows?: (body: unknown, who: "key" | "staff") => void;
}

const ids = (body: unknown) => (body as { id: number | string }[]).map((x) => x.id);

/** Every route that writes or shows an organisation's private data. */
const PRIVATE: Record<string, Row> = {
  "PATCH /v1/pets/{petId}": { request: () => ({ path: `/v1/pets/${home.pet}`, params: { petId: String(home.pet) }, json: { name: "Taken" } }) },
  "GET /v1/pets/{petId}/history": { request: () => ({ path: `/v1/pets/${home.pet}/history`, params: { petId: String(home.pet) } }) },
  "GET /v1/pets/{petId}/stays": { request: () => ({ path: `/v1/pets/${home.pet}/stays`, params: { petId: String(home.pet) } }) },
  "POST /v1/pets/{petId}/stays": {
    request: () => ({ path: `/v1/pets/${home.pet}/stays`, params: { petId: String(home.pet) }, json: { intake: { type: "stray" } } }),
  },
  "POST /v1/pets/{petId}/stays/{stayId}/outcome": {
    request: () => ({
      path: `/v1/pets/${home.pet}/stays/${home.stay}/outcome`,
      params: { petId: String(home.pet), stayId: String(home.stay) },
      json: { type: "transferredOut" },
    }),
  },
  "PATCH /v1/pets/{petId}/stays/{stayId}": {
    request: () => ({
      path: `/v1/pets/${home.pet}/stays/${home.stay}`,
      params: { petId: String(home.pet), stayId: String(home.stay) },
      json: { intake: { type: "stray" } },
    }),
  },
  "GET /v1/pets/{petId}/placements": { request: () => ({ path: `/v1/pets/${home.pet}/placements`, params: { petId: String(home.pet) } }) },
  "POST /v1/pets/{petId}/placements": {
    request: () => ({ path: `/v1/pets/${home.pet}/placements`, params: { petId: String(home.pet) }, json: { personId: 1 } }),
  },
  "POST /v1/pets/{petId}/placements/{placementId}/end": {
    request: () => ({
      path: `/v1/pets/${home.pet}/placements/1/end`,
      params: { petId: String(home.pet), placementId: "1" },
      json: { reason: "returnedToShelter" },
    }),
  },
  "PATCH /v1/pets/{petId}/placements/{placementId}": {
    request: () => ({ path: `/v1/pets/${home.pet}/placements/1`, params: { petId: String(home.pet), placementId: "1" }, json: { note: "Taken" } }),
  },
  "GET /v1/organizations/{organizationId}/custody": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/custody`, params: { organizationId: String(FIRST_ORG) } }),
  },
  "POST /v1/pets/{petId}/photos": {
    request: () => ({
      path: `/v1/pets/${home.pet}/photos`,
      params: { petId: String(home.pet) },
      body: new Uint8Array([0xff, 0xd8, 0xff]),
      headers: { "content-type": "image/jpeg" },
    }),
  },
  "PATCH /v1/pets/{petId}/photos/{photoId}": {
    request: () => ({
      path: `/v1/pets/${home.pet}/photos/${home.photo}`,
      params: { petId: String(home.pet), photoId: String(home.photo) },
      json: { alt: "Taken" },
    }),
  },
  "DELETE /v1/pets/{petId}/photos/{photoId}": {
    request: () => ({ path: `/v1/pets/${home.pet}/photos/${home.photo}`, params: { petId: String(home.pet), photoId: String(home.photo) } }),
  },
  "POST /v1/pets": {
    // Naming the first organisation: refused (its own organisation is the default).
    request: () => ({ path: "/v1/pets", params: {}, json: { name: "Planted", categoryId: 1, organizationId: FIRST_ORG } }),
  },
  "GET /v1/applications": { request: () => ({ path: "/v1/applications", params: {} }), shows: (body) => expect(ids(body)).not.toContain(home.application) },
  "GET /v1/applications/{applicationId}": {
    request: () => ({ path: `/v1/applications/${home.application}`, params: { applicationId: String(home.application) } }),
  },
  "POST /v1/applications/{applicationId}/transitions": {
    request: () => ({
      path: `/v1/applications/${home.application}/transitions`,
      params: { applicationId: String(home.application) },
      json: { to: "in_review" },
    }),
  },
  "GET /v1/dashboard": {
    request: () => ({ path: "/v1/dashboard", params: {} }),
    // Its own one animal only, none of the first organisation's.
    shows: (body) => expect((body as { animals: { total: number } }).animals.total).toBe(1),
  },
  "GET /v1/events": {
    request: () => ({ path: "/v1/events?limit=100", params: {} }),
    shows: (body) => expect((body as { organizationId: number }[]).every((e) => e.organizationId === foreign.org)).toBe(true),
  },
  "GET /v1/keys": { request: () => ({ path: "/v1/keys", params: {} }), shows: (body) => expect(ids(body)).not.toContain(home.key) },
  "GET /v1/listing-sites": { request: () => ({ path: "/v1/listing-sites", params: {} }), shows: (body) => expect(ids(body)).not.toContain(home.listingSite) },
  "POST /v1/listing-sites": {
    // Naming the first organisation: refused.
    request: () => ({
      path: "/v1/listing-sites",
      params: {},
      json: { organizationId: FIRST_ORG, site: "adoptapet", username: "planted", password: "planted" },
    }),
  },
  "POST /v1/listing-sites/test": {
    // Credentials only, nothing of an organisation's: what it shows is the test's outcome (a site outside is not reached from here).
    request: () => ({ path: "/v1/listing-sites/test", params: {}, json: { site: "adoptapet", host: "192.0.2.1", username: "u", password: "p" } }),
    refused: { key: 400, staff: 400 },
  },
  "GET /v1/listing-sites/history": {
    // Staff only (audit:read: keys are refused); another organisation's staff see none of the first's changes.
    request: () => ({ path: `/v1/listing-sites/history?siteId=${home.listingSite}`, params: {} }),
    shows: (body) => expect(ids(body)).not.toContain(home.listingSiteChange),
  },
  "GET /v1/listing-sites/{siteId}": { request: () => ({ path: `/v1/listing-sites/${home.listingSite}`, params: { siteId: String(home.listingSite) } }) },
  "PATCH /v1/listing-sites/{siteId}": {
    request: () => ({ path: `/v1/listing-sites/${home.listingSite}`, params: { siteId: String(home.listingSite) }, json: { enabled: false } }),
  },
  "DELETE /v1/listing-sites/{siteId}": { request: () => ({ path: `/v1/listing-sites/${home.listingSite}`, params: { siteId: String(home.listingSite) } }) },
  "GET /v1/listing-sites/{siteId}/uploads": {
    request: () => ({ path: `/v1/listing-sites/${home.listingSite}/uploads`, params: { siteId: String(home.listingSite) } }),
  },
  "POST /v1/listing-sites/{siteId}/uploads": {
    request: () => ({ path: `/v1/listing-sites/${home.listingSite}/uploads`, params: { siteId: String(home.listingSite) } }),
  },
  "GET /v1/imports": { request: () => ({ path: "/v1/imports", params: {} }), shows: (body) => expect(ids(body)).not.toContain(home.import) },
  "POST /v1/imports": {
    // Naming the first organisation: refused (its own organisation is the default).
    request: () => {
      const form = new FormData();
      form.append("file", new Blob(["ID,AnimalName,Type\nX-1,Planted,Dog\n"]), "pets.csv");
      form.append("organizationId", String(FIRST_ORG));
      return { path: "/v1/imports", params: {}, body: form };
    },
  },
  "GET /v1/imports/{importId}": { request: () => ({ path: `/v1/imports/${home.import}`, params: { importId: String(home.import) } }) },
  "GET /v1/imports/{importId}/issues": { request: () => ({ path: `/v1/imports/${home.import}/issues`, params: { importId: String(home.import) } }) },
  "POST /v1/keys": { request: () => ({ path: "/v1/keys", params: {}, json: { name: "Planted", organizationId: FIRST_ORG } }) },
  "DELETE /v1/keys/{keyId}": { request: () => ({ path: `/v1/keys/${home.key}`, params: { keyId: String(home.key) } }) },
  "DELETE /v1/keys/{keyId}/ban": { request: () => ({ path: `/v1/keys/${home.key}/ban`, params: { keyId: String(home.key) } }) },
  "GET /v1/keys/{keyId}/webhooks": { request: () => ({ path: `/v1/keys/${home.key}/webhooks`, params: { keyId: String(home.key) } }) },
  "POST /v1/keys/{keyId}/webhooks/{webhookId}/disable": {
    request: () => ({ path: `/v1/keys/${home.key}/webhooks/${home.webhook}/disable`, params: { keyId: String(home.key), webhookId: String(home.webhook) } }),
  },
  "POST /v1/organizations": {
    request: () => ({ path: "/v1/organizations", params: {}, json: { name: "Planted", address: { city: "Chicago", country: "US", postcode: "60601" } } }),
  },
  "PATCH /v1/organizations/{organizationId}": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}`, params: { organizationId: String(FIRST_ORG) }, json: { name: "Taken" } }),
  },
  "GET /v1/organizations/{organizationId}/reports/monthly": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/reports/monthly?from=2021-01&to=2021-12`, params: { organizationId: String(FIRST_ORG) } }),
  },
  "GET /v1/organizations/{organizationId}/reports/monthly.csv": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/reports/monthly.csv?from=2021-01&to=2021-12`, params: { organizationId: String(FIRST_ORG) } }),
  },
  "GET /v1/organizations/{organizationId}/people": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/people`, params: { organizationId: String(FIRST_ORG) } }),
  },
  "POST /v1/organizations/{organizationId}/people": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/people`, params: { organizationId: String(FIRST_ORG) }, json: { name: "Planted" } }),
  },
  "GET /v1/organizations/{organizationId}/people/{personId}": {
    request: () => ({
      path: `/v1/organizations/${FIRST_ORG}/people/${home.person}`,
      params: { organizationId: String(FIRST_ORG), personId: String(home.person) },
    }),
  },
  "PATCH /v1/organizations/{organizationId}/people/{personId}": {
    request: () => ({
      path: `/v1/organizations/${FIRST_ORG}/people/${home.person}`,
      params: { organizationId: String(FIRST_ORG), personId: String(home.person) },
      json: { name: "Taken" },
    }),
  },
  "DELETE /v1/organizations/{organizationId}/people/{personId}": {
    request: () => ({
      path: `/v1/organizations/${FIRST_ORG}/people/${home.person}`,
      params: { organizationId: String(FIRST_ORG), personId: String(home.person) },
    }),
  },
  // Foster applications and the foster's page, as staff see them (the person named need not exist: the organisation is refused first).
  "GET /v1/organizations/{organizationId}/foster-applications": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/foster-applications`, params: { organizationId: String(FIRST_ORG) } }),
  },
  "POST /v1/organizations/{organizationId}/foster-applications/{personId}/approve": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/foster-applications/1/approve`, params: { organizationId: String(FIRST_ORG), personId: "1" } }),
  },
  "POST /v1/organizations/{organizationId}/foster-applications/{personId}/decline": {
    request: () => ({
      path: `/v1/organizations/${FIRST_ORG}/foster-applications/1/decline`,
      params: { organizationId: String(FIRST_ORG), personId: "1" },
      json: {},
    }),
  },
  "POST /v1/organizations/{organizationId}/people/{personId}/link": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/people/1/link`, params: { organizationId: String(FIRST_ORG), personId: "1" } }),
  },
  "GET /v1/organizations/{organizationId}/people/{personId}/foster-page": {
    request: () => ({ path: `/v1/organizations/${FIRST_ORG}/people/1/foster-page`, params: { organizationId: String(FIRST_ORG), personId: "1" } }),
  },
  // Every organisation summed: platform admins and platform keys only.
  "GET /v1/reports/monthly": { request: () => ({ path: "/v1/reports/monthly", params: {} }) },
  "GET /v1/reports/monthly.csv": { request: () => ({ path: "/v1/reports/monthly.csv", params: {} }) },
  // Webhook endpoints belong to the key that registered them: another key
  // (of any organisation) finds none there; staff sessions hold no webhooks:manage.
  "GET /v1/webhooks": { request: () => ({ path: "/v1/webhooks", params: {} }), shows: (body) => expect(ids(body)).not.toContain(home.webhook) },
  "POST /v1/webhooks": {
    // Registering one's own endpoint is not about the first organisation's data: refused here for staff only; the key's endpoint is its own.
    request: () => ({ path: "/v1/webhooks", params: {}, json: { url: "not a url" } }),
    refused: { key: 400, staff: 403 },
  },
  "GET /v1/webhooks/{webhookId}": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}`, params: { webhookId: String(home.webhook) } }),
    refused: { key: 404 },
  },
  "PATCH /v1/webhooks/{webhookId}": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}`, params: { webhookId: String(home.webhook) }, json: { enabled: false } }),
    refused: { key: 404 },
  },
  "DELETE /v1/webhooks/{webhookId}": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}`, params: { webhookId: String(home.webhook) } }),
    refused: { key: 404 },
  },
  "GET /v1/webhooks/{webhookId}/deliveries": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}/deliveries`, params: { webhookId: String(home.webhook) } }),
    refused: { key: 404 },
  },
  "POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}/deliveries/1/retry`, params: { webhookId: String(home.webhook), deliveryId: "1" } }),
    refused: { key: 404 },
  },
  "POST /v1/webhooks/{webhookId}/rotate-secret": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}/rotate-secret`, params: { webhookId: String(home.webhook) } }),
    refused: { key: 404 },
  },
  "POST /v1/webhooks/{webhookId}/test": {
    request: () => ({ path: `/v1/webhooks/${home.webhook}/test`, params: { webhookId: String(home.webhook) } }),
    refused: { key: 404 },
  },
};

describe("every route is in the isolation table", () => {
  it("each /v1 route and method is listed as public (with why) or private (with a request that crosses organisations), and declares the same", async () => {
    const routes = await allRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const unlisted = routes.map((r) => `${r.method} ${r.route}`).filter((name) => !(name in PUBLIC) && !(name in PRIVATE));
    expect(unlisted, "routes missing from the tenancy isolation table").toEqual([]);
    for (const r of routes) {
      const name = `${r.method} ${r.route}`;
      expect(r.handler.declared, `${name} goes through withApi`).toBeDefined();
      if (name in PUBLIC) expect(r.handler.declared!.tenant, `${name} is listed as public`).toBe("public");
      else expect(r.handler.declared!.tenant, `${name} is listed as private`).not.toBe("public");
    }
    // And the table names no route that does not exist.
    const names = new Set(routes.map((r) => `${r.method} ${r.route}`));
    expect([...Object.keys(PUBLIC), ...Object.keys(PRIVATE)].filter((name) => !names.has(name))).toEqual([]);
  });
});

describe("another organisation's key and staff session cannot reach the first organisation's private data", () => {
  const routes = allRoutes();

  for (const [name, row] of Object.entries(PRIVATE)) {
    for (const who of ["key", "staff"] as const) {
      it(`${name} as another organisation's ${who === "key" ? "API key" : "staff session"}`, async () => {
        const route = (await routes).find((r) => `${r.method} ${r.route}` === name)!;
        const before = await footprint();
        const { path: url, params, json, body, headers } = row.request();
        const caller = who === "key" ? asKey() : asStaff();
        const res = await call(route.handler, url, {
          method: route.method,
          params,
          json,
          body,
          ...caller,
          headers: { ...caller.headers, ...headers },
        });
        const text = await res.text();
        if (row.shows && res.status === 200) {
          row.shows(JSON.parse(text), who);
        } else {
          const expected = row.refused?.[who] ?? 403;
          expect(res.status, `${name}: ${text.slice(0, 300)}`).toBe(expected);
        }
        expect(await footprint()).toEqual(before);
      });
    }
  }
});

describe("a path that names nothing is 404 at once, before the body is read", () => {
  // Else a caller could hold the request open until another organisation
  // creates that id, then send the body (tests/api/tenancy-race.test.ts plays it out).
  it("every route whose path names one organisation's resource answers 404 not_found for an id that does not exist, without reading the body", async () => {
    const owned = (await allRoutes()).filter((r) => r.handler.declared!.tenant === "owner");
    expect(owned.map((r) => `${r.method} ${r.route}`).sort()).toEqual(
      Object.keys(PRIVATE)
        .filter((name) => name.includes("{") && !name.includes("/v1/webhooks/"))
        .sort(),
    );
    const foreignKeyScopes: readonly string[] = KEY_SCOPES;
    for (const route of owned) {
      const params = Object.fromEntries([...route.route.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, "987654321"]));
      const url = route.route.replace(/\{\w+\}/g, "987654321");
      const callers = [asStaff(), ...(foreignKeyScopes.includes(route.handler.declared!.scope!) ? [asKey()] : [])];
      for (const caller of callers) {
        const hasBody = route.method === "POST" || route.method === "PATCH";
        let read = false;
        // Never delivered: a handler that waited for it would never answer.
        const body = new ReadableStream<Uint8Array>({ pull: () => void (read = true) }, { highWaterMark: 0 });
        const res = await call(route.handler, url, {
          method: route.method,
          params,
          ...caller,
          ...(hasBody ? { body, headers: { ...caller.headers, "content-type": "application/json" } } : {}),
        });
        const text = await res.text();
        expect({ route: `${route.method} ${route.route}`, status: res.status, code: (JSON.parse(text) as { code: string }).code, read }).toEqual({
          route: `${route.method} ${route.route}`,
          status: 404,
          code: "not_found",
          read: false,
        });
      }
    }
  });
});

describe("the organisation's own callers are not refused", () => {
  it("its staff read the animal's history and the application; its key changes the animal; the foreign key changes its own", async () => {
    const { GET: history } = await import("@/app/v1/pets/[petId]/history/route");
    const { GET: application } = await import("@/app/v1/applications/[applicationId]/route");
    const { PATCH: patch } = await import("@/app/v1/pets/[petId]/route");
    expect((await call(history, `/v1/pets/${home.pet}/history`, { headers: home.staff.headers, params: { petId: String(home.pet) } })).status).toBe(200);
    expect(
      (await call(application, `/v1/applications/${home.application}`, { headers: home.staff.headers, params: { applicationId: String(home.application) } }))
        .status,
    ).toBe(200);
    const own = await call(patch, `/v1/pets/${home.pet}`, {
      method: "PATCH",
      key: home.keySecret,
      params: { petId: String(home.pet) },
      json: { breed: "Mixed" },
    });
    expect(own.status).toBe(200);
    const theirs = await call(patch, `/v1/pets/${foreign.pet}`, {
      method: "PATCH",
      key: foreign.key,
      params: { petId: String(foreign.pet) },
      json: { breed: "Mixed" },
    });
    expect(theirs.status).toBe(200);
  });

  it("a platform key changes any organisation's animal, and a platform admin reads any application", async () => {
    const { PATCH: patch } = await import("@/app/v1/pets/[petId]/route");
    const { GET: application } = await import("@/app/v1/applications/[applicationId]/route");
    const platform = await newKey(["pets:read", "pets:write"] as Scope[], "listing site", { plan: "pro" }, null);
    expect(
      (await call(patch, `/v1/pets/${foreign.pet}`, { method: "PATCH", key: platform.key, params: { petId: String(foreign.pet) }, json: { breed: "Collie" } }))
        .status,
    ).toBe(200);
    const admin = await staffSession(undefined, { platformAdmin: true });
    expect(
      (await call(application, `/v1/applications/${home.application}`, { headers: admin.headers, params: { applicationId: String(home.application) } })).status,
    ).toBe(200);
  });
});

describe("plans and limits of keys are the platform's decision", () => {
  // An organisation's staff issue its keys on free, pro or business with
  // their standard limits, at most 20 live at once; platform admins (and
  // the CLI) issue any plan, any limits, for anyone.
  const issue = async (who: StaffSession, json: Record<string, unknown>) => {
    const { POST } = await import("@/app/v1/keys/route");
    return call(POST, "/v1/keys", { method: "POST", headers: who.headers, json });
  };
  const liveKeys = (org: number) => db().apiKey.count({ where: { organizationId: BigInt(org), revokedAt: null } });

  it("an organisation's staff cannot issue an enterprise key or custom limits (403), nor a platform key; nothing is issued", async () => {
    const before = await liveKeys(foreign.org);
    const refused: [Record<string, unknown>, number][] = [
      [{ name: "Unlimited", plan: "enterprise", perMinute: 100_000_000, perDay: 100_000_000 }, 403],
      [{ name: "Own limits", plan: "business", perMinute: 100_000_000 }, 400],
      [{ name: "Platform", platform: true }, 403],
    ];
    for (const [json, status] of refused) expect((await issue(foreign.staff, json)).status, JSON.stringify(json)).toBe(status);
    expect(await liveKeys(foreign.org)).toBe(before);
    const business = await expectJson<{ summary: { plan: string; perMinute: number } }>(
      await issue(foreign.staff, { name: "Standard", plan: "business" }),
      201,
    );
    expect(business.summary).toMatchObject({ plan: "business", perMinute: 1_000 });
  });

  it(`at most ${LIVE_KEYS_PER_ORGANIZATION} live keys an organisation (409 too_many_keys), counted one issue after the other; a revoked one makes room`, async () => {
    const org = await newOrganization({ name: "Many Keys Rescue" });
    const staff = await staffSession(undefined, { organizationId: org });
    for (let i = 0; i < LIVE_KEYS_PER_ORGANIZATION - 1; i++) await newKey(["pets:read"], `key ${i}`, { plan: "free" }, org);
    // Two at once for the last place: exactly one gets it.
    const both = await Promise.all([issue(staff, { name: "Last A" }), issue(staff, { name: "Last B" })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const error = await expectApiError(
      both.find((r) => r.status === 409)!,
      409,
      "too_many_keys",
    );
    expect(error.message).toMatch(/20 live API keys/);
    expect(await liveKeys(org)).toBe(LIVE_KEYS_PER_ORGANIZATION);
    await expectApiError(await issue(staff, { name: "One more" }), 409, "too_many_keys");
    const { DELETE } = await import("@/app/v1/keys/[keyId]/route");
    const oldest = await db().apiKey.findFirstOrThrow({ where: { organizationId: BigInt(org) }, orderBy: { id: "asc" }, select: { id: true } });
    expect((await call(DELETE, `/v1/keys/${oldest.id}`, { method: "DELETE", headers: staff.headers, params: { keyId: String(oldest.id) } })).status).toBe(200);
    expect((await issue(staff, { name: "In its place" })).status).toBe(201);
  });

  it("a platform admin issues any plan with any limits, past the cap, for an organisation or the platform", async () => {
    const admin = await staffSession(undefined, { platformAdmin: true });
    const org = await newOrganization({ name: "Big Partner Rescue" });
    for (let i = 0; i < LIVE_KEYS_PER_ORGANIZATION; i++) await newKey(["pets:read"], `key ${i}`, { plan: "free" }, org);
    const enterprise = await expectJson<{ summary: { plan: string; perMinute: number; organizationId: number } }>(
      await issue(admin, { name: "Agreed limits", plan: "enterprise", perMinute: 5_000, perDay: 1_000_000, organizationId: org }),
      201,
    );
    expect(enterprise.summary).toMatchObject({ plan: "enterprise", perMinute: 5_000, organizationId: org });
    expect((await issue(admin, { name: "Listing site", plan: "enterprise", perMinute: 5_000, perDay: 1_000_000, platform: true })).status).toBe(201);
  });
});
