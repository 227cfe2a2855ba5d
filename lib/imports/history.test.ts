import { describe, expect, it } from "vitest";
import { planAnimal, planAnimalInSteps, type RecordedStay } from "@/lib/imports/history";
import type { ImportedRow, RowStay } from "@/lib/listings/formats/types";
import type { Pet } from "@/lib/pets/schemas/pet";

// One animal's rows of a history file, planned without the database: the
// stays kept and refused (both dates named), the profile from the latest
// row, status and in_care from the last stay, and a second import of the
// same rows that changes nothing.

const COLUMNS = { intakeDate: "In", intakeType: "InType", outcomeDate: "Out", outcomeType: "OutType" };
const ZONE = "America/Los_Angeles";
const NOW = new Date("2024-01-01T00:00:00Z");

function row(line: number, stay: Partial<RowStay>, name = `Tom ${line}`): ImportedRow {
  return {
    line,
    externalId: "A1",
    species: "CAT",
    fields: { name, categoryId: 2 },
    ageGroup: null,
    photoUrls: [],
    photosLeftOut: 0,
    statusAction: null,
    errors: [],
    warnings: [],
    stay: { intakeDate: null, intakeType: "stray", intakeSubtype: null, outcomeDate: null, outcomeType: null, outcomeSubtype: null, ...stay },
  };
}

const refusals = (plan: ReturnType<typeof planAnimal>) => plan.rows.filter((p) => p.action === "reject").map((p) => [p.row.line, p.issues[0]!.message]);

describe("one animal's stays", () => {
  it("kept in order of intake, whatever the file's order; the profile from the latest; adopted last: sold and in care", () => {
    const plan = planAnimal(
      [
        row(3, { intakeDate: "5/1/2021", outcomeDate: "5/9/2021", outcomeType: "adoption" }, "Tom later"),
        row(2, { intakeDate: "1/1/2021", outcomeDate: "1/20/2021", outcomeType: "adoption" }, "Tom"),
      ],
      undefined,
      COLUMNS,
      ZONE,
      NOW,
    );
    expect(refusals(plan)).toEqual([]);
    expect(plan.insert.map((s) => s.intakeAt.toISOString())).toEqual(["2021-01-01T08:00:00.000Z", "2021-05-01T07:00:00.000Z"]);
    expect(plan.profile?.create).toMatchObject({ name: "Tom later", status: "sold", externalId: "A1" });
    expect(plan.inCare).toBeNull();
  });

  it("a stay overlapping the one before is refused, both dates named; a re-intake on the day of the last outcome is not an overlap", () => {
    const plan = planAnimal(
      [
        row(2, { intakeDate: "4/30/2020", outcomeDate: "6/13/2020", outcomeType: "transferredOut" }),
        row(3, { intakeDate: "6/2/2020", outcomeDate: "6/13/2020", outcomeType: "transferredOut" }),
        row(4, { intakeDate: "6/13/2020", outcomeDate: "7/1/2020", outcomeType: "shelterEuthanasia" }),
      ],
      undefined,
      COLUMNS,
      ZONE,
      NOW,
    );
    expect(refusals(plan)).toEqual([
      [3, "its stay (2020-06-02 to 2020-06-13) overlaps the stay from 2020-04-30 to 2020-06-13 on line 2: an animal is in one stay at a time"],
    ]);
    expect(plan.insert).toHaveLength(2);
    // Its last stay ended otherwise than by adoption: out of care, available.
    expect(plan.inCare).toBe(false);
    expect(plan.profile?.create?.status).toBe("available");
  });

  it("an open stay must be the last; an outcome needs a type and a date; nothing in the future or before its intake", () => {
    const plan = planAnimal(
      [
        row(2, { intakeDate: "1/1/2021" }),
        row(3, { intakeDate: "3/1/2021", outcomeDate: "3/5/2021", outcomeType: "returnedToOwner" }),
        row(4, { intakeDate: "4/1/2021", outcomeDate: "4/2/2021" }),
        row(5, { intakeDate: "5/1/2021", outcomeType: "adoption" }),
        row(6, { intakeDate: "6/1/2021", outcomeDate: "5/1/2021", outcomeType: "adoption" }),
        row(7, { intakeDate: "6/1/2030" }),
        row(8, { intakeDate: "someday" }),
        row(9, { intakeDate: "7/1/2021" }),
      ],
      undefined,
      COLUMNS,
      ZONE,
      NOW,
    );
    expect(refusals(plan)).toEqual([
      [
        2,
        "its stay (2021-01-01 to now (no outcome)) has no outcome, but the animal has a later stay from 2021-03-01 to 2021-03-05 on line 3: only the last stay may be open",
      ],
      [4, "is empty, but the row has an outcome date: an outcome has a type"],
      [5, "is empty, but the row has the outcome adoption: an outcome has a date"],
      [6, "is before the intake (2021-06-01 to 2021-05-01): an animal leaves after it came in"],
      [7, "is in the future: a stay is recorded once it has begun"],
      [8, "is not a date (M/D/YYYY, YYYY-MM-DD or an RFC 3339 time such as 2021-06-01T14:30:00-07:00)"],
    ]);
    // The open stay last: available, in care.
    expect(plan.profile?.row.line).toBe(9);
    expect(plan.profile?.create?.status).toBe("available");
    expect(plan.inCare).toBeNull();
  });
});

describe("an animal already here", () => {
  const pet = { id: 7, status: "sold", name: "Tom 3", categoryId: 2 } as unknown as Pet;
  const rows = () => [
    row(2, { intakeDate: "1/1/2021", outcomeDate: "1/20/2021", outcomeType: "adoption" }),
    row(3, { intakeDate: "5/1/2021", outcomeDate: "5/9/2021", outcomeType: "adoption" }),
  ];
  const first = planAnimal(rows(), undefined, COLUMNS, ZONE, NOW);
  const recorded: RecordedStay[] = first.insert.map((stay, i) => ({ ...stay, id: 100 + i }));

  it("the same rows again change nothing", () => {
    const again = planAnimal(rows(), { pet, inCare: true, stays: recorded }, COLUMNS, ZONE, NOW);
    expect(again.rows.map((p) => p.action)).toEqual(["unchanged", "unchanged"]);
    expect([again.insert, again.update, again.inCare]).toEqual([[], [], null]);
  });

  it("a changed row changes only its stay", () => {
    const changed = rows();
    changed[0]!.stay!.outcomeType = "returnedToOwner";
    const plan = planAnimal(changed, { pet, inCare: true, stays: recorded }, COLUMNS, ZONE, NOW);
    expect(plan.rows.map((p) => p.action)).toEqual(["update", "unchanged"]);
    expect(plan.update).toEqual([{ id: 100, stay: expect.objectContaining({ outcomeType: "returnedToOwner" }) }]);
    expect(plan.insert).toEqual([]);
    expect(plan.profile?.patch).toBeUndefined();
  });

  it("a stay of the file overlapping one recorded here (not in the file) is refused; the recorded stay's dates only in the message for readers of the records", () => {
    const here: RecordedStay = {
      id: 200,
      intakeAt: new Date("2021-06-01T07:00:00Z"),
      intakeType: "stray",
      intakeSubtype: null,
      outcomeAt: null,
      outcomeType: null,
      outcomeSubtype: null,
    };
    const plan = planAnimal(
      [...rows(), row(4, { intakeDate: "7/1/2021", outcomeDate: "7/3/2021", outcomeType: "adoption" })],
      { pet, inCare: true, stays: [...recorded, here] },
      COLUMNS,
      ZONE,
      NOW,
    );
    expect(refusals(plan)).toEqual([
      [4, "its stay (2021-07-01 to 2021-07-03) overlaps a stay of the animal recorded here: an animal is in one stay at a time"],
    ]);
    expect(plan.rows.find((p) => p.action === "reject")!.issues[0]).toMatchObject({
      withRecords:
        "its stay (2021-07-01 to 2021-07-03) overlaps the animal's stay from 2021-06-01 to now (no outcome), recorded here: an animal is in one stay at a time",
    });
    // Its last stay is the open one recorded here: available again.
    expect(plan.profile?.patch).toMatchObject({ status: "available" });
  });
});

describe("a big unit (issue 48)", () => {
  const day = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => row(i + 2, { intakeDate: day(2 * i), outcomeDate: day(2 * i + 1), outcomeType: "returnedToOwner" }));

  it("is read a step at a time with a pause between (and one before its plan), and plans as the whole does", async () => {
    let pauses = 0;
    const stepped = await planAnimalInSteps(many(250), undefined, COLUMNS, ZONE, NOW, 100, async () => void pauses++);
    expect(pauses).toBe(3);
    expect(stepped).toEqual(planAnimal(many(250), undefined, COLUMNS, ZONE, NOW));
    expect(stepped.insert).toHaveLength(250);
  });

  it("a unit no bigger than a step is planned without a pause", async () => {
    let pauses = 0;
    await planAnimalInSteps(many(100), undefined, COLUMNS, ZONE, NOW, 100, async () => void pauses++);
    expect(pauses).toBe(0);
  });

  it("against as many recorded stays: each file row meets the recorded stays in one walk, the overlapping one named", () => {
    const recorded: RecordedStay[] = planAnimal(many(400), undefined, COLUMNS, ZONE, NOW).insert.map((stay, i) => ({ ...stay, id: i + 1 }));
    // The file moves every intake by half a day: no recorded stay is the file's, each row overlaps the recorded one of its days.
    const shifted = many(400).map((r) => ({ ...r, stay: { ...r.stay!, intakeDate: `${r.stay!.intakeDate}T12:00:00Z` } }));
    const plan = planAnimal(shifted, { pet: { id: 9, status: "available" } as unknown as Pet, inCare: false, stays: recorded }, COLUMNS, ZONE, NOW);
    expect(plan.rows.every((p) => p.action === "reject")).toBe(true);
    expect(plan.rows[399]!.issues[0]).toMatchObject({ withRecords: expect.stringContaining(`overlaps the animal's stay from ${day(798)}`) });
  });
});
