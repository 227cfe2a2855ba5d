import { describe, expect, it } from "vitest";
import { breedsOf, findBreed, matchBreed, siteBreed, unknownBreed, unknownBreedNames } from "@/lib/listings/vocabulary/breeds";
import { adoptapetColor, categoryVocabulary, matchColor } from "@/lib/listings/vocabulary/colors";
import { ADOPTAPET_BREED_MAP, ADOPTAPET_BREED_MAP_MORE, PETFINDER_BREEDS } from "@/lib/listings/vocabulary/data";
import { LISTED_KINDS, listedKindOf } from "@/lib/listings/vocabulary/kinds";
import { normalizeName } from "@/lib/listings/vocabulary/normalize";
import { kindOfSpecies, matchCategory, siteSpecies } from "@/lib/listings/vocabulary/species";
import { LISTING_SITES } from "@/lib/core/listing-sites";

// The listing sites' words and how names typed by people or found in files
// are matched to them: case, accents, punctuation and spacing do not count;
// an alias counts only where a source gives it; anything else stays as typed.

const CATEGORIES = ["Dogs", "Cats", "Rabbits", "Birds", "Reptiles", "Small mammals"].map((name, i) => ({ id: i + 1, name }));

describe("normalizeName", () => {
  it.each([
    ["Domestic Short Hair", "domestic shorthair"],
    ["Small&Furry", "Small & Furry"],
    ["Löwchen", "Lowchen"],
    ["Flat-coated Retriever", "flat coated retriever"],
    ["St. Bernard", "st bernard"],
  ])("%s is %s", (a, b) => expect(normalizeName(a)).toBe(normalizeName(b)));
});

describe("breeds", () => {
  it("every kind has its breeds, names unique and trimmed, every site's name set", () => {
    for (const kind of LISTED_KINDS) {
      const breeds = breedsOf(kind);
      expect(breeds.length).toBeGreaterThan(10);
      expect(new Set(breeds.map((b) => b.name)).size).toBe(breeds.length);
      for (const b of breeds) {
        for (const name of [b.name, b.petfinder, b.adoptapet, b.rescuegroups]) expect(name).toBe(name.trim());
        expect(b.rescuegroups).toBe(b.petfinder);
      }
    }
  });

  it("every Adopt-a-Pet map entry names a Petfinder breed (a typo in the data would leave it unused)", () => {
    const all = new Set(Object.values(PETFINDER_BREEDS).flat());
    // ASM3's map also has entries for species we have no category for (horses, farm animals), for names its
    // Petfinder list no longer has, and misspelt keys that never match (Petfinder's are Dandie, Norwegian, Schipperke).
    const outside = ["Cow", "Donkey/Mule", "Pot Bellied", "American Siamese", "Norweigan Lundehund", "Dandi Dinmont Terrier", "Schipperkev"];
    const unused = Object.keys({ ...ADOPTAPET_BREED_MAP, ...ADOPTAPET_BREED_MAP_MORE }).filter((name) => !all.has(name) && !outside.includes(name));
    expect(unused).toEqual([]);
  });

  it.each([
    ["dog", "labrador retriever", "Labrador Retriever", false],
    ["dog", "  Labrador Retriever mix ", "Labrador Retriever", true],
    ["dog", "Beagle cross", "Beagle", true],
    ["dog", "Beagle x", "Beagle", true],
    ["dog", "Yorkie", "Yorkshire Terrier Yorkie", false],
    ["dog", "Westie, West Highland White Terrier", "West Highland White Terrier Westie", false],
    ["dog", "Shetland Sheepdog", "Shetland Sheepdog Sheltie", false],
    ["dog", "Blue Heeler", "Australian Cattle Dog/Blue Heeler", false],
    ["dog", "Staffordshire bull terrier", "Staffordshire Bull Terrier", false],
    ["cat", "Domestic shorthair", "Domestic Short Hair", false],
    ["cat", "domestic short-hair", "Domestic Short Hair", false],
    ["cat", "Siamese mix", "Siamese", true],
    ["cat", "Hemingway Polydactyl", "Extra-Toes Cat / Hemingway Polydactyl", false],
    ["rabbit", "Lop, Holland", "Holland Lop", false],
    ["rabbit", "Netherland dwarf", "Netherland Dwarf", false],
    ["bird", "Budgerigar", "Budgie/Budgerigar", false],
    ["bird", "budgie", "Budgie/Budgerigar", false],
    ["reptile", "Corn snake", "Corn Snake", false],
    ["small-mammal", "Guinea pig", "Guinea Pig", false],
    ["rabbit", "Chinchilla, Standard", "Chinchilla", false],
  ] as const)("%s %j is %j", (kind, typed, name, mixed) => {
    expect(matchBreed(kind, typed)).toEqual({ name, known: true, mixed });
  });

  it("keeps an unknown breed exactly as typed (trimmed), unknown to the sites, with no guessing", () => {
    for (const [kind, typed] of [
      ["dog", "Lab"],
      ["dog", "Labrador mix"],
      ["cat", "Sokoke"],
      ["small-mammal", "Syrian hamster"],
      ["reptile", "Leopard gecko"],
    ] as const) {
      expect(matchBreed(kind, ` ${typed} `)).toEqual({ name: typed, known: false, mixed: false });
    }
    // A breed of another kind is not this kind's.
    expect(matchBreed("dog", "Siamese").known).toBe(false);
    expect(matchBreed(null, "Beagle")).toEqual({ name: "Beagle", known: false, mixed: false });
  });

  it("names a breed as each site does", () => {
    expect(siteBreed("dog", "adoptapet", "Pit Bull Terrier")).toBe("American Pit Bull Terrier");
    expect(siteBreed("dog", "petfinder", "american pit bull terrier")).toBe("Pit Bull Terrier");
    expect(siteBreed("cat", "adoptapet", "Havana")).toBe("Havana Brown");
    expect(siteBreed("rabbit", "adoptapet", "Havana")).toBe("Havana");
    expect(siteBreed("rabbit", "adoptapet", "Chinchilla")).toBe("Chinchilla, Standard");
    expect(siteBreed("small-mammal", "adoptapet", "Chinchilla")).toBe("Chinchilla");
    expect(siteBreed("dog", "adoptapet", "Labrador mix")).toBeNull();
  });

  it("has a stand-in breed per kind and site, each one of the site's own breeds", () => {
    for (const kind of LISTED_KINDS) {
      for (const site of LISTING_SITES) {
        const names = unknownBreedNames(kind, site);
        expect(names).toContain(unknownBreed(kind, site));
        for (const name of names) expect(breedsOf(kind).some((b) => b[site] === name)).toBe(true);
      }
    }
    expect(unknownBreed("cat", "petfinder", "long")).toBe("Domestic Long Hair");
    expect(unknownBreed("cat", "adoptapet", "medium")).toBe("Domestic Mediumhair");
    expect(unknownBreed("dog", "adoptapet")).toBe("Mixed Breed (Medium)");
    expect(unknownBreed("rabbit", "adoptapet")).toBe("Other/Unknown");
  });

  it("finds nothing for a blank name", () => {
    expect(findBreed("dog", "  ")).toBeUndefined();
  });
});

describe("species and categories", () => {
  it("names each kind as each site does", () => {
    expect(LISTED_KINDS.map((kind) => LISTING_SITES.map((site) => siteSpecies(kind, site)))).toEqual([
      ["Dog", "Dog", "Dog"],
      ["Cat", "Cat", "Cat"],
      ["Rabbit", "Rabbit", "Rabbit"],
      ["Bird", "Bird", "Bird"],
      ["Reptile", "Reptile", "Reptile"],
      ["Small&Furry", "Small Animal", "Small&Furry"],
    ]);
  });

  it.each([
    ["Dog", "Dogs"],
    ["dogs", "Dogs"],
    ["CAT", "Cats"],
    ["Small & Furry", "Small mammals"],
    ["Small Animal", "Small mammals"],
    ["small mammal", "Small mammals"],
    ["Hamster", "Small mammals"],
    ["Scales, Fins & Other", "Reptiles"],
    ["Snake", "Reptiles"],
    ["Dove", "Birds"],
  ])("%s goes to %s", (species, category) => {
    expect(matchCategory(species, CATEGORIES)?.name).toBe(category);
  });

  it("finds no category for a species none fits, and takes a category added later by its own name", () => {
    expect(matchCategory("Horse", CATEGORIES)).toBeNull();
    expect(matchCategory("Goldfish", CATEGORIES)).toBeNull();
    expect(matchCategory("", CATEGORIES)).toBeNull();
    expect(matchCategory("horse", [...CATEGORIES, { id: 9, name: "Horses" }])).toEqual({ id: 9, name: "Horses" });
    expect(kindOfSpecies("Barnyard")).toBeNull();
    expect(listedKindOf("Horses")).toBeNull();
  });
});

describe("colours and coats", () => {
  it("gives a category Petfinder's colours and coats for its kind, and none for a category of no kind", () => {
    expect(categoryVocabulary("Rabbits")).toEqual({
      colors: [
        "Agouti",
        "Black",
        "Blue / Gray",
        "Brown / Chocolate",
        "Cream",
        "Lilac",
        "Orange / Red",
        "Sable",
        "Silver Marten",
        "Tan",
        "Tortoiseshell",
        "White",
      ],
      coatLengths: ["short", "long"],
    });
    expect(categoryVocabulary("Horses")).toEqual({ colors: [], coatLengths: [] });
  });

  it("matches a colour to Petfinder's spelling, else keeps it; finds Adopt-a-Pet's colour of the same name", () => {
    expect(matchColor("dog", "white/cream")).toBe("White / Cream");
    expect(matchColor("dog", " Liver ")).toBe("Liver");
    expect(matchColor(null, "Black")).toBe("Black");
    expect(adoptapetColor("dog", "Brown / Chocolate")).toBe("Brown/Chocolate");
    expect(adoptapetColor("dog", "Apricot / Beige")).toBeUndefined();
    expect(adoptapetColor("reptile", "Black")).toBeUndefined();
  });
});
