import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { expectApiError, newKey, newOrganization } from "./helpers";
import { importFile, postImport } from "./imports-helpers";

// A small history file through POST /v1/imports: the value map and the
// unknown words it leaves, the mapping's own checks, and what the stays
// make of each animal (status, in_care) in the database.

let organization: number;
let key: string;

beforeAll(async () => {
  organization = await newOrganization({ name: "History Rescue" });
  await db().$executeRaw`UPDATE organizations SET time_zone = 'America/Chicago' WHERE id = ${BigInt(organization)}`;
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "history", { plan: "pro" }, organization));
});

const FILE = [
  "ID,Name,Kind,Sex,Coat,In,In type,Out,Out type",
  "H-1,Pip,DOG,Spayed,short,1/5/2021,OWNER SURRENDER,1/20/2021,ADOPTION",
  "H-1,Pip,DOG,Spayed,short,3/1/2021,RETURN,,",
  "H-2,,CAT,Male,fuzzy,2021-02-01,STRAY,2021-02-03T10:00:00-06:00,EUTHANASIA",
  "H-3,Moss,LIZARD,Female,,2/1/2021,STRAY,2/2/2021,RTO",
  "",
].join("\r\n");

const COLUMNS = {
  externalId: "ID",
  name: "Name",
  species: "Kind",
  sex: "Sex",
  coatLength: "Coat",
  intakeDate: "In",
  intakeType: "In type",
  outcomeDate: "Out",
  outcomeType: "Out type",
};

describe("a history file with a value map", () => {
  it("words neither ours nor mapped refuse their rows and are listed with their counts; the map completed, the file imports", async () => {
    const dry = await importFile({ key }, FILE, { mapping: JSON.stringify(COLUMNS), dryRun: "true" });
    expect(dry.unknownWords).toEqual({
      sex: [{ word: "Spayed", count: 2 }],
      intakeType: [
        { word: "OWNER SURRENDER", count: 1 },
        { word: "RETURN", count: 1 },
      ],
      coatLength: [{ word: "fuzzy", count: 1 }],
      outcomeType: [
        { word: "EUTHANASIA", count: 1 },
        { word: "RTO", count: 1 },
      ],
      species: [{ word: "LIZARD", count: 1 }],
    });
    expect(dry.counts).toMatchObject({ rows: 4, created: 0, rejected: 4 });

    const mapping = {
      ...COLUMNS,
      values: {
        species: { lizard: "Reptiles" },
        sex: { spayed: "female" },
        coatLength: { FUZZY: "long" },
        intakeType: { "owner  surrender": "relinquishedByOwner", RETURN: "relinquishedByOwner" },
        outcomeType: { EUTHANASIA: "shelterEuthanasia", RTO: "returnedToOwner" },
      },
    };
    const real = await importFile({ key }, FILE, { mapping: JSON.stringify(mapping) });
    expect(real.unknownWords).toEqual({});
    expect(real.counts).toMatchObject({ rows: 4, created: 4, rejected: 0 });
    expect(real.report).toEqual([{ line: 4, field: "Name", message: 'is empty: the animal is named by its ID "H-2"', result: "importedWithWarning" }]);

    const pets = await db().$queryRaw<{ external_id: string; name: string; status: string; in_care: boolean; sex: string; stays: string }[]>`
      SELECT p.external_id, p.name, p.status::text, p.in_care, p.sex::text,
             string_agg(s.intake_on || ' ' || s.intake_type || ' ' || COALESCE(s.outcome_on::text || ' ' || s.outcome_type, 'open'), '; ' ORDER BY s.intake_at) AS stays
        FROM pets p JOIN pet_stays s ON s.pet_id = p.id WHERE p.organization_id = ${BigInt(organization)} GROUP BY p.id ORDER BY p.external_id`;
    expect(pets).toEqual([
      // Adopted, returned: a new open stay, available and in care.
      {
        external_id: "H-1",
        name: "Pip",
        status: "available",
        in_care: true,
        sex: "female",
        stays: "2021-01-05 relinquishedByOwner 2021-01-20 adoption; 2021-03-01 relinquishedByOwner open",
      },
      // An RFC 3339 time is that instant, its day the shelter's; euthanised: out of care.
      { external_id: "H-2", name: "H-2", status: "available", in_care: false, sex: "male", stays: "2021-02-01 stray 2021-02-03 shelterEuthanasia" },
      { external_id: "H-3", name: "Moss", status: "available", in_care: false, sex: "female", stays: "2021-02-01 stray 2021-02-02 returnedToOwner" },
    ]);
    const [euthanised] = await db().$queryRaw<
      { outcome_at: Date }[]
    >`SELECT s.outcome_at FROM pet_stays s JOIN pets p ON p.id = s.pet_id WHERE p.external_id = 'H-2' AND p.organization_id = ${BigInt(organization)}`;
    expect(euthanised!.outcome_at.toISOString()).toBe("2021-02-03T16:00:00.000Z");

    const again = await importFile({ key }, FILE, { mapping: JSON.stringify(mapping) });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 4, rejected: 0 });
  });

  it("the mapping's own mistakes are 400s naming them", async () => {
    const badTarget = await postImport({ key }, FILE, { mapping: JSON.stringify({ ...COLUMNS, values: { intakeType: { STRAY: "wandering" } } }) });
    const body = await expectApiError(badTarget, 400, "invalid_body");
    expect(body.details).toContainEqual({
      field: "mapping.values.intakeType.STRAY",
      issue: expect.stringContaining('maps to "wandering", which is not one of stray'),
    });
    const noCategory = await postImport({ key }, FILE, { mapping: JSON.stringify({ ...COLUMNS, values: { species: { LIZARD: "Dragons" } } }) });
    expect((await expectApiError(noCategory, 400, "invalid_mapping")).message).toContain('values.species maps to "Dragons", which no category is');
    const noIntake = await postImport({ key }, FILE, { mapping: JSON.stringify({ ...COLUMNS, intakeDate: undefined }) });
    expect((await expectApiError(noIntake, 400, "invalid_body")).details).toContainEqual({
      field: "mapping.intakeDate",
      issue: expect.stringContaining("is required with the stay columns"),
    });
  });
});
