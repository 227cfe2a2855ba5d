import { beforeAll, describe, expect, it } from "vitest";
import { GET as listStaysRoute } from "@/app/v1/pets/[petId]/stays/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { Stay } from "@/lib/stays/schemas";
import { call, createPet, expectApiError, expectJson, newKey } from "./helpers";

// GET /v1/pets/{petId}/stays is paged as every list is (issue 48): `limit`,
// opaque cursors in the Link header, `rel="next"` and `rel="prev"`, the stays
// oldest first on the animal's time line (a stay of no length before one
// that begins at its instant).

let key: string;
beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "stays pages"));
});

const DAY = 86_400_000;
const BASE = Date.parse("2020-01-01T00:00:00Z");

/** `rel` of a Link header, as a path the test calls. */
function linkOf(res: Response, rel: "next" | "prev"): string | undefined {
  const link = res.headers.get("link") ?? "";
  const match = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(link);
  if (!match) return undefined;
  const url = new URL(match[1]!);
  return `${url.pathname}${url.search}`;
}

describe("an animal's stays, a page at a time", () => {
  let pet: Pet;
  /** The 150 stays' ids in the animal's order. */
  const expected: number[] = [];

  beforeAll(async () => {
    pet = await createPet({ name: "Frequent" }, { key });
    const petId = BigInt(pet.id);
    const [open] = await db().petStay.findMany({ where: { petId }, select: { id: true } });
    // 149 past stays, written out of order (so ids are not the order): on
    // each of 74 days a stay of no length at midnight, then one from
    // midnight to noon; a last stay of no length on day 74.
    const stays: { at: number; to: number }[] = [];
    for (let i = 0; i < 74; i++) stays.push({ at: BASE + i * DAY, to: BASE + i * DAY + DAY / 2 }, { at: BASE + i * DAY, to: BASE + i * DAY });
    stays.push({ at: BASE + 74 * DAY, to: BASE + 74 * DAY });
    const ids = new Map<number, number>();
    for (const s of [...stays].reverse()) {
      const row = await db().petStay.create({
        data: {
          petId,
          organizationId: BigInt(pet.organizationId),
          intakeAt: new Date(s.at),
          intakeType: "stray",
          outcomeAt: new Date(s.to),
          outcomeType: "returnedToOwner",
        },
        select: { id: true },
      });
      ids.set(stays.indexOf(s), Number(row.id));
    }
    const order = stays.map((s, i) => ({ ...s, id: ids.get(i)! })).sort((a, b) => a.at - b.at || Number(a.to !== a.at) - Number(b.to !== b.at));
    expected.push(...order.map((s) => s.id), Number(open!.id));
  });

  it("150 stays come back in pages of 40, in order, none lost or repeated; prev walks back through the same pages; the open stay is last", async () => {
    expect(expected).toHaveLength(150);
    const pages: number[][] = [];
    let path: string | undefined = `/v1/pets/${pet.id}/stays?limit=40`;
    const prevs: (string | undefined)[] = [];
    while (path) {
      const res = await call(listStaysRoute, path, { key, params: { petId: String(pet.id) } });
      const page = await expectJson<Stay[]>(res.clone());
      pages.push(page.map((s) => s.id));
      prevs.push(linkOf(res, "prev"));
      path = linkOf(res, "next");
      expect(pages.length).toBeLessThanOrEqual(4);
    }
    expect(pages.map((p) => p.length)).toEqual([40, 40, 40, 30]);
    expect(pages.flat()).toEqual(expected);
    expect(prevs[0]).toBeUndefined();

    // Back from the last page: the same pages, newest page first.
    const back: number[][] = [];
    let prev = prevs[3];
    while (prev) {
      const res = await call(listStaysRoute, prev, { key, params: { petId: String(pet.id) } });
      back.push((await expectJson<Stay[]>(res.clone())).map((s) => s.id));
      prev = linkOf(res, "prev");
    }
    expect(back).toEqual([pages[2], pages[1], pages[0]]);

    const last = await expectJson<Stay[]>(
      await call(listStaysRoute, `/v1/pets/${pet.id}/stays?limit=100&cursor=${new URL(`http://x${prevs[3]}`).searchParams.get("cursor")}`, {
        key,
        params: { petId: String(pet.id) },
      }),
    );
    expect(last).toHaveLength(100);
  });

  it("without limit, 20 (as GET /v1/pets); limit 1 to 100, else 400 invalid_query; a cursor this list did not issue is 400 invalid_cursor", async () => {
    const first = await call(listStaysRoute, `/v1/pets/${pet.id}/stays`, { key, params: { petId: String(pet.id) } });
    expect((await expectJson<Stay[]>(first.clone())).map((s) => s.id)).toEqual(expected.slice(0, 20));
    expect(linkOf(first, "next")).toBeDefined();
    for (const limit of ["0", "101", "x", "1.5"]) {
      await expectApiError(
        await call(listStaysRoute, `/v1/pets/${pet.id}/stays?limit=${limit}`, { key, params: { petId: String(pet.id) } }),
        400,
        "invalid_query",
      );
    }
    await createPet({ name: "Another" }, { key });
    const petsPage = await call(listPets, "/v1/pets?limit=1", { key });
    const petsCursor = new URL(`http://x${linkOf(petsPage, "next")}`).searchParams.get("cursor")!;
    for (const cursor of ["nonsense!", "eyJ2IjoxfQ", petsCursor]) {
      await expectApiError(
        await call(listStaysRoute, `/v1/pets/${pet.id}/stays?cursor=${cursor}`, { key, params: { petId: String(pet.id) } }),
        400,
        "invalid_cursor",
      );
    }
  });
});
