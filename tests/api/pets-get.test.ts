import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/[petId]/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { setClock } from "@/lib/clock";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey, seedPets, UNKNOWN_KEY } from "./helpers";

// GET /v1/pets/{petId} - deprecated, sunset 2030-12-05T00:00:00Z, then 410.

const SUNSET = new Date("2030-12-05T00:00:00Z");

let key: string;
let pet: Pet;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  [pet] = (await seedPets([{ name: "Otis 🐾", categoryId: 2, status: "pending" }])) as [Pet];
});

afterEach(() => setClock());

const getPet = (petId: string, options: { key?: string; authorization?: string } = { key }) =>
  call(GET, `/v1/pets/${encodeURIComponent(petId)}`, { ...options, params: { petId } });

/** The successor is the list filtered by the requested id; without a usable id, the list itself. */
function expectDeprecationHeaders(res: Response, petId?: string) {
  expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
  expect(res.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
  expect(res.headers.get("link")).toBe(petId ? `</v1/pets?id=${petId}>; rel="successor-version"` : '</v1/pets>; rel="successor-version"');
}

describe("GET /v1/pets/{petId}", () => {
  it("answers 200 with the Pet and its version as a strong ETag", async () => {
    const res = await getPet(String(pet.id));
    expect(await expectJson<Pet>(res)).toEqual(pet);
    expect(res.headers.get("etag")).toBe(`"${pet.version}"`);
  });

  it("an unknown id → 404 not_found", async () => {
    await expectApiError(await getPet("999999"), 404, "not_found");
    await expectApiError(await getPet(String(Number.MAX_SAFE_INTEGER)), 404, "not_found");
  });

  it.each(["abc", "1.5", "0", "-3", "1e2", "0x10", "9007199254740992", "99999999999999999999"])("petId=%s → 400 naming petId", async (petId) => {
    const body = await expectApiError(await getPet(petId), 400, "invalid_path");
    expect(body.details?.map((d) => d.field)).toContain("petId");
  });

  it("the Deprecation date lies before the sunset", async () => {
    const res = await getPet(String(pet.id));
    const since = Number(res.headers.get("deprecation")!.slice(1)) * 1000;
    expect(since).toBeLessThan(SUNSET.getTime());
  });
});

describe("GET /v1/pets/{petId}: every answer announces the deprecation", () => {
  it.each([
    ["200", () => getPet(String(pet.id)), 200, () => String(pet.id)],
    ["404", () => getPet("424242"), 404, () => "424242"],
    ["400", () => getPet("abc"), 400, () => undefined],
    ["400 (beyond 2^53-1)", () => getPet("9007199254740992"), 400, () => undefined],
    ["404 (leading zeros: the same id, written canonically)", () => getPet("000424242"), 404, () => "424242"],
    ["401 (no key)", () => getPet(String(pet.id), {}), 401, () => String(pet.id)],
    ["401 (unknown key)", () => getPet(String(pet.id), { key: UNKNOWN_KEY }), 401, () => String(pet.id)],
  ])("%s carries Deprecation, Sunset and the successor Link", async (_label, send, status, successorId) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectDeprecationHeaders(res, successorId());
  });

  it("410 carries them too, and its message names the successor", async () => {
    setClock(SUNSET);
    const res = await getPet(String(pet.id));
    expectDeprecationHeaders(res, String(pet.id));
    const body = await expectApiError(res, 410, "gone");
    expect(body.message).toContain(`GET /v1/pets?id=${pet.id}`);
  });

  it("the successor Link leads to the same animal", async () => {
    const res = await getPet(String(pet.id));
    const successor = /^<([^>]+)>/.exec(res.headers.get("link")!)![1]!;
    expect(await expectJson<Pet[]>(await call(listPets, successor, { key }))).toEqual([await expectJson<Pet>(res)]);
  });
});

describe("GET /v1/pets/{petId}: the sunset", () => {
  it("one millisecond before the sunset it still answers 200", async () => {
    setClock(new Date(SUNSET.getTime() - 1));
    expect(await expectJson<Pet>(await getPet(String(pet.id)))).toEqual(pet);
  });

  it("from the sunset on it answers 410 gone", async () => {
    setClock(SUNSET);
    await expectApiError(await getPet(String(pet.id)), 410, "gone");
    setClock(new Date("2031-06-01T12:00:00Z"));
    await expectApiError(await getPet(String(pet.id)), 410, "gone");
    await expectApiError(await getPet("999999"), 410, "gone");
  });

  it("past the sunset, its successor GET /v1/pets?id= still answers the animal", async () => {
    for (const at of [SUNSET, new Date("2031-06-01T12:00:00Z")]) {
      setClock(at);
      expect((await getPet(String(pet.id))).status).toBe(410);
      const res = await call(listPets, `/v1/pets?id=${pet.id}`, { key });
      expect(await expectJson<Pet[]>(res)).toEqual([pet]);
      expect(res.headers.get("deprecation")).toBeNull();
      expect(await expectJson<Pet[]>(await call(listPets, "/v1/pets?id=999999", { key }))).toEqual([]);
    }
  });

  it("once the clock is restored it answers 200 again", async () => {
    setClock(SUNSET);
    expect((await getPet(String(pet.id))).status).toBe(410);
    setClock();
    expect((await getPet(String(pet.id))).status).toBe(200);
  });
});
