import { beforeAll, describe, expect, it } from "vitest";
import { PATCH } from "@/app/v1/pets/[petId]/route";
import { POST } from "@/app/v1/pets/route";
import { writeListingFile } from "@/lib/listings/formats/registry";
import type { ListingAnimal } from "@/lib/listings/formats/types";
import { newPetSchema, petPatchSchema } from "@/lib/pets/schemas/pet";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { call, expectApiError, expectJson, newKey, newOrganization, seedPets } from "./helpers";
import { importFile } from "./imports-helpers";

// Issue 40: the listing sites' files and the pull feed are CSV, which shelters
// open in a spreadsheet; a value starting with =, +, - or @ runs there as a
// formula (=HYPERLINK(…) as a name, a link to anywhere). Nobody types one as a
// name, a breed, a colour or a tag: the pet schemas refuse them, so the API
// (create and change), the staff form (which validates with the same schema)
// and imports all refuse them, and the files stay byte for byte what was stored.

const MESSAGE = "must not start with =, +, - or @ (a spreadsheet opening a listing file would run it as a formula)";
const FORMULAS = ['=HYPERLINK("https://evil.example","Click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "＝1+1", " =1+1"];

let key: string;
beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "formulas"));
});

describe("values a spreadsheet would run", () => {
  it.each(FORMULAS)("POST /v1/pets refuses %j as a name, a breed, a second breed, a colour and a tag, saying which and why", async (formula) => {
    for (const [field, value] of [
      ["name", formula],
      ["breed", formula],
      ["secondaryBreed", formula],
      ["colors", [formula]],
      ["tags", ["Playful", formula]],
    ] as const) {
      const error = await expectApiError(
        await call(POST, "/v1/pets", { method: "POST", key, json: { name: "Rex", categoryId: 1, [field]: value } }),
        400,
        "invalid_body",
      );
      // (A long formula is a long colour or tag too: the formula rule is among the issues.)
      expect(error.details).toContainEqual({
        field: Array.isArray(value) ? `${field}.${value.length - 1}` : field,
        issue: Array.isArray(value) ? `each ${field === "colors" ? "colour" : "tag"} ${MESSAGE}` : MESSAGE,
      });
    }
  });

  it("PATCH refuses them too, and the staff form's schema (the add and edit forms validate with these)", async () => {
    const [pet] = await seedPets([{ name: "Plain" }]);
    const error = await expectApiError(
      await call(PATCH, `/v1/pets/${pet!.id}`, {
        method: "PATCH",
        key,
        json: { name: "=1+1" },
        params: { petId: String(pet!.id) },
        headers: { "content-type": "application/merge-patch+json" },
      }),
      400,
      "invalid_body",
    );
    expect(error.details).toEqual([{ field: "name", issue: MESSAGE }]);
    expect(newPetSchema.safeParse({ name: "@Home", categoryId: 1 }).error?.issues.map((i) => i.message)).toEqual([MESSAGE]);
    expect(petPatchSchema.safeParse({ tags: ["+1"] }).success).toBe(false);
  });

  it("what people do type still goes: a lone dash, a dash or sign inside, a description starting with one", async () => {
    for (const json of [
      { name: "-", categoryId: 1 },
      { name: "Zoë-Lou", categoryId: 1, breed: "Mix (-ish)", tags: ["A+ student", "loves @ the park"] },
      { name: "Rex", categoryId: 1, description: "- loves walks\n- good with cats", specialNeedsNotes: "=1 pill a day" },
    ]) {
      await expectJson(await call(POST, "/v1/pets", { method: "POST", key, json }), 201);
    }
  });

  it("an import rejects such a row with its line, and imports the others", async () => {
    const org = await newOrganization({ name: "Formula Shelter" });
    const { key: orgKey } = await newKey(["pets:read", "pets:write"], "formula import", { plan: "pro" }, org);
    const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    const rows: Record<string, string>[] = [
      { ID: "F-1", AnimalName: '=HYPERLINK("https://evil.example","Adopt me")', Type: "Dog" },
      { ID: "F-2", AnimalName: "Honest", Type: "Dog", PrimaryBreed: "@SUM(A1)" },
      { ID: "F-3", AnimalName: "Fine", Type: "Cat", tags: "calm, +cuddly" },
      { ID: "F-4", AnimalName: "Plain", Type: "Cat" },
    ];
    const file = [PETFINDER_COLUMNS.join(","), ...rows.map((row) => PETFINDER_COLUMNS.map((c) => quote(row[c] ?? "")).join(","))].join("\n");
    const report = await importFile({ key: orgKey }, file);
    expect(report.counts).toMatchObject({ created: 1, rejected: 3 });
    expect(report.errors).toEqual([
      { line: 2, field: "name", message: MESSAGE },
      { line: 3, field: "breed", message: MESSAGE },
      { line: 4, field: "tags.1", message: `each tag ${MESSAGE}` },
    ]);
  });

  it("the sites' files carry what is stored byte for byte: nothing is escaped or prefixed on the way out", () => {
    const animal: ListingAnimal = {
      id: 7,
      externalId: "A-7",
      name: "=1+1",
      categoryId: 1,
      categoryName: "Dogs",
      status: "available",
      sex: "male",
      size: "medium",
      birthDate: null,
      breed: null,
      secondaryBreed: null,
      mixedBreed: null,
      description: null,
      goodWith: { children: null, dogs: null, cats: null },
      colors: [],
      coatLength: null,
      spayedNeutered: null,
      houseTrained: null,
      declawed: null,
      shotsCurrent: null,
      specialNeeds: null,
      specialNeedsNotes: null,
      adoptionFee: null,
      intakeDate: null,
      videoUrl: null,
      tags: [],
      ageGroup: null,
      photos: [],
      listOnOtherSites: true,
      updatedAt: null,
    };
    // A name stored before the rule (or by an operator) is written as it is: the files are the sites' to read, exactly.
    expect(writeListingFile("petfinder", [animal]).text.split("\n")[1]).toMatch(/^"A-7","7","=1\+1",/);
  });
});
