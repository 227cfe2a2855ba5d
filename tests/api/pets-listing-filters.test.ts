import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/route";
import { COAT_LENGTHS } from "@/lib/pets/profile";
import { type CoatLength } from "@/lib/pets/schemas/fields";
import { type Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey, newOrganization, parseLink, seedPets, walkPetPages, type PetSeed } from "./helpers";

// The listing-site filters of GET /v1/pets (issue 34): houseTrained,
// specialNeeds and spayedNeutered (true or false; an unknown answer matches
// neither) and coatLength (any of). Each is checked against the same filter
// applied in TypeScript to a varied data set, alone, combined with every
// other filter, and walked through its cursors both ways.

let key: string;
let all: Pet[]; // newest first
let near: number; // an organisation with a place, holding some of the animals

const ANSWERS = [true, false, null] as const;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  near = await newOrganization({ name: `Filters near ${Math.random().toString(36).slice(2, 6)}`, lat: 41.8789, lng: -87.6359 });
  const seeds: PetSeed[] = Array.from({ length: 96 }, (_, i) => ({
    name: i % 7 === 0 ? `Biscuit ${i}` : `Listing ${i}`,
    categoryId: 1 + ((i >> 3) % 3),
    status: (["available", "pending", "sold"] as const)[i % 3],
    sex: (["female", "male", "unknown"] as const)[(i >> 1) % 3],
    size: (["small", "medium", "large", null] as const)[i % 4],
    goodWith: { children: [true, false, null][(i >> 2) % 3] },
    houseTrained: ANSWERS[i % 3],
    specialNeeds: ANSWERS[Math.floor(i / 5) % 3],
    spayedNeutered: ANSWERS[Math.floor(i / 11) % 3],
    coatLength: i % 7 === 6 ? null : COAT_LENGTHS[i % 6],
    organizationId: i % 2 === 0 ? near : undefined,
  }));
  all = (await seedPets(seeds)).sort((a, b) => b.id - a.id);
});

const list = (query: string) => call(GET, `/v1/pets?${query}`, { key });
const ids = (pets: Pet[]) => pets.map((p) => p.id);

/** Every page of a filtered list. */
const walk = (query: string, limit = 5) => walkPetPages(key, query, limit);

/** Every page walked forwards, then back from the last one through rel="prev": the same animals, in the same pages. */
async function walkBothWays(query: string, limit = 4): Promise<Pet[]> {
  const pages: Pet[][] = [];
  let res = await list(`${query}&limit=${limit}`);
  pages.push(await expectJson<Pet[]>(res));
  for (let next = parseLink(res.headers.get("link")).next; next; next = parseLink(res.headers.get("link")).next) {
    res = await call(GET, next, { key });
    pages.push(await expectJson<Pet[]>(res));
  }
  const back: Pet[][] = [];
  for (let prev = parseLink(res.headers.get("link")).prev; prev; prev = parseLink(res.headers.get("link")).prev) {
    res = await call(GET, prev, { key });
    back.unshift(await expectJson<Pet[]>(res));
  }
  expect(back.map(ids)).toEqual(pages.slice(0, -1).map(ids));
  return pages.flat();
}

describe("each filter alone, every page", () => {
  it.each([
    ["houseTrained=true", (p: Pet) => p.houseTrained === true],
    ["houseTrained=false", (p: Pet) => p.houseTrained === false],
    ["specialNeeds=true", (p: Pet) => p.specialNeeds === true],
    ["specialNeeds=false", (p: Pet) => p.specialNeeds === false],
    ["spayedNeutered=true", (p: Pet) => p.spayedNeutered === true],
    ["spayedNeutered=false", (p: Pet) => p.spayedNeutered === false],
  ])("%s (an unknown answer matches neither)", async (query, keep) => {
    const want = all.filter(keep);
    expect(want.length).toBeGreaterThan(10);
    expect(ids(await walk(query))).toEqual(ids(want));
  });

  it.each([["short"], ["short", "long"], ["hairless", "wire", "curly"], [...COAT_LENGTHS]] as CoatLength[][])(
    "coatLength=%s (any of them)",
    async (...coats) => {
      expect(ids(await walk(`coatLength=${coats.join(",")}`))).toEqual(ids(all.filter((p) => p.coatLength !== null && coats.includes(p.coatLength))));
    },
  );
});

describe("combined with every other filter, and the cursors both ways", () => {
  it.each([
    ["houseTrained=true&status=available", (p: Pet) => p.houseTrained === true && p.status === "available"],
    ["specialNeeds=false&categoryId=2", (p: Pet) => p.specialNeeds === false && p.categoryId === 2],
    ["spayedNeutered=true&sex=female", (p: Pet) => p.spayedNeutered === true && p.sex === "female"],
    ["coatLength=short,long&size=small,medium", (p: Pet) => ["short", "long"].includes(p.coatLength ?? "") && ["small", "medium"].includes(p.size ?? "")],
    ["houseTrained=true&goodWith=children", (p: Pet) => p.houseTrained === true && p.goodWith.children === true],
    ["specialNeeds=true&q=biscuit", (p: Pet) => p.specialNeeds === true && p.name.startsWith("Biscuit")],
    ["spayedNeutered=false&organizationId=NEAR", (p: Pet) => p.spayedNeutered === false && p.organizationId === near],
    [
      "houseTrained=true&specialNeeds=false&spayedNeutered=true&coatLength=short,medium,long",
      (p: Pet) => p.houseTrained === true && p.specialNeeds === false && p.spayedNeutered === true && ["short", "medium", "long"].includes(p.coatLength ?? ""),
    ],
    [
      "coatLength=short,long&size=small,medium,large&goodWith=children&status=pending",
      (p: Pet) =>
        ["short", "long"].includes(p.coatLength ?? "") &&
        ["small", "medium", "large"].includes(p.size ?? "") &&
        p.goodWith.children === true &&
        p.status === "pending",
    ],
  ])("%s", async (query, keep) => {
    const got = await walkBothWays(query.replace("NEAR", String(near)));
    expect(ids(got)).toEqual(ids(all.filter(keep)));
    expect(got.length).toBeGreaterThan(0);
  });

  it("with id: only the listed animals that match", async () => {
    const some = all.slice(0, 30);
    const got = await expectJson<Pet[]>(await list(`id=${ids(some).join(",")}&houseTrained=true&limit=100`));
    expect(ids(got)).toEqual(ids(some.filter((p) => p.houseTrained === true)));
    expect(got.length).toBeGreaterThan(0);
  });

  it("near a place: nearest first, only the matching animals of the organisations there, through its cursors", async () => {
    const got = await walk(`near=41.8789,-87.6359&within=5km&specialNeeds=true&coatLength=short,medium`, 3);
    expect(ids(got)).toEqual(ids(all.filter((p) => p.organizationId === near && p.specialNeeds === true && ["short", "medium"].includes(p.coatLength ?? ""))));
    expect(got.length).toBeGreaterThan(2);
    expect(got.every((p) => typeof p.distanceKm === "number")).toBe(true);
  });
});

describe("bad values are 400 invalid_query naming the parameter", () => {
  it.each([
    ["houseTrained=yes", "houseTrained"],
    ["houseTrained=1", "houseTrained"],
    ["houseTrained=True", "houseTrained"],
    ["houseTrained=", "houseTrained"],
    ["specialNeeds=null", "specialNeeds"],
    ["spayedNeutered=true,false", "spayedNeutered"],
    ["spayedNeutered=true&spayedNeutered=false", "spayedNeutered"],
    ["coatLength=fluffy", "coatLength"],
    ["coatLength=short,", "coatLength"],
    ["coatLength=Short", "coatLength"],
  ])("%s", async (query, field) => {
    const body = await expectApiError(await list(query), 400, "invalid_query");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });
});
