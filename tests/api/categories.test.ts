import { beforeAll, describe, expect, it } from "vitest";
import * as breedsRoute from "@/app/v1/categories/[categoryId]/breeds/route";
import * as categoriesRoute from "@/app/v1/categories/route";
import { db } from "@/lib/db";
import { call, expectApiError, expectJson, newKey } from "./helpers";

// The listing sites' words in the API: each category's colours and coat
// lengths in GET /v1/categories, and its breeds in
// GET /v1/categories/{categoryId}/breeds, against the real database's
// categories (seeded by name; ids as the seed gives them).

interface Category {
  id: number;
  name: string;
  colors: string[];
  coatLengths: string[];
}
interface Breed {
  name: string;
  petfinder: string;
  adoptapet: string;
  rescuegroups: string;
}

let key: string;
let categories: Category[];
const byName = (name: string) => categories.find((c) => c.name === name)!;
const breeds = async (id: number | string) => call(breedsRoute.GET, `/v1/categories/${id}/breeds`, { key, params: { categoryId: String(id) } });

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  categories = await expectJson<Category[]>(await call(categoriesRoute.GET, "/v1/categories", { key }));
});

describe("GET /v1/categories", () => {
  it("gives each category Petfinder's colours and coats for its kind of animal", () => {
    expect(categories.map((c) => [c.name, c.coatLengths])).toEqual([
      ["Dogs", ["hairless", "short", "medium", "long", "wire", "curly"]],
      ["Cats", ["hairless", "short", "medium", "long"]],
      ["Rabbits", ["short", "long"]],
      ["Birds", []],
      ["Reptiles", []],
      ["Small mammals", ["hairless", "short", "long"]],
    ]);
    expect(byName("Dogs").colors).toHaveLength(15);
    expect(byName("Dogs").colors).toContain("Tricolor (Brown, Black, & White)");
    expect(byName("Cats").colors).toContain("Tabby (Tiger Striped)");
    expect(byName("Rabbits").colors).toContain("Silver Marten");
    expect(byName("Birds").colors).toContain("Rust / Rufous");
    expect(byName("Reptiles").colors).toContain("Iridescent");
    expect(byName("Small mammals").colors).toContain("White (Dark-Eyed)");
  });

  it("gives a category added later, which the sites have no words for, empty lists", async () => {
    const horses = await db().category.create({ data: { name: "Horses" }, select: { id: true } });
    try {
      const all = await expectJson<Category[]>(await call(categoriesRoute.GET, "/v1/categories", { key }));
      expect(all.find((c) => c.id === Number(horses.id))).toEqual({ id: Number(horses.id), name: "Horses", colors: [], coatLengths: [] });
      expect(await expectJson(await breeds(Number(horses.id)))).toEqual([]);
    } finally {
      await db().category.delete({ where: { id: horses.id } });
    }
  });
});

describe("GET /v1/categories/{categoryId}/breeds", () => {
  it("lists the dogs' breeds by name, with each site's own name", async () => {
    const list = await expectJson<Breed[]>(await breeds(byName("Dogs").id));
    expect(list.length).toBeGreaterThan(200);
    expect(list.map((b) => b.name)).toEqual([...list.map((b) => b.name)].sort((a, b) => a.localeCompare(b, "en")));
    const find = (name: string) => list.find((b) => b.name === name);
    expect(find("Labrador Retriever")).toEqual({
      name: "Labrador Retriever",
      petfinder: "Labrador Retriever",
      adoptapet: "Labrador Retriever",
      rescuegroups: "Labrador Retriever",
    });
    // Adopt-a-Pet names some breeds differently (ASM3's import.cfg map).
    expect(find("Yorkshire Terrier Yorkie")).toMatchObject({ petfinder: "Yorkshire Terrier Yorkie", adoptapet: "Yorkie, Yorkshire Terrier" });
    expect(find("Mixed Breed")).toMatchObject({ adoptapet: "Mixed Breed (Medium)" });
    expect(find("Siamese")).toBeUndefined();
  });

  it.each([
    ["Cats", "Domestic Short Hair", "Domestic Shorthair"],
    ["Rabbits", "Holland Lop", "Lop, Holland"],
    ["Birds", "Budgie/Budgerigar", "Budgie"],
    ["Reptiles", "Bearded Dragon", "Lizard"],
    ["Small mammals", "Chinchilla", "Chinchilla"],
  ])("lists the %s' breeds (%s is %s on Adopt-a-Pet)", async (category, petfinder, adoptapet) => {
    const list = await expectJson<Breed[]>(await breeds(byName(category).id));
    expect(list.find((b) => b.name === petfinder)).toEqual({ name: petfinder, petfinder, adoptapet, rescuegroups: petfinder });
  });

  it("answers 404 not_found for a category that does not exist, and 400 for an id that is not one", async () => {
    await expectApiError(await breeds(987654), 404, "not_found");
    await expectApiError(await breeds("dogs"), 400, "invalid_path");
    await expectApiError(await breeds("0"), 400, "invalid_path");
  });

  it("needs pets:read", async () => {
    const { key: writeOnly } = await newKey(["pets:write"]);
    await expectApiError(await call(breedsRoute.GET, "/v1/categories/1/breeds", { key: writeOnly, params: { categoryId: "1" } }), 403, "forbidden");
    await expectApiError(await call(breedsRoute.GET, "/v1/categories/1/breeds", { params: { categoryId: "1" } }), 401, "unauthorized");
  });
});
