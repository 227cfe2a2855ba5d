import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/route";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey, parseLink, seedPets } from "./helpers";

// GET /v1/pets?id=12,15 - the successor of the deprecated getPet: exactly the
// animals asked for, with the list's usual filters and paging. (The sunset
// itself, with the clock moved past it, is tested in pets-get.test.ts.)

let key: string;
let pets: Pet[]; // ascending ids

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  pets = await seedPets(Array.from({ length: 12 }, (_, i) => ({ name: `Pet ${i}`, categoryId: 1 + (i % 2), status: i % 3 === 0 ? "sold" : "available" })));
});

const list = (query: string) => call(GET, `/v1/pets${query}`, { key });
const idsOf = (list: Pet[]) => list.map((p) => p.id);
const newestFirst = (list: Pet[]) => [...list].sort((a, b) => b.id - a.id);

describe("GET /v1/pets?id=", () => {
  it("one id: an array holding that animal (with its version)", async () => {
    const pet = pets[4]!;
    expect(await expectJson<Pet[]>(await list(`?id=${pet.id}`))).toEqual([pet]);
  });

  it("several ids: exactly those animals, newest first, whatever order they were asked in", async () => {
    const chosen = [pets[2]!, pets[9]!, pets[5]!];
    const body = await expectJson<Pet[]>(await list(`?id=${chosen.map((p) => p.id).join(",")}`));
    expect(body).toEqual(newestFirst(chosen));
  });

  it("an id asked twice is listed once; unknown ids are simply absent", async () => {
    const pet = pets[7]!;
    expect(await expectJson<Pet[]>(await list(`?id=${pet.id},${pet.id},999999`))).toEqual([pet]);
    expect(await expectJson<Pet[]>(await list("?id=999999"))).toEqual([]);
  });

  it("accepts 100 ids", async () => {
    const ids = [...pets.map((p) => p.id), ...Array.from({ length: 100 - pets.length }, (_, i) => 500_000 + i)];
    const body = await expectJson<Pet[]>(await list(`?id=${ids.join(",")}&limit=100`));
    expect(idsOf(body)).toEqual(idsOf(newestFirst(pets)));
  });

  it("combines with status and categoryId", async () => {
    const all = pets.map((p) => p.id).join(",");
    const body = await expectJson<Pet[]>(await list(`?id=${all}&status=sold&categoryId=1`));
    expect(body).toEqual(newestFirst(pets.filter((p) => p.status === "sold" && p.categoryId === 1)));
    expect(body.length).toBeGreaterThan(0);
  });

  it("pages newest first through the Link header, keeping the ids", async () => {
    const chosen = [pets[0]!, pets[3]!, pets[6]!, pets[8]!, pets[11]!];
    const query = `?id=${chosen.map((p) => p.id).join(",")}&limit=2`;
    const seen: number[] = [];
    let url: string | undefined = `/v1/pets${query}`;
    let pages = 0;
    while (url) {
      const res = await call(GET, url, { key });
      seen.push(...idsOf(await expectJson<Pet[]>(res)));
      const links = parseLink(res.headers.get("link"));
      if (links.next) expect(new URL(links.next).searchParams.get("id")).toBe(chosen.map((p) => p.id).join(","));
      url = links.next;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(idsOf(newestFirst(chosen)));
  });

  it.each([
    ["empty", "?id="],
    ["not a number", "?id=abc"],
    ["an empty item", "?id=1,,2"],
    ["a trailing comma", "?id=1,"],
    ["a space", "?id=1,%202"],
    ["zero", "?id=0"],
    ["negative", "?id=-1"],
    ["fractional", "?id=1.5"],
    ["beyond 2^53-1", "?id=9007199254740992"],
    ["101 ids", `?id=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`],
    ["repeated instead of comma-separated", "?id=1&id=2"],
  ])("%s → 400 invalid_query naming id", async (_label, query) => {
    const body = await expectApiError(await list(query), 400, "invalid_query");
    expect(body.details?.map((d) => d.field)).toEqual(["id"]);
  });
});
