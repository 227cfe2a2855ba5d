import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adoptapetImportConfig } from "@/lib/listings/formats/adoptapet";
import { writeListingFile } from "@/lib/listings/formats/registry";
import type { ListingAnimal } from "@/lib/listings/formats/types";

// The files the uploads send and the pull feed serves, byte for byte
// against tests/fixtures/listings/written/ (checked by hand against ASM3's
// publishers when written: every cell quoted, LF between lines, the sites'
// own names), and the warnings that say what a site could not take.

const WRITTEN = path.resolve(import.meta.dirname, "../../../tests/fixtures/listings/written");
const expected = (name: string) => fs.readFileSync(path.join(WRITTEN, name), "utf8");
/** Set WRITE_LISTING_FIXTURES=1 to write the files again (then read every changed byte before committing). */
const rewrite = process.env.WRITE_LISTING_FIXTURES === "1";
function expectFile(name: string, text: string) {
  if (rewrite) fs.writeFileSync(path.join(WRITTEN, name), text);
  expect(text).toBe(expected(name));
}

const dog: ListingAnimal = {
  id: 101,
  externalId: "A-101",
  name: "Zoë",
  categoryId: 1,
  categoryName: "Dogs",
  status: "available",
  sex: "female",
  size: "large",
  birthDate: "2021-06-15",
  ageGroup: "adult",
  breed: "Labrador Retriever mix",
  secondaryBreed: "Border Collie",
  mixedBreed: null,
  description: 'Loves tennis balls, naps & long walks.\nShy with men at first; "zoomies" at 6pm.',
  goodWith: { children: true, dogs: false, cats: null },
  colors: ["Black", "White / Cream"],
  coatLength: "short",
  spayedNeutered: true,
  houseTrained: true,
  declawed: null,
  shotsCurrent: true,
  specialNeeds: false,
  specialNeedsNotes: null,
  adoptionFee: { amountCents: 15000, currency: "USD", waived: false },
  intakeDate: "2026-03-02",
  videoUrl: "https://youtu.be/dQw4w9WgXcQ",
  tags: ["friendly", "playful"],
  photos: [{ url: "https://petstore.example/photos/abc-1280.webp" }, { url: "https://petstore.example/photos/def-1280.webp" }],
  listOnOtherSites: true,
  updatedAt: "2026-03-05T09:30:00Z",
};

const cat: ListingAnimal = {
  ...dog,
  id: 202,
  externalId: null,
  name: "Mr. Pickles",
  categoryId: 2,
  categoryName: "Cats",
  status: "pending",
  sex: "male",
  size: "medium",
  birthDate: "2014-09-01",
  ageGroup: "senior",
  breed: "Sokoke",
  secondaryBreed: null,
  mixedBreed: false,
  description: "Wants a quiet home.",
  goodWith: { children: null, dogs: false, cats: true },
  colors: ["Tabby (Orange / Red)"],
  coatLength: "long",
  declawed: false,
  specialNeeds: true,
  specialNeedsNotes: "Thyroid pill twice a day.",
  adoptionFee: { amountCents: 0, currency: "USD", waived: true },
  intakeDate: null,
  videoUrl: null,
  tags: [],
  photos: [{ url: "https://petstore.example/photos/ghi-1280.webp" }],
  updatedAt: null,
};

const rabbit: ListingAnimal = {
  ...dog,
  id: 303,
  externalId: "R 7/2026",
  name: "Noisette",
  categoryId: 3,
  categoryName: "Rabbits",
  sex: "unknown",
  size: null,
  birthDate: null,
  ageGroup: null,
  breed: "Holland Lop",
  secondaryBreed: null,
  mixedBreed: null,
  description: null,
  goodWith: { children: null, dogs: null, cats: null },
  colors: [],
  coatLength: "long",
  spayedNeutered: null,
  houseTrained: null,
  shotsCurrent: null,
  specialNeeds: null,
  adoptionFee: null,
  intakeDate: null,
  videoUrl: "https://vimeo.com/76979871",
  tags: [],
  photos: [{ url: "https://petstore.example/photos/jkl-1280.webp" }],
};

const horse: ListingAnimal = {
  ...dog,
  id: 404,
  externalId: "H-1",
  name: "Dakota",
  categoryId: 7,
  categoryName: "Horses",
  breed: "Quarterhorse",
  secondaryBreed: null,
};

const animals = [dog, cat, rabbit, horse];

describe("the files the sites take", () => {
  it("petfinder: the 39-column header, then a row per animal, photo addresses, the video as photo6", () => {
    const file = writeListingFile("petfinder", animals);
    expectFile("petfinder.csv", file.text);
    expect(file.bytes.equals(Buffer.from(expected("petfinder.csv"), "utf8"))).toBe(true);
    expect(file.rows.map((r) => [r.rowId, r.warnings])).toEqual([
      ["A-101", []],
      ["202", [{ field: "breed", message: '"Sokoke" is not a breed Petfinder knows: sent as "Domestic Long Hair"' }]],
      [
        "R 7/2026",
        [
          { field: "sex", message: "unknown: Petfinder imports only animals whose sex is given" },
          { field: "size", message: "unknown: sent as M, as Petfinder requires a size" },
        ],
      ],
      ["H-1", [{ field: "categoryId", message: 'Petfinder has no type for the category "Horses": the animal is left out of the file' }]],
    ]);
    expect(file.rows[0]!.photos.map((p) => p.reference)).toEqual(dog.photos.map((p) => p.url));
  });

  it("adoptapet: no header, 21 columns, or 22 with Color; photos as files photos/<Id>-<n>.jpg; its import.cfg", () => {
    const plain = writeListingFile("adoptapet", animals);
    expectFile("adoptapet-pets.csv", plain.text);
    const colored = writeListingFile("adoptapet", animals, { adoptapetColors: true });
    expectFile("adoptapet-pets-color.csv", colored.text);
    expectFile("adoptapet-import.cfg", adoptapetImportConfig());
    expectFile("adoptapet-import-color.cfg", adoptapetImportConfig({ adoptapetColors: true }));
    expect(plain.text.split("\n").map((line) => line.match(/","/g)!.length + 1)).toEqual([21, 21, 21]);
    expect(colored.text.split("\n").map((line) => line.match(/","/g)!.length + 1)).toEqual([22, 22, 22]);
    // A file name only from a plain ID; "R 7/2026" would be a path: our id instead.
    expect(plain.rows.map((r) => r.photos.map((p) => p.reference))).toEqual([
      ["photos/A-101-1.jpg", "photos/A-101-2.jpg"],
      ["photos/202-1.jpg"],
      ["photos/303-1.jpg"],
      [],
    ]);
    expect(colored.rows.map((r) => r.warnings)).toEqual([
      [{ field: "colors", message: "Adopt-a-Pet takes one colour: the first is sent" }],
      [
        { field: "breed", message: '"Sokoke" is not a breed Adopt-a-Pet knows: sent as "Domestic Longhair"' },
        { field: "colors", message: '"Tabby (Orange / Red)" is not one of Adopt-a-Pet\'s colours for this kind of animal: left out' },
        { field: "status", message: "Adopt-a-Pet has no pending status: listed as Available" },
      ],
      [{ field: "videoUrl", message: "Adopt-a-Pet takes YouTube videos only: left out" }],
      [{ field: "categoryId", message: 'Adopt-a-Pet has no type for the category "Horses": the animal is left out of the file' }],
    ]);
  });

  it('rescuegroups: its header (names separated by ", "), orgID, pictures named in pic1-pic4', () => {
    const file = writeListingFile("rescuegroups", animals, { accountId: "4321" });
    expectFile("rescuegroups.csv", file.text);
    expect(file.rows.map((r) => r.photos.map((p) => p.reference))).toEqual([["A-101-1.jpg", "A-101-2.jpg"], ["202-1.jpg"], ["303-1.jpg"], []]);
  });

  it("an empty file is still a file: the header alone (Adopt-a-Pet: nothing), so every listing is removed", () => {
    expect(writeListingFile("petfinder", []).text).toBe(expected("petfinder.csv").split("\n")[0]);
    expect(writeListingFile("adoptapet", []).text).toBe("");
    expect(writeListingFile("rescuegroups", []).text).toBe(`${expected("rescuegroups.csv").split("\n")[0]}\n`);
  });

  it("lets the uploader name the photos", () => {
    const file = writeListingFile("rescuegroups", [dog], { photoReference: ({ rowId, index }) => `pictures/${rowId}_${index}.jpg` });
    expect(file.rows[0]!.photos.map((p) => p.reference)).toEqual(["pictures/A-101_1.jpg", "pictures/A-101_2.jpg"]);
    expect(file.text).toContain('"pictures/A-101_1.jpg","pictures/A-101_2.jpg","",""');
  });

  it("sends a breed's site name, and each kind's stand-in for one the site does not know", () => {
    const cell = (site: "petfinder" | "adoptapet" | "rescuegroups", animal: ListingAnimal, column: number) =>
      writeListingFile(site, [animal]).text.split("\n").at(-1)!.split('","')[column]!.replace(/^"/, "");
    const unknown = (categoryName: string, categoryId: number) => ({ ...dog, categoryName, categoryId, breed: "Something Else", secondaryBreed: null });
    expect(
      [
        ["Dogs", 1],
        ["Cats", 2],
        ["Rabbits", 3],
        ["Birds", 4],
        ["Reptiles", 5],
        ["Small mammals", 6],
      ].map(([name, id]) => cell("petfinder", unknown(name as string, id as number), 3)),
    ).toEqual(["Mixed Breed", "Domestic Short Hair", "Bunny Rabbit", "Parrot (Other)", "Lizard", "Guinea Pig"]);
    expect(cell("adoptapet", unknown("Dogs", 1), 2)).toBe("Mixed Breed (Medium)");
    expect(cell("adoptapet", { ...dog, breed: "Yorkshire Terrier Yorkie" }, 2)).toBe("Yorkie, Yorkshire Terrier");
    expect(cell("adoptapet", { ...dog, categoryName: "Small mammals", breed: "Hamster" }, 1)).toBe("Small Animal");
  });
});
