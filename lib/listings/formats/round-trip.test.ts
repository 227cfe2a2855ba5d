import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breedsOf, findBreed } from "@/lib/listings/vocabulary/breeds";
import { adoptapetColor, adoptapetHairLengths, matchColor, petfinderCoats } from "@/lib/listings/vocabulary/colors";
import { PETFINDER_COLORS } from "@/lib/listings/vocabulary/data";
import { LISTED_KINDS, listedKindOf, type ListedKind } from "@/lib/listings/vocabulary/kinds";
import { genericFormat, GENERIC_FIELDS, type GenericMapping } from "@/lib/listings/formats/generic";
import { parseListingFile, writeListingFile } from "@/lib/listings/formats/registry";
import type { ImportedFields, ImportedRow, ListingAnimal, WriteOptions } from "@/lib/listings/formats/types";
import type { ListingSite } from "@/lib/core/listing-sites";
import { PET_SEXES, PET_SIZES } from "@/lib/pets/profile";
import { AGE_GROUPS } from "@/lib/pets/age";

// Each format held to itself: an animal goes out through toRow and the
// whole-file writer, comes back through the reader and fromRow, and returns
// equal on every field the format carries, and on none it cannot (the
// expected objects below are the list, per format, of what comes back; the
// docs' tables say the same in words).

const CATEGORY_NAMES: Record<ListedKind, string> = {
  dog: "Dogs",
  cat: "Cats",
  rabbit: "Rabbits",
  bird: "Birds",
  reptile: "Reptiles",
  "small-mammal": "Small mammals",
};
const CATEGORIES = LISTED_KINDS.map((kind, i) => ({ id: i + 1, name: CATEGORY_NAMES[kind] }));
const categoryOf = (kind: ListedKind) => CATEGORIES.find((c) => listedKindOf(c.name) === kind)!;

async function roundTrip(site: ListingSite, animal: ListingAnimal, options: WriteOptions = {}): Promise<ImportedRow> {
  const written = writeListingFile(site, [animal], options);
  expect(written.rows[0]!.cells).not.toBeNull();
  const { rows } = await parseListingFile(written.bytes, { categories: CATEGORIES });
  expect(rows).toHaveLength(1);
  expect(rows[0]!.errors).toEqual([]);
  return rows[0]!;
}

const BASE: ListingAnimal = {
  id: 7,
  externalId: "A-7",
  name: 'Zoë "Zee" O\'Brien, Jr.',
  categoryId: 1,
  categoryName: "Dogs",
  status: "available",
  sex: "female",
  size: "large",
  birthDate: "2020-02-29",
  ageGroup: "adult",
  breed: "Labrador Retriever",
  secondaryBreed: "Border Collie",
  mixedBreed: true,
  description: 'Loves walks, naps & <treats>; "zoomies" at 6pm.\n\nShy with men at first &amp; then a clown.',
  goodWith: { children: true, dogs: false, cats: null },
  colors: ["Black", "White / Cream", "Brindle"],
  coatLength: "short",
  spayedNeutered: true,
  houseTrained: true,
  declawed: null,
  shotsCurrent: true,
  specialNeeds: true,
  specialNeedsNotes: "Allergic to chicken.\nDaily pill with food.",
  adoptionFee: { amountCents: 12550, currency: "USD", waived: false },
  intakeDate: "2026-01-31",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  tags: ["friendly", "couch-potato"],
  photos: [{ url: "https://petstore.example/photos/a.webp" }, { url: "https://petstore.example/photos/b.webp?v=2&w=1280" }],
  listOnOtherSites: true,
  updatedAt: "2026-02-01T10:00:00Z",
};

/** What each format brings back of an animal: exactly the fields it carries, as it carries them. */
const EXPECTED: Record<ListingSite | "generic", (a: ListingAnimal) => ImportedFields> = {
  petfinder: (a) => ({
    categoryId: categoryOf(listedKindOf(a.categoryName)!).id,
    // Birds and reptiles have no coat on Petfinder: the column says nothing about theirs.
    ...(petfinderCoats(listedKindOf(a.categoryName)!).length ? { coatLength: a.coatLength } : {}),
    name: a.name,
    breed: a.breed,
    secondaryBreed: a.secondaryBreed,
    sex: a.sex,
    size: a.size,
    description: a.description,
    status: a.status,
    // Yes/no columns say yes or nothing: a no comes back unknown.
    shotsCurrent: a.shotsCurrent || null,
    spayedNeutered: a.spayedNeutered || null,
    goodWith: a.goodWith,
    houseTrained: a.houseTrained || null,
    declawed: a.declawed || null,
    specialNeeds: a.specialNeeds || null,
    mixedBreed: a.mixedBreed || null,
    videoUrl: a.videoUrl,
    intakeDate: a.intakeDate,
    birthDate: a.birthDate,
    colors: a.colors,
    adoptionFee: a.adoptionFee,
    specialNeedsNotes: a.specialNeedsNotes,
    tags: a.tags,
  }),
  adoptapet: (a) => {
    const kind = listedKindOf(a.categoryName)!;
    return {
      categoryId: categoryOf(kind).id,
      name: a.name,
      breed: a.breed,
      secondaryBreed: a.secondaryBreed,
      mixedBreed: a.mixedBreed,
      ...(kind === "dog" || kind === "cat" ? { size: a.size } : {}),
      sex: a.sex,
      colors: a.colors,
      description: a.description,
      status: a.status,
      goodWith: a.goodWith,
      spayedNeutered: a.spayedNeutered,
      shotsCurrent: a.shotsCurrent,
      houseTrained: a.houseTrained,
      declawed: a.declawed,
      specialNeeds: a.specialNeeds,
      ...(adoptapetHairLengths(kind).length ? { coatLength: a.coatLength } : {}),
      videoUrl: a.videoUrl,
    };
  },
  rescuegroups: (a) => ({
    categoryId: categoryOf(listedKindOf(a.categoryName)!).id,
    name: a.name,
    status: a.status,
    breed: a.breed,
    secondaryBreed: a.secondaryBreed,
    sex: a.sex,
    mixedBreed: a.mixedBreed,
    goodWith: a.goodWith,
    declawed: a.declawed,
    houseTrained: a.houseTrained,
    specialNeeds: a.specialNeeds,
    spayedNeutered: a.spayedNeutered,
    size: a.size,
    shotsCurrent: a.shotsCurrent,
    colors: a.colors,
    coatLength: a.coatLength,
    description: a.description,
  }),
  generic: (a) => ({
    categoryId: categoryOf(listedKindOf(a.categoryName)!).id,
    name: a.name,
    status: a.status,
    sex: a.sex,
    size: a.size,
    birthDate: a.birthDate,
    breed: a.breed,
    secondaryBreed: a.secondaryBreed,
    mixedBreed: a.mixedBreed,
    description: a.description,
    goodWith: a.goodWith,
    colors: a.colors,
    coatLength: a.coatLength,
    spayedNeutered: a.spayedNeutered,
    houseTrained: a.houseTrained,
    declawed: a.declawed,
    shotsCurrent: a.shotsCurrent,
    specialNeeds: a.specialNeeds,
    specialNeedsNotes: a.specialNeedsNotes,
    adoptionFee: a.adoptionFee,
    intakeDate: a.intakeDate,
    videoUrl: a.videoUrl,
    tags: a.tags,
  }),
};

const statusAction = (a: ListingAnimal) => (a.status === "sold" ? "adopted" : null);

/** Every field to a column of its own name; lists in one column. */
const FULL_MAPPING = Object.fromEntries(GENERIC_FIELDS.map((field) => [field, field])) as GenericMapping;

async function genericRoundTrip(animal: ListingAnimal, mapping: GenericMapping = FULL_MAPPING): Promise<ImportedRow> {
  const format = genericFormat(mapping);
  const row = format.toRow(animal);
  const { rows } = await parseListingFile(Buffer.from(format.writeFile([row.cells!])), { categories: CATEGORIES, mapping });
  expect(rows[0]!.errors).toEqual([]);
  return rows[0]!;
}

describe("round trip, one animal with every field", () => {
  it("petfinder carries all but the no's of yes/no fields, the fee's currency, and more than 3 colours", async () => {
    const back = await roundTrip("petfinder", BASE);
    expect(back.fields).toEqual(EXPECTED.petfinder(BASE));
    expect(back).toMatchObject({ externalId: "A-7", ageGroup: "adult", statusAction: null, photoUrls: BASE.photos.map((p) => p.url) });
    const nos = await roundTrip("petfinder", {
      ...BASE,
      spayedNeutered: false,
      houseTrained: false,
      shotsCurrent: false,
      specialNeeds: false,
      declawed: false,
      mixedBreed: false,
    });
    expect(nos.fields).toMatchObject({ spayedNeutered: null, houseTrained: null, shotsCurrent: null, specialNeeds: null, declawed: null, mixedBreed: null });
    // An unknown size is sent as M (Petfinder requires one); a fee of nothing is no fee; no video leaves six photos.
    const sparse = await roundTrip("petfinder", {
      ...BASE,
      size: null,
      adoptionFee: { amountCents: 0, currency: "USD", waived: false },
      videoUrl: null,
      photos: Array.from({ length: 7 }, (_, i) => ({ url: `https://p.example/${i}.jpg` })),
    });
    expect(sparse.fields).toMatchObject({ size: "medium", adoptionFee: null, videoUrl: null });
    expect(sparse.photoUrls).toEqual(Array.from({ length: 6 }, (_, i) => `https://p.example/${i}.jpg`));
  });

  it("adoptapet carries the profile's yes/no/unknown, one colour (with Color) and a YouTube video, not dates, fee, notes, tags or photos", async () => {
    const animal = { ...BASE, colors: ["Black"] };
    const back = await roundTrip("adoptapet", animal, { adoptapetColors: true });
    expect(back.fields).toEqual(EXPECTED.adoptapet(animal));
    expect(back).toMatchObject({ externalId: "A-7", ageGroup: "adult", photoUrls: [] });
    const withoutColor = await roundTrip("adoptapet", animal);
    expect(withoutColor.fields.colors).toBeUndefined();
    const vimeo = await roundTrip("adoptapet", { ...animal, videoUrl: "https://vimeo.com/76979871" });
    expect(vimeo.fields.videoUrl).toBeNull();
  });

  it("rescuegroups carries the profile with one colour, and photo addresses when the uploader names them so", async () => {
    const animal = { ...BASE, colors: ["Black"] };
    const back = await roundTrip("rescuegroups", animal, { photoReference: ({ photo }) => photo.url });
    expect(back.fields).toEqual(EXPECTED.rescuegroups(animal));
    expect(back).toMatchObject({ externalId: "A-7", ageGroup: "adult", photoUrls: BASE.photos.map((p) => p.url) });
    // A breed the site does not know goes as the kind's stand-in, and the breed column brings the real one back.
    const custom = await roundTrip("rescuegroups", { ...animal, breed: "Carpathian Shepherd" });
    expect(custom.fields.breed).toBe("Carpathian Shepherd");
  });

  it("generic carries every field, photos and the age group", async () => {
    const back = await genericRoundTrip(BASE);
    expect(back.fields).toEqual(EXPECTED.generic(BASE));
    expect(back).toMatchObject({ externalId: "A-7", ageGroup: "adult", photoUrls: BASE.photos.map((p) => p.url) });
  });
});

// Property-based: any animal within what a format carries comes back equal.

const kindArb = fc.constantFrom(...LISTED_KINDS);
const text = (max: number) =>
  fc
    .string({
      unit: fc.constantFrom(..."abcXYZ é ñ ß Ö 0 9 , ; \" ' & < > / # ( ) - . ! ?".split(" "), " ", "\n", "&amp;", "&#10;", "<br>"),
      minLength: 1,
      maxLength: max,
    })
    .map((s) => s.trim().replace(/\n{2,}/g, "\n"))
    .filter((s) => s.length > 0);
const nameArb = fc
  .string({ unit: fc.constantFrom(..."AbcZoë ,\"'&<>-.ñ".split("")), minLength: 1, maxLength: 30 })
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
const dateArb = fc.date({ min: new Date("1990-01-01"), max: new Date("2026-06-30"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const triArb = fc.constantFrom(true, false, null);
/** The breeds a site names so that its name leads back to the same breed (not many-to-one, as Adopt-a-Pet's three colours of Labrador). */
const breedArb = (kind: ListedKind, site: ListingSite) =>
  fc.constantFrom(
    ...breedsOf(kind)
      .filter((b) => findBreed(kind, b[site])?.name === b.name)
      .map((b) => b.name),
  );
const photosArb = (max: number) =>
  fc
    .array(
      fc.webUrl({ validSchemes: ["https"] }).filter((u) => !/youtu|vimeo/.test(u) && !/[\s,;]/.test(u)),
      { maxLength: max },
    )
    .map((urls) => urls.map((url) => ({ url })));
const videoArb = fc.option(fc.constantFrom("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://vimeo.com/76979871"), { nil: null });

/** At most one colour, among those Adopt-a-Pet names as Petfinder does (reptiles have none there). */
function adoptapetColorsArb(kind: ListedKind) {
  const both = PETFINDER_COLORS[kind].filter((c) => {
    const theirs = adoptapetColor(kind, c);
    return theirs !== undefined && matchColor(kind, theirs) === c;
  });
  return both.length ? fc.uniqueArray(fc.constantFrom(...both), { maxLength: 1 }) : fc.constant([] as string[]);
}

function animalArb(kind: ListedKind, site: ListingSite | "generic") {
  const breedSite = site === "generic" ? "petfinder" : site;
  return fc
    .record({
      id: fc.integer({ min: 1, max: 1_000_000 }),
      externalId: fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/), { nil: null }),
      name: nameArb,
      status: fc.constantFrom(...(site === "adoptapet" ? (["available", "sold"] as const) : (["available", "pending", "sold"] as const))),
      sex: fc.constantFrom(...PET_SEXES),
      size: site === "petfinder" ? fc.constantFrom(...PET_SIZES) : fc.option(fc.constantFrom(...PET_SIZES), { nil: null }),
      birthDate: fc.option(dateArb, { nil: null }),
      ageGroup: fc.option(fc.constantFrom(...AGE_GROUPS), { nil: null }),
      breed: breedArb(kind, breedSite),
      secondaryBreed: fc.option(breedArb(kind, breedSite), { nil: null }),
      mixedBreed: site === "petfinder" ? fc.constantFrom(true, null) : triArb,
      description: fc.option(text(200), { nil: null }),
      goodWith: fc.record({ children: triArb, dogs: triArb, cats: triArb }),
      colors:
        site === "petfinder" || site === "generic"
          ? fc.uniqueArray(fc.constantFrom(...PETFINDER_COLORS[kind]), { maxLength: 3 })
          : site === "adoptapet"
            ? adoptapetColorsArb(kind)
            : fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z /&-]{0,20}[a-z]$/), { maxLength: 1 }),
      coatLength:
        site === "adoptapet"
          ? fc.option(fc.constantFrom(...(adoptapetHairLengths(kind).length ? adoptapetHairLengths(kind) : (["short"] as const))), { nil: null })
          : site === "rescuegroups"
            ? fc.option(fc.constantFrom("short" as const, "medium" as const, "long" as const), { nil: null })
            : petfinderCoats(kind).length
              ? fc.option(fc.constantFrom(...petfinderCoats(kind)), { nil: null })
              : fc.constant(null),
      spayedNeutered: site === "petfinder" ? fc.constantFrom(true, null) : triArb,
      houseTrained: site === "petfinder" ? fc.constantFrom(true, null) : triArb,
      declawed: site === "petfinder" ? fc.constantFrom(true, null) : triArb,
      shotsCurrent: site === "petfinder" ? fc.constantFrom(true, null) : triArb,
      specialNeeds: site === "petfinder" ? fc.constantFrom(true, null) : triArb,
      specialNeedsNotes: fc.option(text(100), { nil: null }),
      adoptionFee:
        site === "generic"
          ? fc.option(fc.record({ amountCents: fc.integer({ min: 0, max: 500_000 }), currency: fc.constantFrom("USD", "CAD", "EUR"), waived: fc.boolean() }), {
              nil: null,
            })
          : fc.option(
              fc.oneof(
                fc.record({ amountCents: fc.integer({ min: 1, max: 500_000 }), currency: fc.constant("USD"), waived: fc.boolean() }),
                fc.constant({ amountCents: 0, currency: "USD", waived: true }),
              ),
              { nil: null },
            ),
      intakeDate: fc.option(dateArb, { nil: null }),
      videoUrl: site === "adoptapet" ? fc.option(fc.constant("https://www.youtube.com/watch?v=dQw4w9WgXcQ"), { nil: null }) : videoArb,
      tags: fc.uniqueArray(fc.stringMatching(/^[a-z0-9][a-z0-9 -]{0,28}[a-z0-9]$/), { maxLength: 10 }),
      photos: photosArb(site === "rescuegroups" ? 4 : 5),
      updatedAt: fc.constant("2026-03-01T12:00:00Z"),
    })
    .map((a): ListingAnimal => ({ ...a, categoryId: categoryOf(kind).id, categoryName: CATEGORY_NAMES[kind], listOnOtherSites: true }));
}

describe("round trip, any animal within what the format carries (fast-check)", () => {
  const runs = { numRuns: 50, seed: 20260301 };

  it.each(["petfinder", "adoptapet", "rescuegroups"] as const)("%s", async (site) => {
    const options: WriteOptions =
      site === "adoptapet" ? { adoptapetColors: true } : site === "rescuegroups" ? { photoReference: ({ photo }) => photo.url } : {};
    await fc.assert(
      fc.asyncProperty(
        kindArb.chain((kind) => animalArb(kind, site)),
        async (animal) => {
          const back = await roundTrip(site, animal, options);
          expect(back.fields).toEqual(EXPECTED[site](animal));
          expect(back.externalId).toBe(animal.externalId ?? String(animal.id));
          expect(back.ageGroup).toBe(animal.ageGroup);
          expect(back.statusAction).toBe(statusAction(animal));
          if (site !== "adoptapet") expect(back.photoUrls).toEqual(animal.photos.map((p) => p.url));
        },
      ),
      runs,
    );
  });

  it("generic", async () => {
    await fc.assert(
      fc.asyncProperty(
        kindArb.chain((kind) => animalArb(kind, "generic")),
        async (animal) => {
          const back = await genericRoundTrip(animal);
          expect(back.fields).toEqual(EXPECTED.generic(animal));
          expect(back.externalId).toBe(animal.externalId ?? String(animal.id));
          expect(back.ageGroup).toBe(animal.ageGroup);
          expect(back.photoUrls).toEqual(animal.photos.map((p) => p.url));
        },
      ),
      runs,
    );
  });
});
