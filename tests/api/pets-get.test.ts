import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/[petId]/route";
import { setClock } from "@/lib/clock";
import type { Pet } from "@/lib/pets/schemas";
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

function expectDeprecationHeaders(res: Response) {
  expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
  expect(res.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
  expect(res.headers.get("link")).toBe('</v1/pets>; rel="successor-version"');
}

describe("GET /v1/pets/{petId}", () => {
  it("answers 200 with the Pet", async () => {
    const res = await getPet(String(pet.id));
    expect(await expectJson<Pet>(res)).toEqual(pet);
  });

  it("an unknown id → 404 not_found", async () => {
    await expectApiError(await getPet("999999"), 404, "not_found");
    await expectApiError(await getPet(String(Number.MAX_SAFE_INTEGER)), 404, "not_found");
  });

  it.each(["abc", "1.5", "0", "-3", "1e2", "0x10", "9007199254740992", "99999999999999999999"])(
    "petId=%s → 400 naming petId",
    async (petId) => {
      const body = await expectApiError(await getPet(petId), 400, "invalid_path");
      expect(body.details?.map((d) => d.field)).toContain("petId");
    },
  );

  it("the Deprecation date lies before the sunset", async () => {
    const res = await getPet(String(pet.id));
    const since = Number(res.headers.get("deprecation")!.slice(1)) * 1000;
    expect(since).toBeLessThan(SUNSET.getTime());
  });
});

describe("GET /v1/pets/{petId}: every answer announces the deprecation", () => {
  it.each([
    ["200", () => getPet(String(pet.id)), 200],
    ["404", () => getPet("424242"), 404],
    ["400", () => getPet("abc"), 400],
    ["401 (no key)", () => getPet(String(pet.id), {}), 401],
    ["401 (unknown key)", () => getPet(String(pet.id), { key: UNKNOWN_KEY }), 401],
  ])("%s carries Deprecation, Sunset and the successor Link", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectDeprecationHeaders(res);
  });

  it("410 carries them too", async () => {
    setClock(SUNSET);
    const res = await getPet(String(pet.id));
    expect(res.status).toBe(410);
    expectDeprecationHeaders(res);
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

  it("once the clock is restored it answers 200 again", async () => {
    setClock(SUNSET);
    expect((await getPet(String(pet.id))).status).toBe(410);
    setClock();
    expect((await getPet(String(pet.id))).status).toBe(200);
  });
});
