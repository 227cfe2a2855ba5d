import fs from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { ListingFileError, MAX_CELL_BYTES, MAX_FILE_BYTES, MAX_FILE_COLUMNS, MAX_FILE_ROWS } from "@/lib/listings/formats/errors";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import { inspectListingFile, readListingFile, recordValue } from "@/lib/listings/formats/read";
import { parseListingFile } from "@/lib/listings/formats/registry";
import type { ImportedFields, ImportedRow } from "@/lib/listings/formats/types";
import type { ListingFormatName } from "@/lib/core/listing-sites";

// Reading the sample files (tests/fixtures/listings/, written by hand from
// the sites' public descriptions) into our words, exactly; then encodings,
// format detection and its failures, line numbers and the limits.

const FIXTURES = path.resolve(import.meta.dirname, "../../../tests/fixtures/listings");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const CATEGORIES = ["Dogs", "Cats", "Rabbits", "Birds", "Reptiles", "Small mammals"].map((name, i) => ({ id: i + 1, name }));
const MAPPING = JSON.parse(fixture("generic-mapping.json").toString("utf8")) as GenericMapping;

const unknownGoodWith = { children: null, dogs: null, cats: null };
const PETFINDER_HEADER = "ID,Internal,AnimalName,Type";

/** What every Petfinder row says about the fields it carries, before a row's own values. */
const PF: ImportedFields = {
  secondaryBreed: null,
  description: null,
  shotsCurrent: null,
  spayedNeutered: null,
  goodWith: unknownGoodWith,
  houseTrained: null,
  declawed: null,
  specialNeeds: null,
  mixedBreed: null,
  videoUrl: null,
  intakeDate: null,
  birthDate: null,
  colors: [],
  coatLength: null,
  adoptionFee: null,
  specialNeedsNotes: null,
  tags: [],
};
const AAP: ImportedFields = {
  secondaryBreed: null,
  mixedBreed: null,
  description: null,
  goodWith: unknownGoodWith,
  spayedNeutered: null,
  shotsCurrent: null,
  houseTrained: null,
  declawed: null,
  specialNeeds: null,
  videoUrl: null,
};
const RG: ImportedFields = {
  secondaryBreed: null,
  mixedBreed: null,
  goodWith: unknownGoodWith,
  declawed: null,
  houseTrained: null,
  specialNeeds: null,
  spayedNeutered: null,
  size: null,
  shotsCurrent: null,
  colors: [],
  coatLength: null,
  description: null,
};

function row(line: number, externalId: string | null, species: string | null, fields: ImportedFields, more: Partial<ImportedRow> = {}): ImportedRow {
  return { line, externalId, species, fields, ageGroup: null, photoUrls: [], photosLeftOut: 0, statusAction: null, errors: [], warnings: [], ...more };
}
const unknownBreed = (line: number, field: string, breed: string) => ({
  line,
  field,
  message: `"${breed}" is not a breed the listing sites know: kept as written`,
});
const noCategory = (line: number, field: string, species: string) => ({
  line,
  field,
  message: `"${species}" is not a species we have a category for (Dogs, Cats, Rabbits, Birds, Reptiles, Small mammals)`,
});

const SAMPLES: { file: string; format: ListingFormatName; encoding: string; rows: ImportedRow[] }[] = [
  {
    file: "petfinder.csv",
    format: "petfinder",
    encoding: "utf-8",
    rows: [
      row(
        2,
        "PF-1001",
        "Dog",
        {
          ...PF,
          categoryId: 1,
          name: "Zoë",
          breed: "Labrador Retriever",
          secondaryBreed: "Border Collie",
          sex: "female",
          size: "large",
          description: "Zoë came to us in March, shy but sweet.\nShe loves tennis balls, naps & long walks. She's house-trained.",
          status: "available",
          shotsCurrent: true,
          spayedNeutered: true,
          goodWith: { dogs: true, cats: false, children: null },
          houseTrained: true,
          mixedBreed: true,
          videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          intakeDate: "2026-03-02",
          birthDate: "2021-06-15",
          colors: ["Black", "White / Cream"],
          coatLength: "short",
          adoptionFee: { amountCents: 15000, currency: "USD", waived: false },
          tags: ["friendly", "playful"],
        },
        { ageGroup: "adult", photoUrls: ["https://photos.example.org/pf/1001-1.jpg", "https://photos.example.org/pf/1001-2.jpg"] },
      ),
      // Its description holds two line breaks: the next record starts on line 6.
      row(
        3,
        "PF-1002",
        "Cat",
        {
          ...PF,
          categoryId: 2,
          name: "Mr. Pickles",
          breed: "Domestic Short Hair",
          sex: "male",
          size: "medium",
          description: "Mr. Pickles is 11, and proud of it.\nHe wants a quiet home, a sunny window, and no dogs.\nFee waived for seniors!",
          status: "pending",
          shotsCurrent: true,
          spayedNeutered: true,
          goodWith: { dogs: false, cats: null, children: true },
          houseTrained: true,
          declawed: true,
          specialNeeds: true,
          intakeDate: "2026-01-20",
          birthDate: "2014-09-01",
          colors: ["Tabby (Orange / Red)"],
          coatLength: "medium",
          adoptionFee: { amountCents: 0, currency: "USD", waived: true },
          specialNeedsNotes: "Thyroid medication twice a day.",
        },
        { ageGroup: "senior", photoUrls: ["https://photos.example.org/pf/1002-1.jpg"] },
      ),
      row(
        6,
        "PF-1003",
        "Horse",
        { ...PF, name: "Biscuit", breed: "Quarterhorse", sex: "male", size: "xlarge", description: "Gentle giant.", status: "available" },
        {
          ageGroup: "adult",
          errors: [noCategory(6, "Type", "Horse")],
          unknownWords: [{ field: "species", word: "Horse" }],
          warnings: [unknownBreed(6, "PrimaryBreed", "Quarterhorse")],
        },
      ),
      row(
        7,
        "PF-1004",
        "Cat",
        { ...PF, categoryId: 2, breed: "Siamese", sex: "female", size: "small", status: "available" },
        {
          ageGroup: "young",
          errors: [{ line: 7, field: "AnimalName", message: "is empty: every animal needs a name" }],
        },
      ),
      row(
        8,
        "PF-1005",
        "Rabbit",
        {
          ...PF,
          categoryId: 3,
          name: "Clémentine",
          breed: "Mini-Lop",
          sex: "female",
          size: "small",
          description: "Adopted last week – thank you!",
          status: "sold",
          spayedNeutered: true,
          houseTrained: true,
          intakeDate: "2026-02-10",
          birthDate: "2025-11-01",
          coatLength: "long",
        },
        { ageGroup: "baby", statusAction: "adopted" },
      ),
      row(
        9,
        "PF-1006",
        "Small&Furry",
        { ...PF, categoryId: 6, name: "Peanut", breed: "Syrian Hamster", sex: "male", size: "small", status: "available" },
        {
          ageGroup: "young",
          warnings: [unknownBreed(9, "PrimaryBreed", "Syrian Hamster")],
        },
      ),
    ],
  },
  {
    file: "adoptapet-windows-1252.csv",
    format: "adoptapet",
    encoding: "windows-1252",
    rows: [
      row(
        1,
        "AAP-7",
        "Dog",
        {
          ...AAP,
          categoryId: 1,
          name: "Renée",
          // Adopt-a-Pet's "American Pit Bull Terrier" is Petfinder's (and our) "Pit Bull Terrier".
          breed: "Pit Bull Terrier",
          mixedBreed: false,
          size: "large",
          sex: "female",
          description: "Sweet, goofy, and strong.\nBest as the only dog.",
          status: "available",
          goodWith: { children: true, cats: null, dogs: false },
          spayedNeutered: true,
          shotsCurrent: true,
          houseTrained: true,
          declawed: false,
          specialNeeds: false,
          videoUrl: "https://youtu.be/dQw4w9WgXcQ",
        },
        { ageGroup: "young" },
      ),
      row(
        2,
        "AAP-8",
        "Cat",
        {
          ...AAP,
          categoryId: 2,
          name: "Gâteau",
          breed: "Domestic Short Hair",
          mixedBreed: true,
          size: "small",
          sex: "male",
          description: "Found under a café table.",
          status: "available",
          goodWith: { children: true, cats: true, dogs: null },
          spayedNeutered: false,
          shotsCurrent: true,
          declawed: false,
          specialNeeds: false,
          coatLength: "short",
        },
        { ageGroup: "baby" },
      ),
      row(
        3,
        "AAP-9",
        "Small Animal",
        {
          ...AAP,
          categoryId: 6,
          name: "Señor Wiggles",
          breed: "Guinea Pig",
          sex: "male",
          description: "Squeaks for lettuce.",
          status: "sold",
          coatLength: "short",
        },
        {
          ageGroup: "adult",
          statusAction: "adopted",
        },
      ),
      row(
        4,
        "AAP-10",
        "Rabbit",
        { ...AAP, categoryId: 3, name: "Noisette", breed: "Holland Lop", sex: "female", coatLength: null },
        { ageGroup: "senior", statusAction: "delete" },
      ),
      row(
        5,
        "AAP-11",
        "Horse",
        { ...AAP, name: "Dakota", breed: "Quarter Horse", mixedBreed: false, sex: "female", status: "available", coatLength: null },
        {
          ageGroup: "adult",
          errors: [noCategory(5, "Animal", "Horse")],
          unknownWords: [{ field: "species", word: "Horse" }],
          warnings: [unknownBreed(5, "Breed", "Quarter Horse")],
        },
      ),
    ],
  },
  {
    file: "adoptapet-22-header.csv",
    format: "adoptapet",
    encoding: "utf-8",
    rows: [
      row(
        2,
        "AAP-20",
        "Dog",
        {
          ...AAP,
          categoryId: 1,
          name: "Rocket",
          breed: "Labrador Retriever",
          secondaryBreed: "Poodle",
          mixedBreed: true,
          size: "large",
          sex: "male",
          colors: ["Black"],
          description: "Fetch champion.\nNeeds a yard & a job.",
          status: "available",
          goodWith: { children: true, cats: false, dogs: true },
          spayedNeutered: true,
          shotsCurrent: true,
          houseTrained: true,
          declawed: false,
          specialNeeds: false,
          videoUrl: "https://www.youtube.com/watch?v=abcdefghijk",
        },
        { ageGroup: "adult" },
      ),
      row(
        3,
        "AAP-21",
        "Bird",
        {
          ...AAP,
          categoryId: 4,
          name: "Kiwi",
          breed: "Budgie/Budgerigar",
          sex: "female",
          colors: ["Green"],
          description: "Whistles the news theme.",
          status: "available",
        },
        {
          ageGroup: "young",
        },
      ),
    ],
  },
  {
    file: "rescuegroups-bom.csv",
    format: "rescuegroups",
    encoding: "utf-8-bom",
    rows: [
      row(
        2,
        "RG-1",
        "Dog",
        {
          ...RG,
          categoryId: 1,
          name: "Muffin",
          status: "available",
          breed: "Beagle",
          sex: "female",
          mixedBreed: true,
          goodWith: { dogs: true, cats: false, children: true },
          houseTrained: true,
          spayedNeutered: true,
          size: "medium",
          shotsCurrent: true,
          colors: ["Tricolor (Brown, Black, & White)"],
          coatLength: "short",
          description: "Loves sniffing.\nHowls at sirens & trucks.",
        },
        { ageGroup: "young", photoUrls: ["https://photos.example.org/rg/1.jpg", "https://photos.example.org/rg/2.jpg"] },
      ),
      row(
        3,
        "RG-2",
        "Cat",
        {
          ...RG,
          categoryId: 2,
          name: "Ömer",
          status: "pending",
          breed: "Maine Coon",
          sex: "male",
          mixedBreed: false,
          goodWith: { dogs: null, cats: true, children: null },
          declawed: false,
          houseTrained: true,
          specialNeeds: true,
          spayedNeutered: true,
          size: "large",
          shotsCurrent: false,
          colors: ["Gray / Blue / Silver"],
          coatLength: "long",
          description: "Big, fluffy, and polite.",
        },
        {
          ageGroup: "adult",
          warnings: [{ line: 3, field: "pic1", message: '"5002-1.jpg" names a file on the site\'s server, not an address: the import cannot fetch it' }],
        },
      ),
      // No rescueID: the animalID is the ID.
      row(
        4,
        "5003",
        "Cat",
        {
          ...RG,
          categoryId: 2,
          name: "Ghost",
          status: "sold",
          breed: "Domestic Short Hair",
          sex: "female",
          spayedNeutered: true,
          size: "small",
          colors: ["White"],
        },
        {
          ageGroup: "senior",
          statusAction: "adopted",
        },
      ),
      row(5, "RG-4", "Reptile", { ...RG, categoryId: 5, name: "Spike", breed: "Bearded Dragon", sex: "male" }, { ageGroup: "adult", statusAction: "delete" }),
      row(
        6,
        "RG-5",
        null,
        { ...RG, name: "Pebble", status: "available", breed: null, sex: "female" },
        {
          ageGroup: "baby",
          errors: [{ line: 6, field: "species", message: "is empty: every animal needs a species" }],
        },
      ),
    ],
  },
  {
    file: "generic.csv",
    format: "generic",
    encoding: "utf-8",
    rows: [
      row(
        2,
        "G-1",
        "dog",
        {
          categoryId: 1,
          name: "Pépite",
          status: "available",
          sex: "female",
          birthDate: "2022-03-15",
          breed: "Labrador Retriever",
          mixedBreed: true,
          description: "Calm, gentle, and curious.\nLoves kids; tolerates cats.",
          goodWith: { children: true, dogs: null, cats: false },
          colors: ["Black", "White / Cream"],
          adoptionFee: { amountCents: 9500, currency: "USD", waived: false },
        },
        { photoUrls: ["https://photos.example.org/g/1.jpg"] },
      ),
      row(
        4,
        "G-2",
        "Cats",
        {
          categoryId: 2,
          name: "Otis",
          status: "sold",
          sex: "male",
          birthDate: "2019-01-01",
          breed: "Domestic Medium Hair",
          description: null,
          goodWith: unknownGoodWith,
          colors: ["Gray / Blue / Silver"],
          adoptionFee: { amountCents: 0, currency: "USD", waived: false },
        },
        { statusAction: "adopted" },
      ),
      // A generic row without a name is the animal named by its ID (issue 42).
      row(
        5,
        "G-3",
        "Rabbit",
        {
          categoryId: 3,
          name: "G-3",
          status: "available",
          sex: "female",
          birthDate: null,
          breed: "Rex",
          description: null,
          goodWith: unknownGoodWith,
          colors: [],
          adoptionFee: null,
        },
        {
          warnings: [{ line: 5, field: "Name", message: 'is empty: the animal is named by its ID "G-3"' }],
        },
      ),
      row(
        6,
        "G-4",
        "rabbit",
        { categoryId: 3, name: "Hopper", breed: "Rex", description: null, goodWith: { dogs: null, cats: null }, colors: [], adoptionFee: null },
        {
          errors: [
            { line: 6, field: "Sex", message: '"Q" is not female or male' },
            { line: 6, field: "Birthday", message: '"2024-02-30" is not a date (YYYY-MM-DD or MM/DD/YYYY)' },
            { line: 6, field: "Kids?", message: '"maybe" is not yes or no' },
          ],
          unknownWords: [
            { field: "sex", word: "Q" },
            { field: "goodWithChildren", word: "maybe" },
          ],
        },
      ),
    ],
  },
];

describe("the sample files", () => {
  it.each(SAMPLES)("$file reads as $format ($encoding), row by row", async ({ file, format, encoding, rows }) => {
    const mapping = format === "generic" ? MAPPING : undefined;
    const parsed = await parseListingFile(fixture(file), { categories: CATEGORIES, mapping });
    expect(parsed.file.format).toBe(format);
    expect(parsed.file.encoding).toBe(encoding);
    expect(parsed.rows).toEqual(rows);
  });

  it.each(SAMPLES.filter((s) => s.format !== "generic"))(
    "$file is found to be $format without being told, and reads the same when told",
    async ({ file, format }) => {
      const told = await parseListingFile(fixture(file), { categories: CATEGORIES, format });
      const found = await parseListingFile(fixture(file), { categories: CATEGORIES });
      expect(found.rows).toEqual(told.rows);
    },
  );
});

describe("encodings", () => {
  const text = 'ID,Internal,AnimalName,Type\n"1","1","Zoë Ångström","Cat"';
  const name = async (bytes: Uint8Array) => recordValue((await readListingFile(bytes)).records[0]!, "AnimalName");

  it("reads UTF-8, UTF-8 with a byte order mark, and Windows-1252 with their accents", async () => {
    expect(await name(Buffer.from(text, "utf8"))).toBe("Zoë Ångström");
    expect(await name(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]))).toBe("Zoë Ångström");
    expect(await name(iconv.encode(text, "windows-1252"))).toBe("Zoë Ångström");
    expect((await readListingFile(iconv.encode(text, "windows-1252"))).encoding).toBe("windows-1252");
  });

  it("keeps Windows-1252's curly quotes and dashes, which Latin-1 would lose", async () => {
    const curly = 'ID,Internal,AnimalName,Type\n"1","1","“Lucky” – 2nd chance","Dog"';
    expect(await name(iconv.encode(curly, "windows-1252"))).toBe("“Lucky” – 2nd chance");
  });
});

describe("line numbers", () => {
  it("names the physical line a record starts on, past quoted line breaks (LF, CRLF or CR) and blank lines", async () => {
    const header = "ID,Internal,AnimalName,Type";
    for (const eol of ["\n", "\r\n", "\r"]) {
      const text = [
        header,
        '"1","1","One","Dog"',
        '"2","2","Two, with a", "Cat"',
        "",
        `"3","3","Three${eol}lines${eol}long","Dog"`,
        '"4","4","Four","Dog"',
      ].join(eol);
      const file = await readListingFile(Buffer.from(text.replace('"Two, with a", "Cat"', '"Two, with a","Cat"')));
      expect(file.records.map((r) => r.line)).toEqual([2, 3, 5, 8]);
      expect(recordValue(file.records[2]!, "AnimalName")).toBe(`Three${eol}lines${eol}long`);
    }
  });

  it("reports a row with too few or too many values on its own line, and the others still read", async () => {
    const text = ["ID,Internal,AnimalName,Type", '"1","1","One","Dog"', '"2","2","Two, unquoted",Cat,extra', '"3","3","Three","Cat"'].join("\n");
    const { rows } = await parseListingFile(Buffer.from(text), { categories: CATEGORIES });
    expect(rows[1]!.errors).toEqual([
      { line: 3, field: null, message: "has 5 values where the file's rows have 4: a value is missing, or a comma in it is not quoted" },
    ]);
    expect(rows[0]!.errors).toEqual([]);
    expect(rows[2]!.fields.name).toBe("Three");
  });
});

describe("detection", () => {
  const error = async (bytes: Uint8Array, options: { format?: ListingFormatName } = {}) => {
    const caught = await readListingFile(bytes, options).then(
      () => null,
      (err: unknown) => err,
    );
    expect(caught).toBeInstanceOf(ListingFileError);
    return caught as ListingFileError;
  };

  it("tells each site's header row apart, whatever its case and spacing", async () => {
    expect((await readListingFile(Buffer.from("id,INTERNAL,Animal Name\n1,2,3"))).format).toBe("petfinder");
    expect((await readListingFile(Buffer.from("orgID, animalID, status\n1,2,3"))).format).toBe("rescuegroups");
    expect((await readListingFile(Buffer.from("Id,Animal,Breed\n1,2,3"))).format).toBe("adoptapet");
  });

  it("reads Adopt-a-Pet's headerless file by its column count: 21, 22 (Color), and ASM3's 25 and 33", async () => {
    const base = ["A1", "Cat", "Siamese", "", "1", "Adult", "Mia", "S", "F"];
    const rest = ["Shy.", "Available", "", "", "", "1", "1", "", "", "", "Short", ""];
    const files: [string[], number, Partial<Record<string, string>>][] = [
      [[...base, ...rest], 21, {}],
      [[...base, "Black (All)", ...rest], 22, { Color: "Black (All)" }],
      [[...base, ...rest, "03/04/2020", "9", "lbs", "75"], 25, { Birthdate: "03/04/2020", AdoptionFee: "75" }],
      [[...base, "White", ...rest, "03/04/2020", "9", "lbs", "75", "", "", "", "", "1", "0", ""], 33, { IndoorOnly: "1" }],
    ];
    for (const [cells, count, expected] of files) {
      const file = await readListingFile(Buffer.from(cells.map((c) => `"${c}"`).join(",")));
      expect(file.format).toBe("adoptapet");
      expect(file.columns).toHaveLength(count);
      expect(Object.fromEntries(file.columns.map((c) => [c, recordValue(file.records[0]!, c)]))).toMatchObject({ Id: "A1", Status: "Available", ...expected });
    }
    const { rows } = await parseListingFile(Buffer.from(files[2]![0].map((c) => `"${c}"`).join(",")), { categories: CATEGORIES });
    expect(rows[0]!.fields).toMatchObject({ birthDate: "2020-03-04", adoptionFee: { amountCents: 7500, currency: "USD", waived: false } });
  });

  it.each([
    [
      "an Excel workbook",
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]),
      "not_csv",
      "The file is not a CSV file: it is a ZIP archive (an Excel .xlsx workbook is one: save it as CSV).",
    ],
    ["a PDF", Buffer.from("%PDF-1.7\n"), "not_csv", "The file is not a CSV file: it is a PDF document."],
    ["a JPEG", Buffer.from([0xff, 0xd8, 0xff, 0xe0]), "not_csv", "The file is not a CSV file: it is a JPEG image."],
    ["binary data", Buffer.from([0x41, 0x00, 0x42]), "not_csv", "The file is not a CSV file: it holds binary data (NUL bytes), not text."],
    ["UTF-16", Buffer.from([0xff, 0xfe, 0x41, 0x00]), "not_csv", "The file is UTF-16 text: save it as CSV in UTF-8 (or Windows-1252)."],
    ["an empty file", Buffer.alloc(0), "empty_file", "The file is empty."],
    ["only blank lines", Buffer.from("\n\r\n,,,\n"), "empty_file", "The file has no rows (only empty lines)."],
    [
      "an unclosed quote",
      Buffer.from('ID,Internal,AnimalName\n"1","2","Rex\nand the file ends'),
      "not_csv",
      "The file is not valid CSV: the record starting on line 2: a quoted value is never closed.",
    ],
  ])("refuses %s, saying what it is", async (_what, bytes, code, message) => {
    const err = await error(bytes);
    expect(err.code).toBe(code);
    expect(err.message).toBe(message);
  });

  it("refuses a CSV of unknown columns, naming what it saw and what it expected", async () => {
    const err = await error(Buffer.from("Name;Species;Breed\nRex;Dog;Beagle\n"));
    expect(err.code).toBe("unknown_format");
    expect(err.message).toBe(
      "The file's format could not be told: its first line has 1 value, starting \"Name;Species;Breed\" (its values are separated by semicolons: save it with commas). Expected Petfinder's header row (ID, Internal, AnimalName, …), or RescueGroups' header row (orgID, animalID, status, …), or Adopt-a-Pet's columns (Id, Animal, Breed, …; with or without the header row, 21 or 22 of them); for any other CSV with a header row, choose the generic format and map its columns.",
    );
    const prose = await error(Buffer.from("Dear shelter, here are our animals.\n"));
    expect(prose.message).toContain('its first line has 2 values, starting "Dear shelter", "here are our animals."');
  });

  it("refuses a file that is not in the format named", async () => {
    const err = await error(fixture("petfinder.csv"), { format: "rescuegroups" });
    expect(err.code).toBe("format_mismatch");
    expect(err.message).toMatch(
      /^The file is not in the rescuegroups format: its first line has 39 values, starting "ID", "Internal", "AnimalName", "PrimaryBreed", …\. Expected RescueGroups' header row/,
    );
    expect((await error(fixture("adoptapet-windows-1252.csv"), { format: "petfinder" })).code).toBe("format_mismatch");
  });

  it("refuses a generic file without a mapping, or with one naming columns it does not have", async () => {
    const noMapping = await parseListingFile(fixture("generic.csv"), { categories: CATEGORIES, format: "generic" }).catch((err: unknown) => err);
    expect(noMapping).toMatchObject({ code: "invalid_mapping" });
    const wrong = await parseListingFile(fixture("generic.csv"), { categories: CATEGORIES, mapping: { ...MAPPING, breed: "Race" } }).catch(
      (err: unknown) => err,
    );
    expect(wrong).toMatchObject({
      code: "invalid_mapping",
      message: expect.stringMatching(/^The mapping names columns the file does not have: "Race" \(breed\)\. Its columns are: "Animal ID", "Name"/),
    });
  });
});

describe("limits", () => {
  it("refuses more than 10 MB before reading it", async () => {
    const err = await readListingFile(Buffer.alloc(MAX_FILE_BYTES + 1, 0x41)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "too_large", overLimit: true, message: "The file is 10.0 MB; at most 10 MB can be imported at once." });
  });

  it("takes 20,000 animals and refuses 20,001", async () => {
    const file = (rows: number) => Buffer.from(["ID,Internal,AnimalName,Type", ...Array.from({ length: rows }, (_, i) => `${i},${i},Pet ${i},Dog`)].join("\n"));
    expect((await readListingFile(file(MAX_FILE_ROWS))).records).toHaveLength(MAX_FILE_ROWS);
    const err = await readListingFile(file(MAX_FILE_ROWS + 1)).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "too_many_rows",
      overLimit: true,
      message: "The file has more than 20,000 animals; import it in parts of at most that many rows.",
    });
  });

  it("counts a headerless Adopt-a-Pet file's first row as an animal", async () => {
    const line = '"A","Dog","Beagle","","1","Adult","Rex","M","M","","Available","","","","","","","","","",""';
    const err = await readListingFile(Buffer.from(Array.from({ length: MAX_FILE_ROWS + 1 }, () => line).join("\n"))).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "too_many_rows" });
  });
});

describe("what one row and one value may hold", () => {
  const refusal = async (bytes: Uint8Array, options: { format?: ListingFormatName } = {}) => {
    const caught = await readListingFile(bytes, options).catch((err: unknown) => err);
    expect(caught).toBeInstanceOf(ListingFileError);
    const head = await inspectListingFile(bytes, options).catch((err: unknown) => err);
    expect(head).toEqual(caught);
    return caught as ListingFileError;
  };

  it("refuses a header of thousands of names with a few rows, before building anything per column (400, not a limit of size)", async () => {
    const header = Array.from({ length: 5_000 }, (_, i) => `c${i}`).join(",");
    const text = [header, ...Array.from({ length: 200 }, () => "x")].join("\n");
    for (const format of ["generic", undefined] as const) {
      const err = await refusal(Buffer.from(text), { format });
      expect(err).toMatchObject({ code: "too_many_columns", line: 1, overLimit: false });
      expect(err.message).toBe(
        `The record starting on line 1 has more than ${MAX_FILE_COLUMNS} values; a listing file has at most ${MAX_FILE_COLUMNS} columns (Petfinder's, the widest of the sites', has 39).`,
      );
    }
    // A Petfinder header with extra names is refused the same way.
    const petfinder = `${PETFINDER_HEADER},${Array.from({ length: MAX_FILE_COLUMNS }, (_, i) => `extra${i}`).join(",")}\n"1","1","Rex","Dog"\n`;
    expect((await refusal(Buffer.from(petfinder))).code).toBe("too_many_columns");
  });

  it("refuses a data row of too many values, on its line, and counts quoted commas as text", async () => {
    const row = Array.from({ length: MAX_FILE_COLUMNS + 1 }, () => "").join(",");
    const err = await refusal(Buffer.from(`Name,Kind\nRex,Dog\n"Two\nlines",Cat\n${row}x\n`), { format: "generic" });
    expect(err).toMatchObject({ code: "too_many_columns", line: 5 });
    // As many commas inside a quoted value are one value.
    const quoted = `Name,Kind\n"${",".repeat(MAX_FILE_COLUMNS * 2)}",Dog\n`;
    const file = await readListingFile(Buffer.from(quoted), { format: "generic" });
    expect(file.records[0]!.cells).toEqual([",".repeat(MAX_FILE_COLUMNS * 2), "Dog"]);
    // Exactly the most allowed: read.
    const widest = Array.from({ length: MAX_FILE_COLUMNS }, (_, i) => `c${i}`).join(",");
    expect((await readListingFile(Buffer.from(`${widest}\n${widest}\n`), { format: "generic" })).columns).toHaveLength(MAX_FILE_COLUMNS);
  });

  it("refuses a value longer than 64 KB, saying where (a quote left open makes the rest of the file one value)", async () => {
    const long = "x".repeat(MAX_CELL_BYTES + 1);
    const err = await refusal(Buffer.from(`${PETFINDER_HEADER}\n"1","1","Rex","Dog"\n"2","2","${long}","Cat"\n`));
    expect(err).toMatchObject({ code: "cell_too_long", line: 3 });
    expect(err.message).toBe(
      "Value 3 of the record starting on line 3 is longer than 64 KB, the most one value may hold (a quote left open makes the rest of the file one value).",
    );
    expect((await refusal(Buffer.from(`${PETFINDER_HEADER}\n1,1,${long},Dog\n`))).code).toBe("cell_too_long");
    const open = await refusal(Buffer.from(`${PETFINDER_HEADER}\n"1","1","Rex,Dog\n${"1,1,Rex,Dog\n".repeat(6_000)}`));
    expect(open).toMatchObject({ code: "cell_too_long", line: 2 });
    // 64 KB exactly is a value.
    const file = await readListingFile(Buffer.from(`${PETFINDER_HEADER}\n"1","1","${"y".repeat(MAX_CELL_BYTES)}","Dog"\n`));
    expect(recordValue(file.records[0]!, "AnimalName")).toHaveLength(MAX_CELL_BYTES);
  });

  it("tells the format, the columns and the number of rows from the head alone, as reading every row does", async () => {
    const samples: [Uint8Array, ListingFormatName?][] = [
      [fixture("petfinder.csv")],
      [fixture("rescuegroups-bom.csv")],
      [fixture("adoptapet-22-header.csv")],
      [fixture("adoptapet-windows-1252.csv")],
      [fixture("generic.csv"), "generic"],
      // Blank lines, lines of commas and of quoted empty values are no rows; quoted line breaks are no new rows.
      [Buffer.from(`${PETFINDER_HEADER}\r\n\r\n,,,\n"","",""\n"1","1","Two\r\nlines","Dog"\r"2","2",""" quoted""","Cat"\n"",""  \n`)],
    ];
    for (const [bytes, format] of samples) {
      const whole = await readListingFile(bytes, { format });
      const head = await inspectListingFile(bytes, { format });
      expect(head).toEqual({ format: whole.format, encoding: whole.encoding, columns: whole.columns, hasHeader: whole.hasHeader, rows: whole.records.length });
    }
    const err = await inspectListingFile(Buffer.from(`${PETFINDER_HEADER}\n${"1,1,Rex,Dog\n".repeat(MAX_FILE_ROWS + 1)}`)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "too_many_rows", overLimit: true });
  });
});

describe("files as ASM3 writes them today", () => {
  it("RescueGroups: an animal without photos has its four empty picture cells as one value (29 values where the header has 32): read as no pictures", async () => {
    // ASM3's FTPPublisher.csvLine quotes each item of a line whole, and the publisher gives the four empty pictures as one item.
    const { file, rows } = await parseListingFile(fixture("rescuegroups-asm3.csv"), { categories: CATEGORIES });
    expect(file.format).toBe("rescuegroups");
    expect(file.records.map((r) => r.cellCount)).toEqual([32, 29, 29]);
    expect(rows.map((r) => [r.externalId, r.fields.name, r.errors, r.photoUrls])).toEqual([
      ["A-41", "Biscuit", [], []],
      ["A-42", "Pepper", [], []],
      ["A-43", "Clover", [], []],
    ]);
    expect(rows[0]!.warnings.map((w) => w.field)).toEqual(["pic1", "pic2"]);
    expect(rows[1]!.warnings).toEqual([]);
    expect(rows[1]!.fields).toMatchObject({ categoryId: 2, description: "No photo yet, but very sweet.", colors: ["Black"] });
  });

  it("only that shape: a row short of three other values, or whose last value is anything else, is still refused", async () => {
    const text = fixture("rescuegroups-asm3.csv").toString("utf8").split("\n");
    const other = text[2]!.replace(/,""","""","""","""$/, ',"x"');
    const short = text[2]!.replace(/"Black","","","",/, '"Black",');
    const { rows } = await parseListingFile(Buffer.from([text[0], other, short].join("\n")), { categories: CATEGORIES });
    expect(rows.map((r) => r.errors.map((e) => e.message))).toEqual([
      ["has 29 values where the file's rows have 32: a value is missing, or a comma in it is not quoted"],
      ["has 26 values where the file's rows have 32: a value is missing, or a comma in it is not quoted"],
    ]);
  });
});
