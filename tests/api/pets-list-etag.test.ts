import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchPet } from "@/app/v1/pets/[petId]/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { setClock } from "@/lib/clock";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, enableRateLimit, newKey, seedPets } from "./helpers";

// A partner polling a page that did not change: the page's weak ETag, and
// If-None-Match answered with 304 and no body. The tag moves with anything
// the page is made of; the rate limit counts the 304 like any answer.

enableRateLimit();

let key: string;
let pets: Pet[];

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "poller", { plan: "enterprise", perMinute: 100_000, perDay: 1_000_000 }));
  pets = await seedPets(Array.from({ length: 6 }, (_, i) => ({ name: `Polled ${i}`, birthDate: "2025-11-26" })));
});

afterEach(() => setClock());

const list = (path: string, ifNoneMatch?: string) => call(listPets, path, { key, headers: ifNoneMatch === undefined ? {} : { "if-none-match": ifNoneMatch } });
const remaining = (res: Response) => Number(res.headers.get("x-ratelimit-remaining"));

describe("GET /v1/pets with If-None-Match", () => {
  it("a page carries a weak ETag and may be kept by the client's own cache, to be asked again before use", async () => {
    const res = await list("/v1/pets?limit=3");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("vary")).toBe("Authorization, Cookie");
  });

  it("the same page asked with its tag: 304, no body, the same tag and links, and the request still counts", async () => {
    const first = await list("/v1/pets?limit=3");
    const etag = first.headers.get("etag")!;
    const again = await list("/v1/pets?limit=3", etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("link")).toBe(first.headers.get("link"));
    expect(remaining(again)).toBe(remaining(first) - 1);
  });

  it("compares weakly and accepts a list of tags or *; a malformed header gets the full page", async () => {
    const etag = (await list("/v1/pets?limit=3")).headers.get("etag")!;
    const opaque = etag.slice(2);
    expect((await list("/v1/pets?limit=3", opaque)).status).toBe(304);
    expect((await list("/v1/pets?limit=3", `"nope", ${etag}`)).status).toBe(304);
    expect((await list("/v1/pets?limit=3", "*")).status).toBe(304);
    expect((await list("/v1/pets?limit=3", '"nope"')).status).toBe(200);
    expect((await list("/v1/pets?limit=3", "garbage")).status).toBe(200);
  });

  it("the tag moves when an animal on the page changes, and not when one on another page does", async () => {
    const page1 = (await list("/v1/pets?limit=3")).headers.get("etag")!;
    const idsPage1 = ((await (await list("/v1/pets?limit=3")).json()) as Pet[]).map((p) => p.id);
    const elsewhere = pets.find((p) => !idsPage1.includes(p.id))!;
    const onPage = pets.find((p) => p.id === idsPage1[1])!;

    const change = (pet: Pet, json: Record<string, unknown>) =>
      call(patchPet, `/v1/pets/${pet.id}`, {
        method: "PATCH",
        key,
        json,
        params: { petId: String(pet.id) },
        headers: { "content-type": "application/merge-patch+json" },
      });
    expect((await change(elsewhere, { name: "Renamed elsewhere" })).status).toBe(200);
    expect((await list("/v1/pets?limit=3", page1)).status).toBe(304);

    expect((await change(onPage, { status: "pending" })).status).toBe(200);
    const after = await list("/v1/pets?limit=3", page1);
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(page1);
    expect(((await after.json()) as Pet[]).find((p) => p.id === onPage.id)!.status).toBe("pending");
  });

  it("a new animal at the top moves the first page's tag", async () => {
    const before = (await list("/v1/pets?limit=3")).headers.get("etag")!;
    await seedPets([{ name: "Newcomer" }]);
    expect((await list("/v1/pets?limit=3", before)).status).toBe(200);
  });

  it("the tag moves with the day (ageGroup is worked out on the day of the answer)", async () => {
    setClock(new Date("2026-11-25T12:00:00Z"));
    const today = (await list("/v1/pets?limit=3")).headers.get("etag")!;
    setClock(new Date("2026-11-26T12:00:00Z"));
    const tomorrow = await list("/v1/pets?limit=3", today);
    expect(tomorrow.status).toBe(200);
    // Born 2025-11-26: a baby yesterday, a year old today.
    expect(((await tomorrow.json()) as Pet[]).some((p) => p.ageGroup === "young")).toBe(true);
  });

  it("the successor lookup (?id=) is tagged and answers 304 the same way", async () => {
    const path = `/v1/pets?id=${pets[0]!.id},${pets[1]!.id}`;
    const first = await list(path);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    expect((await list(path, etag)).status).toBe(304);
  });
});
