import { beforeAll, describe, expect, it } from "vitest";
import { GET as listEvents } from "@/app/v1/events/route";
import { GET as getOrganization, PATCH as patchOrganization } from "@/app/v1/organizations/[organizationId]/route";
import { GET as listOrganizations, POST as createOrganization } from "@/app/v1/organizations/route";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { PetChangeEvent as PetEvent } from "@/lib/events/schemas";
import type { Organization } from "@/lib/organizations/schemas";
import type { Pet } from "@/lib/pets/schemas/pet";
import { dispatchEvents } from "@/lib/webhooks/dispatch";
import { FIRST_ORG, call, createPet, expectApiError, expectJson, newKey, parseLink, staffSession, type StaffSession } from "./helpers";

// Organisations through the API: adding one (placed by its ZIP code), its
// profile changed by its own staff, the directory in name order, animals
// added by platform keys for a named organisation, and each organisation's
// key hearing only its own organisation's events.

let platform: string;
let platformId: number;
let reader: string;
let homeStaff: StaffSession;

beforeAll(async () => {
  ({ key: platform, id: platformId } = await newKey(
    ["pets:read", "pets:write", "organizations:manage", "webhooks:manage"],
    "listing site",
    { plan: "pro" },
    null,
  ));
  ({ key: reader } = await newKey(["pets:read"]));
  homeStaff = await staffSession();
});

const add = (json: unknown, key = platform) => call(createOrganization, "/v1/organizations", { method: "POST", key, json });

describe("POST /v1/organizations", () => {
  it("a platform key adds one: placed at its US ZIP code's centre, slug made from the name, 201 with Location", async () => {
    const res = await add({
      name: "Lakeshore Animal Rescue!",
      email: "adopt@lakeshore.example",
      address: { street: "1 Main St", city: "Chicago", region: "IL", postcode: "60601", country: "us" },
    });
    const org = await expectJson<Organization>(res, 201);
    expect(org).toMatchObject({
      name: "Lakeshore Animal Rescue!",
      slug: "lakeshore-animal-rescue",
      email: "adopt@lakeshore.example",
      phone: null,
      website: null,
      address: { street: "1 Main St", city: "Chicago", region: "IL", postcode: "60601", country: "US" },
    });
    expect(org.location!.lat).toBeCloseTo(41.886, 2);
    expect(org.location!.lng).toBeCloseTo(-87.618, 2);
    expect(res.headers.get("location")).toMatch(new RegExp(`/v1/organizations/${org.id}$`));
    // The same name again: the next free slug.
    const again = await expectJson<Organization>(
      await add({ name: "Lakeshore Animal Rescue", address: { city: "Chicago", postcode: "60601", country: "US" } }),
      201,
    );
    expect(again.slug).toBe("lakeshore-animal-rescue-2");
  });

  it("outside the US (or without a known ZIP code) the location must be given: 400 unknown_location", async () => {
    const noPlace = await expectApiError(
      await add({ name: "Refugio", address: { city: "Madrid", country: "ES", postcode: "28001" } }),
      400,
      "unknown_location",
    );
    expect(noPlace.details).toEqual([{ field: "location", issue: expect.stringMatching(/required/) }]);
    const unknownZip = await expectApiError(await add({ name: "Nowhere", address: { city: "X", country: "US", postcode: "00000" } }), 400, "unknown_location");
    expect(unknownZip.details?.[0]?.field).toBe("address.postcode");
    const placed = await expectJson<Organization>(
      await add({ name: "Refugio", address: { city: "Madrid", country: "ES" }, location: { lat: 40.4168, lng: -3.7038 } }),
      201,
    );
    expect(placed.location).toEqual({ lat: 40.4168, lng: -3.7038 });
  });

  it("refuses bad fields (400 invalid_body), a taken slug, and anyone but the platform (403)", async () => {
    const bad = await expectApiError(
      await add({ name: " ", website: "javascript:alert(1)", address: { city: "Chicago", country: "XX" }, location: { lat: 91, lng: 0 } }),
      400,
      "invalid_body",
    );
    expect(bad.details?.map((d) => d.field).sort()).toEqual(["address.country", "location.lat", "name", "website"]);
    const taken = await expectApiError(
      await add({ name: "Another", slug: "petstore", address: { city: "Chicago", country: "US", postcode: "60601" } }),
      400,
      "invalid_body",
    );
    expect(taken.details).toEqual([{ field: "slug", issue: "is taken" }]);
    const { key: orgKey } = await newKey(["organizations:manage"], "an organisation's key");
    await expectApiError(await add({ name: "Mine", address: { city: "Chicago", country: "US", postcode: "60601" } }, orgKey), 403, "forbidden");
    await expectApiError(await add({ name: "Mine", address: { city: "Chicago", country: "US", postcode: "60601" } }, reader), 403, "forbidden");
    const res = await call(createOrganization, "/v1/organizations", {
      method: "POST",
      headers: homeStaff.headers,
      json: { name: "Mine", address: { city: "Chicago", country: "US", postcode: "60601" } },
    });
    await expectApiError(res, 403, "forbidden");
  });
});

describe("PATCH /v1/organizations/{id}", () => {
  const patch = (id: number, json: unknown, auth: { key?: string; headers?: Record<string, string> }) =>
    call(patchOrganization, `/v1/organizations/${id}`, { method: "PATCH", params: { organizationId: String(id) }, json, ...auth });

  it("its own staff fill in the profile: the address merges, a US ZIP code places it", async () => {
    const filled = await expectJson<Organization>(
      await patch(
        FIRST_ORG,
        { phone: "+1 312 555 0100", address: { street: "233 S Wacker Dr", city: "Chicago", region: "IL", postcode: "60606", country: "US" } },
        { headers: homeStaff.headers },
      ),
    );
    expect(filled.address).toEqual({ street: "233 S Wacker Dr", city: "Chicago", region: "IL", postcode: "60606", country: "US" });
    expect(filled.location!.lat).toBeCloseTo(41.88, 1);
    const moved = await expectJson<Organization>(await patch(FIRST_ORG, { address: { postcode: "60201", street: null } }, { headers: homeStaff.headers }));
    expect(moved.address).toEqual({ street: null, city: "Chicago", region: "IL", postcode: "60201", country: "US" });
    expect(moved.location!.lat).toBeCloseTo(42.05, 1);
    expect(moved.phone).toBe("+1 312 555 0100");
    const pinned = await expectJson<Organization>(await patch(FIRST_ORG, { location: { lat: 41.9, lng: -87.65 } }, { headers: homeStaff.headers }));
    expect(pinned.location).toEqual({ lat: 41.9, lng: -87.65 });
    await expectApiError(await patch(FIRST_ORG, { address: { city: null } }, { headers: homeStaff.headers }), 400, "invalid_body");
    await expectApiError(await patch(FIRST_ORG, { id: 3 }, { headers: homeStaff.headers }), 400, "invalid_body");
    await expectApiError(await patch(FIRST_ORG, {}, { headers: homeStaff.headers }), 400, "invalid_body");
  });

  it("location null places it back at its ZIP code's centre after an explicit position; without a US ZIP code it cannot (400 unknown_location)", async () => {
    const org = await expectJson<Organization>(await add({ name: "Pinned Shelter", address: { city: "Chicago", country: "US", postcode: "60601" } }), 201);
    const centre = org.location!;
    const pinned = await expectJson<Organization>(await patch(org.id, { location: { lat: 41.95, lng: -87.7 } }, { key: platform }));
    expect(pinned.location).toEqual({ lat: 41.95, lng: -87.7 });
    const back = await expectJson<Organization>(await patch(org.id, { location: null }, { key: platform }));
    expect(back.location).toEqual(centre);
    // With a new postcode in the same patch, the new ZIP code's centre.
    const moved = await expectJson<Organization>(await patch(org.id, { address: { postcode: "60202" }, location: null }, { key: platform }));
    expect(moved.location!.lat).toBeCloseTo(42.03, 1);
    const abroad = await expectApiError(
      await patch(org.id, { address: { country: "CA", postcode: "M5V 2T6" }, location: null }, { key: platform }),
      400,
      "unknown_location",
    );
    expect(abroad.details).toEqual([{ field: "location", issue: expect.stringMatching(/required/) }]);
    // Nothing was changed by the refused patch.
    const after = await expectJson<Organization>(
      await call(getOrganization, `/v1/organizations/${org.id}`, { key: reader, params: { organizationId: String(org.id) } }),
    );
    expect(after.address?.country).toBe("US");
  });

  it("a platform key changes any organisation; a missing one is 404", async () => {
    const org = await expectJson<Organization>(await add({ name: "Rename Me", address: { city: "Denver", country: "US", postcode: "80202" } }), 201);
    expect((await expectJson<Organization>(await patch(org.id, { name: "Renamed", slug: "renamed" }, { key: platform }))).slug).toBe("renamed");
    await expectApiError(await patch(987654, { name: "Ghost" }, { key: platform }), 404, "not_found");
  });
});

describe("GET /v1/organizations", () => {
  it("lists in name order (case ignored), pages through Link, searches names, and finds by id", async () => {
    const all: Organization[] = [];
    for (let url: string | undefined = "/v1/organizations?limit=2"; url;) {
      const res = await call(listOrganizations, url, { key: reader });
      all.push(...(await expectJson<Organization[]>(res)));
      url = parseLink(res.headers.get("link")).next;
    }
    const names = all.map((o) => o.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(all.length).toBe(await db().organization.count());
    const found = await expectJson<Organization[]>(await call(listOrganizations, "/v1/organizations?q=LAKESHORE", { key: reader }));
    expect(found.map((o) => o.slug).sort()).toEqual(["lakeshore-animal-rescue", "lakeshore-animal-rescue-2"]);
    const byId = await expectJson<Organization[]>(await call(listOrganizations, `/v1/organizations?id=${FIRST_ORG}`, { key: reader }));
    expect(byId.map((o) => o.id)).toEqual([FIRST_ORG]);
    const bySlug = await expectJson<Organization[]>(await call(listOrganizations, "/v1/organizations?slug=lakeshore-animal-rescue-2", { key: reader }));
    expect(bySlug.map((o) => o.slug)).toEqual(["lakeshore-animal-rescue-2"]);
    expect(await expectJson<Organization[]>(await call(listOrganizations, "/v1/organizations?slug=no-such-shelter", { key: reader }))).toEqual([]);
    const badSlug = await expectApiError(await call(listOrganizations, "/v1/organizations?slug=Not%20A%20Slug", { key: reader }), 400, "invalid_query");
    expect(badSlug.details?.map((d) => d.field)).toEqual(["slug"]);
    // It combines with the other filters: a slug outside a search finds nothing.
    expect(await expectJson<Organization[]>(await call(listOrganizations, "/v1/organizations?slug=lakeshore-animal-rescue&q=intake", { key: reader }))).toEqual(
      [],
    );
    const one = await expectJson<Organization>(
      await call(getOrganization, `/v1/organizations/${FIRST_ORG}`, { key: reader, params: { organizationId: String(FIRST_ORG) } }),
    );
    expect(one.id).toBe(FIRST_ORG);
    await expectApiError(await call(getOrganization, "/v1/organizations/424242", { key: reader, params: { organizationId: "424242" } }), 404, "not_found");
  });
});

describe("animals and events across organisations", () => {
  it("a platform key adds an animal only for a named, existing organisation", async () => {
    const org = await expectJson<Organization>(await add({ name: "Intake Partner", address: { city: "Austin", country: "US", postcode: "78701" } }), 201);
    const missing = await expectApiError(
      await call(createPetRoute, "/v1/pets", { method: "POST", key: platform, json: { name: "Rex", categoryId: 1 } }),
      400,
      "invalid_body",
    );
    expect(missing.details).toEqual([{ field: "organizationId", issue: expect.stringMatching(/required/) }]);
    await expectApiError(
      await call(createPetRoute, "/v1/pets", { method: "POST", key: platform, json: { name: "Rex", categoryId: 1, organizationId: 999999 } }),
      400,
      "unknown_organization",
    );
    const pet = await expectJson<Pet>(
      await call(createPetRoute, "/v1/pets", { method: "POST", key: platform, json: { name: "Rex", categoryId: 1, organizationId: org.id } }),
      201,
    );
    expect(pet.organizationId).toBe(org.id);
    // An organisation's key adds to its own without saying so.
    const { key: own } = await newKey(["pets:write", "pets:read"], "shelter key", { plan: "pro" }, org.id);
    const mine = await createPet({ name: "Mine" }, { key: own });
    expect(mine.organizationId).toBe(org.id);
  });

  it("an organisation's key reads only its own organisation's events, and its webhooks receive only those; a platform key all", async () => {
    const a = await expectJson<Organization>(await add({ name: "Feed A", address: { city: "Seattle", country: "US", postcode: "98101" } }), 201);
    const b = await expectJson<Organization>(await add({ name: "Feed B", address: { city: "Portland", country: "US", postcode: "97201" } }), 201);
    const keyA = await newKey(["pets:read", "pets:write", "webhooks:manage"], "A", { plan: "pro" }, a.id);
    const keyB = await newKey(["pets:read", "pets:write"], "B", { plan: "pro" }, b.id);
    const since = (await db().event.aggregate({ _max: { position: true } }))._max.position ?? 0n;
    await dispatchEvents();
    const hook = (keyId: number) =>
      db().webhookEndpoint.create({
        data: { apiKeyId: BigInt(keyId), url: "https://hooks.example/in", events: ["pet.created"], secret: "s", startAfter: since },
        select: { id: true },
      });
    const hookA = await hook(keyA.id);
    const hookAll = await hook(platformId);
    for (const [key, name] of [
      [keyA.key, "In A"],
      [keyB.key, "In B"],
      [keyA.key, "In A too"],
    ] as const) {
      await createPet({ name }, { key });
    }
    const feed = async (key: string, query = "") => expectJson<PetEvent[]>(await call(listEvents, `/v1/events?after=evt_${since}${query}`, { key }));
    expect((await feed(keyA.key)).map((e) => e.data.pet.name)).toEqual(["In A", "In A too"]);
    expect((await feed(keyB.key)).map((e) => e.data.pet.name)).toEqual(["In B"]);
    expect((await feed(platform)).map((e) => [e.data.pet.name, e.organizationId])).toEqual([
      ["In A", a.id],
      ["In B", b.id],
      ["In A too", a.id],
    ]);
    expect((await feed(platform, `&organizationId=${b.id}`)).map((e) => e.data.pet.name)).toEqual(["In B"]);
    await expectApiError(await call(listEvents, `/v1/events?organizationId=${b.id}`, { key: keyA.key }), 403, "forbidden");

    await dispatchEvents();
    const delivered = async (endpoint: bigint) =>
      (await db().webhookDelivery.findMany({ where: { endpointId: endpoint }, select: { event: { select: { organizationId: true } } } })).map((d) =>
        Number(d.event.organizationId),
      );
    expect(await delivered(hookA.id)).toEqual([a.id, a.id]);
    expect((await delivered(hookAll.id)).sort()).toEqual([a.id, a.id, b.id].sort());
  });
});
