import { beforeAll, describe, expect, it } from "vitest";
import { PATCH } from "@/app/v1/pets/[petId]/route";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { GET as listPetsRoute, POST as createPetRoute } from "@/app/v1/pets/route";
import { isoDay, yearsBefore } from "@/lib/pets/age";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey } from "./helpers";

// The profile: optional on create and PATCH, always in every answer (null
// where unknown), validated field by field, carried by the feed.

let key: string;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "profiler"));
});

const create = (json: unknown) => call(createPetRoute, "/v1/pets", { method: "POST", key, json });
const patch = (pet: Pet, json: unknown) =>
  call(PATCH, `/v1/pets/${pet.id}`, { method: "PATCH", key, json, params: { petId: String(pet.id) }, headers: { "If-Match": `"${pet.version}"` } });
const today = () => isoDay(new Date());

const FULL = {
  name: "Biscuit",
  categoryId: 1,
  sex: "female",
  size: "medium",
  birthDate: yearsBefore(today(), 2),
  breed: "Labrador mix",
  description: "Loves walks.\nShy at first: <script>alert(1)</script>",
  goodWith: { children: true, dogs: false },
};

describe("a v1 client that knows only the spec's fields", () => {
  it("creates with name and categoryId alone, and gets every profile field back, unknown", async () => {
    const pet = await expectJson<Pet>(await create({ name: "Plain", categoryId: 2 }), 201);
    expect(pet).toMatchObject({ name: "Plain", categoryId: 2, status: "available", version: 1 });
    expect(pet).toMatchObject({ sex: "unknown", size: null, birthDate: null, ageGroup: null, breed: null, description: null, photos: [] });
    expect(pet.goodWith).toEqual({ children: null, dogs: null, cats: null });
  });

  it("still has its fields where it expects them, with the same types", async () => {
    const [pet] = await expectJson<Pet[]>(await call(listPetsRoute, "/v1/pets?limit=1", { key }));
    expect(typeof pet!.id).toBe("number");
    expect(typeof pet!.name).toBe("string");
    expect(typeof pet!.categoryId).toBe("number");
    expect(["available", "pending", "sold"]).toContain(pet!.status);
  });
});

describe("profile fields on create", () => {
  it("are stored as sent (description exactly, markup and line breaks included) and returned on every read", async () => {
    const created = await expectJson<Pet>(await create(FULL), 201);
    expect(created).toMatchObject({ ...FULL, goodWith: { children: true, dogs: false, cats: null }, ageGroup: "young" });
    const [listed] = await expectJson<Pet[]>(await call(listPetsRoute, `/v1/pets?id=${created.id}`, { key }));
    expect(listed).toEqual(created);
  });

  it.each([
    ["sex", { sex: "cat" }, "sex"],
    ["size", { size: "huge" }, "size"],
    ["a birth date in the future", { birthDate: "2999-01-01" }, "birthDate"],
    ["a birth date that does not exist", { birthDate: "2024-02-30" }, "birthDate"],
    ["a birth date in another format", { birthDate: "15/03/2024" }, "birthDate"],
    ["a birth date before 1900", { birthDate: "1899-12-31" }, "birthDate"],
    ["a blank breed", { breed: "   " }, "breed"],
    ["a breed of 101 characters", { breed: "x".repeat(101) }, "breed"],
    ["a description of 5,001 characters", { description: "é".repeat(5001) }, "description"],
    ["a description with NUL", { description: "a\u0000b" }, "description"],
    ["goodWith with an unknown key", { goodWith: { kids: true } }, "goodWith.kids"],
    ["goodWith with a string", { goodWith: { cats: "yes" } }, "goodWith.cats"],
    ["goodWith that is not an object", { goodWith: true }, "goodWith"],
  ])("%s is 400 invalid_body naming the field", async (_name, extra, field) => {
    const body = await expectApiError(await create({ name: "Bad", categoryId: 1, ...extra }), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  it("accepts 5,000 characters of description, counted as people count them", async () => {
    const pet = await expectJson<Pet>(await create({ name: "Wordy", categoryId: 1, description: "🐕".repeat(5000) }), 201);
    expect([...pet.description!].length).toBe(5000);
  });

  it("accepts today as a birth date (a newborn is a baby)", async () => {
    const pet = await expectJson<Pet>(await create({ name: "Newborn", categoryId: 1, birthDate: today() }), 201);
    expect(pet.ageGroup).toBe("baby");
  });
});

describe("profile fields on PATCH", () => {
  it("changes them, merges goodWith, and null makes a field unknown", async () => {
    const pet = await expectJson<Pet>(await create(FULL), 201);
    const v2 = await expectJson<Pet>(await patch(pet, { goodWith: { cats: true }, size: null, breed: "Collie" }));
    expect(v2).toMatchObject({ version: 2, size: null, breed: "Collie", goodWith: { children: true, dogs: false, cats: true } });
    const v3 = await expectJson<Pet>(await patch(v2, { goodWith: null, birthDate: null, description: null }));
    expect(v3).toMatchObject({ version: 3, birthDate: null, ageGroup: null, description: null, goodWith: { children: null, dogs: null, cats: null } });
  });

  it("a patch that sets the values already there changes nothing (no new version)", async () => {
    const pet = await expectJson<Pet>(await create(FULL), 201);
    const same = await expectJson<Pet>(await patch(pet, { sex: "female", goodWith: { children: true } }));
    expect(same.version).toBe(1);
  });

  it.each([
    ["sex: null", { sex: null }, "sex"],
    ["an unknown field", { colour: "brown" }, "colour"],
    ["photoOrder naming a photo the animal does not have", { photoOrder: [999_999] }, "photoOrder"],
    ["photoOrder listing a photo twice", { photoOrder: [1, 1] }, "photoOrder"],
  ])("%s is 400 invalid_body naming the field", async (_name, json, field) => {
    const pet = await expectJson<Pet>(await create({ name: "Strict", categoryId: 1 }), 201);
    const body = await expectApiError(await patch(pet, json), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });
});

describe("the change feed", () => {
  it("carries the profile in pet.created and the changed fields' old values in pet.updated", async () => {
    const pet = await expectJson<Pet>(await create(FULL), 201);
    await expectJson<Pet>(await patch(pet, { goodWith: { cats: false } }));
    const events = await expectJson<{ type: string; data: { pet: Pet; previous?: Partial<Pet> } }[]>(
      await call(listEventsRoute, "/v1/events?limit=100", { key }),
    );
    const mine = events.filter((e) => e.data.pet.id === pet.id);
    expect(mine.map((e) => e.type)).toEqual(["pet.created", "pet.updated"]);
    expect(mine[0]!.data.pet).toMatchObject({ sex: "female", size: "medium", breed: "Labrador mix", ageGroup: "young", photos: [] });
    expect(mine[1]!.data.previous).toEqual({ goodWith: { children: true, dogs: false, cats: null } });
    expect(mine[1]!.data.pet.goodWith).toEqual({ children: true, dogs: false, cats: false });
  });
});
