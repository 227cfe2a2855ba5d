import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import { call, expectApiError, expectJson, IN_THE_SHELTER, LISTING_UNKNOWN, newKey, parseLink, seedPets } from "./helpers";

// GET /v1/pets against a known data set: 120 animals, statuses cycling
// available/pending/sold (40 each) and categories cycling 1..5 (24 each;
// category 6 stays empty), so every status+category pair holds 8 animals.

const STATUSES: PetStatus[] = ["available", "pending", "sold"];
const TOTAL = 120;

let key: string;
let all: Pet[]; // newest first, as the API should list them

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  const seeded = await seedPets(Array.from({ length: TOTAL }, (_, i) => ({ name: `Pet ${i}`, status: STATUSES[i % 3], categoryId: 1 + (i % 5) })));
  all = [...seeded].sort((a, b) => b.id - a.id);
});

const list = (query = "") => call(GET, `/v1/pets${query}`, { key });
const ids = (pets: Pet[]) => pets.map((p) => p.id);
const expected = (filter: (p: Pet) => boolean) => ids(all.filter(filter));

describe("GET /v1/pets", () => {
  it("answers a plain JSON array of pets, newest first, with Content-Type application/json", async () => {
    const res = await list("?limit=5");
    const body = await expectJson<Pet[]>(res);
    expect(Array.isArray(body)).toBe(true);
    expect(body).toEqual(all.slice(0, 5));
    for (const pet of body) {
      expect(Object.keys(pet).sort()).toEqual(
        // The profile, and the listing sites' (issue 34).
        [
          ...[
            "ageGroup",
            "birthDate",
            "breed",
            "categoryId",
            "description",
            "goodWith",
            "id",
            "name",
            "organizationId",
            "photos",
            "sex",
            "size",
            "status",
            "version",
          ],
          ...Object.keys(LISTING_UNKNOWN),
          ...Object.keys(IN_THE_SHELTER),
        ].sort(),
      );
    }
  });

  it("returns 20 animals when limit is omitted (with more than 20 stored)", async () => {
    const body = await expectJson<Pet[]>(await list());
    expect(ids(body)).toEqual(ids(all.slice(0, 20)));
  });

  it.each([
    [1, 1],
    [7, 7],
    [100, 100],
  ])("limit=%i returns at most that many (here %i)", async (limit, count) => {
    const body = await expectJson<Pet[]>(await list(`?limit=${limit}`));
    expect(body).toHaveLength(count);
    expect(ids(body)).toEqual(ids(all.slice(0, count)));
  });

  it("returns fewer than limit when fewer match", async () => {
    const body = await expectJson<Pet[]>(await list("?status=sold&categoryId=2&limit=100"));
    expect(ids(body)).toEqual(expected((p) => p.status === "sold" && p.categoryId === 2));
    expect(body).toHaveLength(8);
  });

  it.each(STATUSES)("status=%s returns only animals with that status, newest first", async (status) => {
    const body = await expectJson<Pet[]>(await list(`?status=${status}&limit=100`));
    expect(body.length).toBe(40);
    expect(body.every((p) => p.status === status)).toBe(true);
    expect(ids(body)).toEqual(expected((p) => p.status === status));
  });

  it("categoryId filters by category", async () => {
    const body = await expectJson<Pet[]>(await list("?categoryId=3&limit=100"));
    expect(body.every((p) => p.categoryId === 3)).toBe(true);
    expect(ids(body)).toEqual(expected((p) => p.categoryId === 3));
  });

  it("an empty category gives an empty array and no Link to another page", async () => {
    const res = await list("?categoryId=6");
    expect(await expectJson(res)).toEqual([]);
    expect(parseLink(res.headers.get("link"))).toEqual({});
  });

  it("orders newest first (id descending), across all pages", async () => {
    const body = await expectJson<Pet[]>(await list("?limit=100"));
    const sorted = [...ids(body)].sort((a, b) => b - a);
    expect(ids(body)).toEqual(sorted);
  });
});

describe("GET /v1/pets: invalid query parameters", () => {
  it.each([
    ["limit=0", "?limit=0", "limit"],
    ["limit=101", "?limit=101", "limit"],
    ["limit=-1", "?limit=-1", "limit"],
    ["limit=abc", "?limit=abc", "limit"],
    ["limit=1.5", "?limit=1.5", "limit"],
    ["limit= (empty)", "?limit=", "limit"],
    ["limit=1e2", "?limit=1e2", "limit"],
    ["limit repeated", "?limit=1&limit=2", "limit"],
    ["status unknown", "?status=adopted", "status"],
    ["status empty", "?status=", "status"],
    ["status in the wrong case", "?status=Available", "status"],
    ["categoryId=x", "?categoryId=x", "categoryId"],
    ["cursor= (empty)", "?cursor=", "cursor"],
  ])("%s → 400 invalid_query naming the parameter", async (_label, query, field) => {
    const body = await expectApiError(await list(query), 400, "invalid_query");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  it.each([
    ["garbage", "garbage"],
    ["not base64url at all", "%25%25%25"],
    ["standard base64 with padding", encodeURIComponent(Buffer.from('{"v":1,"d":"after","id":5}').toString("base64"))],
    ["base64 of JSON of the wrong shape", b64({ id: "x" })],
    ["base64 of a wrong version", b64({ v: 2, d: "after", id: 5 })],
    ["base64 of an unknown direction", b64({ v: 1, d: "sideways", id: 5 })],
    ["base64 of a negative id", b64({ v: 1, d: "after", id: -1 })],
    ["base64 of a fractional id", b64({ v: 1, d: "after", id: 1.5 })],
    ["base64 of a JSON array", b64([1, 2])],
    ["base64 of JSON null", b64(null)],
  ])("cursor %s → 400 invalid_cursor", async (_label, cursor) => {
    const body = await expectApiError(await list(`?cursor=${cursor}`), 400, "invalid_cursor");
    expect(body.details?.map((d) => d.field)).toContain("cursor");
  });
});

describe("GET /v1/pets: keyset paging through the Link header", () => {
  interface Page {
    pets: Pet[];
    links: Record<string, string>;
  }

  async function fetchPage(url: string): Promise<Page> {
    const res = await call(GET, url, { key });
    const pets = await expectJson<Pet[]>(res);
    return { pets, links: parseLink(res.headers.get("link")) };
  }

  /** Follows rel="next" from the first page to the last. */
  async function walkForward(query: string): Promise<Page[]> {
    const pages = [await fetchPage(`/v1/pets${query}`)];
    while (pages.at(-1)!.links.next) {
      expect(pages.length, "runaway paging").toBeLessThan(200);
      pages.push(await fetchPage(pages.at(-1)!.links.next!));
    }
    return pages;
  }

  it.each([
    // [query, filter, limit, expected page count]
    ["?status=available&limit=7", (p: Pet) => p.status === "available", 7, 6], // 40 = 5×7 + 5
    ["?status=available&limit=8", (p: Pet) => p.status === "available", 8, 5], // 40 = 5×8 exactly
    ["?status=sold&categoryId=2&limit=3", (p: Pet) => p.status === "sold" && p.categoryId === 2, 3, 3], // 8 = 2×3 + 2
    ["?categoryId=4&limit=6", (p: Pet) => p.categoryId === 4, 6, 4], // 24 = 4×6 exactly
    ["?status=available", (p: Pet) => p.status === "available", 20, 2], // default limit: 40 = 2×20 exactly
    ["?limit=50", () => true, 50, 3], // 120 = 2×50 + 20
    ["?limit=40", () => true, 40, 3], // 120 = 3×40 exactly
  ])("%s: every animal exactly once, in order, rel=next absent exactly on the last page", async (query, filter, limit, pageCount) => {
    const pages = await walkForward(query);
    const want = expected(filter);

    expect(pages).toHaveLength(pageCount);
    const seen = pages.flatMap((p) => ids(p.pets));
    expect(new Set(seen).size).toBe(seen.length); // no repeats
    expect(seen).toEqual(want); // no skips, newest first
    pages.forEach((page, i) => {
      const last = i === pages.length - 1;
      expect(page.pets.length).toBeLessThanOrEqual(limit);
      if (!last) expect(page.pets.length).toBe(limit);
      expect(page.pets.length).toBeGreaterThan(0);
      expect("next" in page.links, `page ${i + 1} of ${pages.length}: rel=next`).toBe(!last);
      expect("prev" in page.links, `page ${i + 1} of ${pages.length}: rel=prev`).toBe(i > 0);
    });

    // The links carry the filters and the limit, and only change the cursor.
    const original = new URL(`http://localhost/v1/pets${query}`).searchParams;
    for (const page of pages) {
      for (const url of Object.values(page.links)) {
        const link = new URL(url);
        expect(link.pathname).toBe("/v1/pets");
        for (const [name, value] of original) expect(link.searchParams.getAll(name)).toEqual([value]);
        expect(link.searchParams.getAll("cursor")).toHaveLength(1);
        expect([...link.searchParams.keys()].sort()).toEqual([...new Set([...original.keys(), "cursor"])].sort());
      }
    }
  });

  it("following rel=prev from the last page gives back the same pages, and stops on the first", async () => {
    const forward = await walkForward("?status=pending&limit=6"); // 40 = 6×6 + 4
    expect(forward).toHaveLength(7);

    const backward = [forward.at(-1)!];
    while (backward.at(-1)!.links.prev) {
      expect(backward.length, "runaway paging").toBeLessThan(200);
      backward.push(await fetchPage(backward.at(-1)!.links.prev!));
    }
    backward.reverse();

    expect(backward.map((p) => ids(p.pets))).toEqual(forward.map((p) => ids(p.pets)));
    // Reached through prev, the first page has no prev and a next to the second page.
    expect(backward[0]!.links.prev).toBeUndefined();
    const again = await fetchPage(backward[0]!.links.next!);
    expect(ids(again.pets)).toEqual(ids(forward[1]!.pets));
  });

  it("a new animal added while paging does not shift the pages already being walked", async () => {
    const first = await fetchPage("/v1/pets?status=sold&limit=10");
    const [newcomer] = await seedPets([{ name: "Newcomer", status: "sold", categoryId: 1 }]);
    try {
      const second = await fetchPage(first.links.next!);
      const want = expected((p) => p.status === "sold");
      expect([...ids(first.pets), ...ids(second.pets)]).toEqual(want.slice(0, 20));
    } finally {
      await db().pet.delete({ where: { id: BigInt(newcomer!.id) } });
    }
  });
});
