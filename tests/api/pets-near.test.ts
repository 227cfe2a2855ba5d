import { beforeAll, describe, expect, it } from "vitest";
import { GET as listOrganizations } from "@/app/v1/organizations/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import { encodeCursor } from "@/lib/core/pagination";
import { chordOfKm, haversineKm, type LatLng } from "@/lib/organizations/geo";
import { KM_PER_MILE } from "@/lib/core/units";
import { lookUpZip } from "@/lib/organizations/zip";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { Organization } from "@/lib/organizations/schemas";
import { call, expectApiError, expectJson, newKey, parseLink } from "./helpers";

// Search near a place, checked against a brute-force haversine over a
// generated set: 60 organisations scattered up to ~900 km around Chicago
// (two of them at one spot, one without a place), a few hundred animals.
// Every answer must be the brute force's order (distance, then newest
// first), with its distance to 0.1 km, and paging must walk it without
// losing or repeating an animal, forwards and back.

const CHICAGO: LatLng = { lat: 41.8786, lng: -87.6359 };
let key: string;
let places: Map<number, LatLng>;
let pets: { id: number; organizationId: number; status: string; categoryId: number; name: string }[];

/** A repeatable pseudo-random sequence, so a failure can be reproduced. */
function random(seed: number) {
  // mulberry32: exact 32-bit arithmetic, so every run draws the same map.
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  const next = random(20261126);
  places = new Map();
  const orgs: { name: string; lat: number | null; lng: number | null }[] = [];
  for (let i = 0; i < 60; i++) {
    const lat = CHICAGO.lat + (next() - 0.5) * 14;
    const lng = CHICAGO.lng + (next() - 0.5) * 18;
    orgs.push({ name: `Shelter ${i}`, lat, lng });
  }
  orgs.push({ name: "Twin A", lat: 41.9, lng: -87.7 }, { name: "Twin B", lat: 41.9, lng: -87.7 }, { name: "Nowhere yet", lat: null, lng: null });
  for (const [i, o] of orgs.entries()) {
    const row = await db().organization.create({
      data: { name: o.name, slug: `near-${i}`, city: "Somewhere", country: "US", lat: o.lat, lng: o.lng },
      select: { id: true },
    });
    if (o.lat !== null && o.lng !== null) places.set(Number(row.id), { lat: o.lat, lng: o.lng });
  }
  const ids = [...(await db().organization.findMany({ select: { id: true }, where: { slug: { startsWith: "near-" } } })).map((o) => Number(o.id))];
  const rows = [];
  for (let i = 0; i < 400; i++) {
    rows.push({
      name: i % 7 === 0 ? `Biscuit ${i}` : `Pet ${i}`,
      categoryId: BigInt(1 + (i % 3)),
      status: (["available", "available", "pending", "sold"] as const)[i % 4]!,
      // Deliberately not in organisation order, so ids interleave across organisations.
      organizationId: BigInt(ids[Math.floor(next() * ids.length)]!),
    });
  }
  await db().pet.createMany({ data: rows });
  pets = (
    await db().pet.findMany({
      select: { id: true, organizationId: true, status: true, categoryId: true, name: true },
      where: { organization: { slug: { startsWith: "near-" } } },
    })
  ).map((p) => ({ id: Number(p.id), organizationId: Number(p.organizationId), status: p.status, categoryId: Number(p.categoryId), name: p.name }));
});

/** The brute force: every matching animal within `km`, by haversine distance, newest first at one distance. */
function bruteForce(from: LatLng, km: number, keep: (p: (typeof pets)[number]) => boolean = () => true) {
  return pets
    .filter((p) => places.has(p.organizationId) && keep(p))
    .map((p) => ({ id: p.id, km: haversineKm(from, places.get(p.organizationId)!) }))
    .filter((p) => p.km <= km)
    .sort((a, b) => a.km - b.km || b.id - a.id);
}

async function page(url: string): Promise<{ body: Pet[]; links: Record<string, string> }> {
  const res = await call(listPets, url, { key });
  const body = await expectJson<Pet[]>(res);
  return { body, links: parseLink(res.headers.get("link")) };
}

/** Every page, following rel="next" from the first. */
async function walk(url: string): Promise<{ pets: Pet[]; pages: string[] }> {
  const all: Pet[] = [];
  const pages: string[] = [];
  for (let next: string | undefined = url; next;) {
    pages.push(next);
    const { body, links } = await page(next);
    all.push(...body);
    next = links.next;
  }
  return { pets: all, pages };
}

function expectSameOrder(got: Pet[], expected: { id: number; km: number }[]) {
  expect(got.map((p) => p.id)).toEqual(expected.map((p) => p.id));
  for (const [i, pet] of got.entries()) expect(Math.abs(pet.distanceKm! - expected[i]!.km)).toBeLessThanOrEqual(0.05 + 1e-9);
}

describe("GET /v1/pets?near=", () => {
  it("orders by great-circle distance (ties: newest first), with distanceKm, within the default 100 km", async () => {
    const { pets: got } = await walk(`/v1/pets?near=${CHICAGO.lat},${CHICAGO.lng}&limit=100`);
    const expected = bruteForce(CHICAGO, 100);
    expect(expected.length).toBeGreaterThan(5);
    expectSameOrder(got, expected);
  });

  it("pages of 7 over 800 km lose and repeat nothing, forwards and back through rel=prev", async () => {
    const { pets: got, pages } = await walk(`/v1/pets?near=${CHICAGO.lat},${CHICAGO.lng}&within=800km&limit=7`);
    const expected = bruteForce(CHICAGO, 800);
    expect(expected.length).toBeGreaterThan(200);
    expectSameOrder(got, expected);
    expect(new Set(got.map((p) => p.id)).size).toBe(got.length);
    // Back from the last page to the first, by rel="prev".
    const back: Pet[][] = [];
    let url: string | undefined = pages.at(-1);
    while (url) {
      const { body, links } = await page(url);
      back.unshift(body);
      url = links.prev;
    }
    expect(back.flat().map((p) => p.id)).toEqual(expected.map((p) => p.id));
  });

  it("animals of two organisations at one spot are interleaved newest first", async () => {
    const twins = pets.filter((p) => [...places.entries()].some(([id, at]) => id === p.organizationId && at.lat === 41.9 && at.lng === -87.7));
    const { pets: got } = await walk(`/v1/pets?near=41.9,-87.7&within=1km&limit=3`);
    expect(got.map((p) => p.id)).toEqual(twins.map((p) => p.id).sort((a, b) => b - a));
    expect(got.every((p) => p.distanceKm === 0)).toBe(true);
  });

  it("combines with status, categoryId, q, organizationId and id, in miles too", async () => {
    const from = { lat: 40.5, lng: -86.5 };
    const miles = 250;
    const km = miles * KM_PER_MILE;
    const some = pets.filter((p) => p.status === "available").slice(0, 60);
    const cases: [string, (p: (typeof pets)[number]) => boolean][] = [
      ["status=available", (p) => p.status === "available"],
      ["status=sold&categoryId=2", (p) => p.status === "sold" && p.categoryId === 2],
      ["q=biscuit", (p) => p.name.startsWith("Biscuit")],
      [`organizationId=${[...places.keys()].slice(0, 20).join(",")}`, (p) => [...places.keys()].slice(0, 20).includes(p.organizationId)],
      [`id=${some.map((p) => p.id).join(",")}`, (p) => some.some((s) => s.id === p.id)],
    ];
    for (const [filter, keep] of cases) {
      const { pets: got } = await walk(`/v1/pets?near=${from.lat},${from.lng}&within=${miles}mi&limit=9&${filter}`);
      expectSameOrder(got, bruteForce(from, km, keep));
    }
  });

  it("a US ZIP code is its centre, looked up offline; ZIP+4 counts by its first five digits", async () => {
    const place = (await lookUpZip("60601"))!;
    expect(place).toMatchObject({ city: "Chicago", region: "IL" });
    const byZip = await page("/v1/pets?near=60601&within=300km&limit=100");
    const byPoint = await page(`/v1/pets?near=${place.lat},${place.lng}&within=300km&limit=100`);
    const byZip4 = await page("/v1/pets?near=60601-1234&within=300km&limit=100");
    expect(byZip.body).toEqual(byPoint.body);
    expect(byZip4.body).toEqual(byPoint.body);
    expectSameOrder(byZip.body, bruteForce(place, 300).slice(0, 100));
  });

  it("refuses what it cannot place or measure, saying what it understood", async () => {
    const bad = async (query: string, code: string, field: string, says: RegExp) => {
      const error = await expectApiError(await call(listPets, `/v1/pets?${query}`, { key }), 400, code);
      expect(error.details?.map((d) => d.field)).toContain(field);
      expect([error.message, ...(error.details ?? []).map((d) => d.issue)].join(" ")).toMatch(says);
    };
    await bad("near=chicago", "invalid_query", "near", /ZIP code.*latitude,longitude.*"chicago" is neither/);
    await bad("near=91,10", "invalid_query", "near", /read as latitude 91, longitude 10.*-90 to 90/);
    await bad("near=10,181", "invalid_query", "near", /longitude must be from -180 to 180/);
    await bad("near=00000", "unknown_location", "near", /00000.*no such ZIP code/);
    await bad("within=25mi", "invalid_query", "within", /needs `near`/);
    await bad("near=60601&within=801km", "invalid_query", "within", /at most 800km or 500mi/);
    await bad("near=60601&within=501mi", "invalid_query", "within", /at most 800km or 500mi/);
    await bad("near=60601&within=0km", "invalid_query", "within", /at least 0\.1km \(0\.063mi\)/);
    await bad("near=60601&within=0.09km", "invalid_query", "within", /at least 0\.1km/);
    await bad("near=60601&within=0.062mi", "invalid_query", "within", /at least 0\.1km/);
    // A denormal figure (it underflowed to a radius of 0) and an endless one.
    await bad(`near=60601&within=0.${"0".repeat(310)}1km`, "invalid_query", "within", /at most 3 decimals/);
    await bad(`near=60601&within=${"1".repeat(30)}km`, "invalid_query", "within", /at most 3 decimals/);
    await bad("near=60601&within=25", "invalid_query", "within", /km or mi/);
  });

  it("a cursor of one order is refused in the other (400 invalid_cursor)", async () => {
    const near = await page(`/v1/pets?near=${CHICAGO.lat},${CHICAGO.lng}&within=800km&limit=5`);
    const plain = await page(`/v1/pets?limit=5`);
    const nearCursor = new URL(near.links.next!, "http://x").searchParams.get("cursor")!;
    const plainCursor = new URL(plain.links.next!, "http://x").searchParams.get("cursor")!;
    await expectApiError(await call(listPets, `/v1/pets?cursor=${nearCursor}`, { key }), 400, "invalid_cursor");
    await expectApiError(await call(listPets, `/v1/pets?near=60601&cursor=${plainCursor}`, { key }), 400, "invalid_cursor");
  });

  it("a cursor beyond the search's radius is refused (400 invalid_cursor), either way, for animals and organisations; one within it still pages", async () => {
    // Forged with a huge distance: a previous page would have read every
    // placed organisation and answered what lies past `within`; a next page,
    // walked every one to find nothing.
    for (const d of ["before", "after"] as const) {
      const forged = encodeCursor({ d, k: 12_000_000, id: 1 });
      for (const [route, path] of [
        [listPets, "/v1/pets"],
        [listOrganizations, "/v1/organizations"],
      ] as const) {
        const error = await expectApiError(
          await call(route, `${path}?near=${CHICAGO.lat},${CHICAGO.lng}&within=25km&cursor=${forged}`, { key }),
          400,
          "invalid_cursor",
        );
        expect(error.message).toMatch(/farther than this `within`/);
      }
    }
    // A real cursor of a wider search, kept while `within` shrinks past it.
    const wide = await page(`/v1/pets?near=${CHICAGO.lat},${CHICAGO.lng}&within=800km&limit=40`);
    const far = new URL(wide.links.next!, "http://x").searchParams.get("cursor")!;
    expect(wide.body.at(-1)!.distanceKm).toBeGreaterThan(5);
    await expectApiError(await call(listPets, `/v1/pets?near=${CHICAGO.lat},${CHICAGO.lng}&within=5km&cursor=${far}`, { key }), 400, "invalid_cursor");
    // At the radius itself: still a page, and nothing on it beyond `within`.
    const edge = encodeCursor({ d: "before", k: chordOfKm(300), id: 1 });
    const back = await page(`/v1/pets?near=${CHICAGO.lat},${CHICAGO.lng}&within=300km&limit=100&cursor=${edge}`);
    expect(back.body.length).toBeGreaterThan(0);
    expect(back.body.every((p) => (p as Pet & { distanceKm: number }).distanceKm <= 300)).toBe(true);
  });
});

describe("GET /v1/organizations?near=", () => {
  it("lists organisations nearest first with distanceKm, paged, matching the brute force", async () => {
    const expected = [...places.entries()]
      .map(([id, at]) => ({ id, km: haversineKm(CHICAGO, at) }))
      .filter((o) => o.km <= 500)
      .sort((a, b) => a.km - b.km || b.id - a.id);
    const got: Organization[] = [];
    for (let url: string | undefined = `/v1/organizations?near=${CHICAGO.lat},${CHICAGO.lng}&within=500km&limit=4`; url;) {
      const res = await call(listOrganizations, url, { key });
      got.push(...(await expectJson<Organization[]>(res)));
      url = parseLink(res.headers.get("link")).next;
    }
    expect(got.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    for (const [i, o] of got.entries()) expect(Math.abs(o.distanceKm! - expected[i]!.km)).toBeLessThanOrEqual(0.05 + 1e-9);
  });
});
