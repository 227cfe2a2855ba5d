import { describe, expect, it } from "vitest";
import { listPetsQuerySchema } from "@/lib/pets/schemas/list-query";
import { newPetSchema, petPatchSchema } from "@/lib/pets/schemas/pet";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";
import { LISTING_UNKNOWN } from "@/tests/listing-unknown";

describe("newPetSchema", () => {
  it("refuses unknown fields such as id, naming each (nothing sent is dropped silently)", () => {
    const result = newPetSchema.safeParse({ id: 99, name: "Biscuit", categoryId: 1, extra: true });
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: "unrecognized_keys", keys: ["id", "extra"] })]);
  });

  it("trims the name and defaults the status and the profile", () => {
    const parsed = newPetSchema.parse({ name: "  Biscuit  ", categoryId: 1 });
    expect(parsed).toEqual({
      name: "Biscuit",
      categoryId: 1,
      status: "available",
      // The profile's defaults: everything unknown.
      sex: "unknown",
      size: null,
      birthDate: null,
      breed: null,
      description: null,
      goodWith: {},
      // The listing sites' profile: unknown, no colours nor tags, listed on other sites.
      ...LISTING_UNKNOWN,
    });
  });

  it("counts characters, not UTF-16 units: 100 emoji are a valid name, 101 are not", () => {
    expect(newPetSchema.safeParse({ name: "🐶".repeat(100), categoryId: 1 }).success).toBe(true);
    expect(newPetSchema.safeParse({ name: "🐶".repeat(101), categoryId: 1 }).success).toBe(false);
  });

  it.each([
    ["missing name", { categoryId: 1 }, "name"],
    ["blank name", { name: "   ", categoryId: 1 }, "name"],
    ["name of 101 characters", { name: "x".repeat(101), categoryId: 1 }, "name"],
    ["name that is a number", { name: 5, categoryId: 1 }, "name"],
    ["name with NUL", { name: "a\u0000b", categoryId: 1 }, "name"],
    ["name with a lone surrogate", { name: "a\ud800", categoryId: 1 }, "name"],
    ["missing categoryId", { name: "Rex" }, "categoryId"],
    ["categoryId as a string", { name: "Rex", categoryId: "1" }, "categoryId"],
    ["categoryId fractional", { name: "Rex", categoryId: 1.5 }, "categoryId"],
    ["categoryId zero", { name: "Rex", categoryId: 0 }, "categoryId"],
    ["categoryId beyond 2^53-1", { name: "Rex", categoryId: 2 ** 53 }, "categoryId"],
    ["unknown status", { name: "Rex", categoryId: 1, status: "adopted" }, "status"],
    ["status in the wrong case", { name: "Rex", categoryId: 1, status: "Available" }, "status"],
    ["status null", { name: "Rex", categoryId: 1, status: null }, "status"],
  ])("refuses %s", (_label, input, field) => {
    const result = newPetSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(field);
  });
});

describe("listPetsQuerySchema", () => {
  it("defaults limit to 20", () => {
    expect(listPetsQuerySchema.parse({})).toEqual({ limit: 20 });
  });

  it("accepts the bounds 1 and 100 and a known status", () => {
    expect(listPetsQuerySchema.parse({ limit: "1", status: "sold" })).toEqual({ limit: 1, status: "sold" });
    expect(listPetsQuerySchema.parse({ limit: "100" }).limit).toBe(100);
  });

  it.each(["0", "101", "-1", "abc", "1.5", "", " 5", "1e2", "0x10"])("refuses limit=%j", (limit) => {
    expect(listPetsQuerySchema.safeParse({ limit }).success).toBe(false);
  });

  it.each(["", "SOLD", "Available", "adopted"])("refuses status=%j", (status) => {
    expect(listPetsQuerySchema.safeParse({ status }).success).toBe(false);
  });
});

describe("petIdParamsSchema", () => {
  it.each(["abc", "1.5", "0", "-3", "9007199254740992", ""])("refuses petId=%j", (petId) => {
    expect(petIdParamsSchema.safeParse({ petId }).success).toBe(false);
  });
  it("parses an integer id", () => {
    expect(petIdParamsSchema.parse({ petId: "42" })).toEqual({ petId: 42 });
  });
});

describe("petPatchSchema (PATCH body, and the staff edit form)", () => {
  it("accepts any non-empty subset of the fields, validated as on creation", () => {
    expect(petPatchSchema.parse({ status: "sold" })).toEqual({ status: "sold" });
    expect(petPatchSchema.parse({ name: "  Rex ", categoryId: 2 })).toEqual({ name: "Rex", categoryId: 2 });
  });

  it.each([
    ["an empty object", {}, ""],
    ["an unknown field", { status: "sold", id: 3 }, "id"],
    ["a blank name", { name: " " }, "name"],
    ["a null status", { status: null }, "status"],
  ])("refuses %s", (_label, input, field) => {
    const result = petPatchSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => (i.code === "unrecognized_keys" ? i.keys.join(",") : i.path.join(".")))).toContain(field);
  });
});

describe("listPetsQuerySchema: id and q", () => {
  it("parses a comma-separated id list, once each", () => {
    expect(listPetsQuerySchema.parse({ id: "12,15,12" }).id).toEqual([12, 15]);
  });

  it.each(["", "a", "1,", ",1", "1,,2", "0", "9007199254740992", Array.from({ length: 101 }, (_, i) => i + 1).join(",")])("refuses id=%j", (id) => {
    expect(listPetsQuerySchema.safeParse({ id }).success).toBe(false);
  });

  it("trims q and counts characters", () => {
    expect(listPetsQuerySchema.parse({ q: "  bis " }).q).toBe("bis");
    expect(listPetsQuerySchema.safeParse({ q: "é".repeat(100) }).success).toBe(true);
    expect(listPetsQuerySchema.safeParse({ q: "é".repeat(101) }).success).toBe(false);
    expect(listPetsQuerySchema.safeParse({ q: "   " }).success).toBe(false);
  });
});
