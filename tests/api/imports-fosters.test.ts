import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { organizationReport } from "@/lib/reports/service";
import { expectApiError, newKey, newOrganization } from "./helpers";
import { importFile, postImport } from "./imports-helpers";

// A history import's value map and foster homes (issue 50, docs/decisions/028):
// an outcome word sent to `foster` is no outcome (the stay goes on; a placement
// with an unnamed foster begins at the row's outcome time), an intake word sent
// to `returnFromFoster` ends that placement (the row's outcome is the stay's),
// or is another intake with a warning when there is none to end.

let organization: number;
let key: string;

beforeAll(async () => {
  organization = await newOrganization({ name: "Foster History Rescue" });
  await db().$executeRaw`UPDATE organizations SET time_zone = 'America/Chicago' WHERE id = ${BigInt(organization)}`;
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "fosters", { plan: "pro" }, organization));
});

const HEADER = "ID,Name,Kind,In,In type,Out,Out type";
const MAPPING = JSON.stringify({
  externalId: "ID",
  name: "Name",
  species: "Kind",
  intakeDate: "In",
  intakeType: "In type",
  outcomeDate: "Out",
  outcomeType: "Out type",
  values: {
    intakeType: { STRAY: "stray", "FOSTER RETURN": "returnFromFoster" },
    outcomeType: { FOSTER: "foster", ADOPTION: "adoption" },
  },
});
const file = (...rows: string[]) => [HEADER, ...rows, ""].join("\r\n");

const staysOf = (externalId: string) =>
  db().$queryRaw<{ intake: string; outcome: string | null; placements: string | null }[]>`
    SELECT s.intake_on::text || ' ' || s.intake_type AS intake, s.outcome_on::text || ' ' || s.outcome_type AS outcome,
           (SELECT string_agg(pl.start_on::text || '..' || COALESCE(pl.end_on::text || ' ' || pl.end_reason, 'open') || CASE WHEN pl.person_id IS NULL THEN ' unnamed' ELSE '' END, '; ' ORDER BY pl.start_at)
              FROM pet_placements pl WHERE pl.stay_id = s.id) AS placements
      FROM pet_stays s JOIN pets p ON p.id = s.pet_id
     WHERE p.organization_id = ${BigInt(organization)} AND p.external_id = ${externalId} ORDER BY s.intake_at`;

const animalState = async (externalId: string) => {
  const [row] = await db().$queryRaw<{ version: number; in_care: boolean; status: string; audits: number; events: number }[]>`
    SELECT p.version, p.in_care, p.status::text AS status,
           (SELECT count(*)::int FROM pet_audit a WHERE a.pet_id = p.id) AS audits,
           (SELECT count(*)::int FROM events e WHERE e.pet_id = p.id) AS events
      FROM pets p WHERE p.organization_id = ${BigInt(organization)} AND p.external_id = ${externalId}`;
  return row!;
};

describe("an outcome mapped to foster", () => {
  it("leaves the stay open (in care), starts an unnamed placement at the outcome's time; the same file again changes nothing", async () => {
    const text = file("F-1,Kit,CAT,3/1/2021,STRAY,3/4/2021,FOSTER");
    const real = await importFile({ key }, text, { mapping: MAPPING });
    expect(real.counts).toMatchObject({ rows: 1, created: 1, rejected: 0 });
    expect(await staysOf("F-1")).toEqual([{ intake: "2021-03-01 stray", outcome: null, placements: "2021-03-04..open unnamed" }]);
    const [placement] = await db().$queryRaw<{ start_at: Date }[]>`
      SELECT pl.start_at FROM pet_placements pl JOIN pets p ON p.id = pl.pet_id WHERE p.external_id = 'F-1' AND p.organization_id = ${BigInt(organization)}`;
    // Midnight of 4 March in Chicago.
    expect(placement!.start_at.toISOString()).toBe("2021-03-04T06:00:00.000Z");
    const before = await animalState("F-1");
    expect(before).toMatchObject({ in_care: true, status: "available" });
    const again = await importFile({ key }, text, { mapping: MAPPING });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(await animalState("F-1")).toEqual(before);
    expect(await staysOf("F-1")).toHaveLength(1);
    expect((await staysOf("F-1"))[0]!.placements).toBe("2021-03-04..open unnamed");
  });
});

describe("an intake mapped to returnFromFoster", () => {
  it("in the same file: ends the placement as returnedToShelter; its outcome is the one stay's; again: nothing changes", async () => {
    const text = file("F-2,Pod,CAT,4/1/2021,STRAY,4/3/2021,FOSTER", "F-2,Pod,CAT,5/10/2021,FOSTER RETURN,5/20/2021,ADOPTION");
    const real = await importFile({ key }, text, { mapping: MAPPING });
    expect(real.counts).toMatchObject({ rows: 2, created: 2, rejected: 0 });
    expect(real.report).toEqual([]);
    expect(await staysOf("F-2")).toEqual([
      { intake: "2021-04-01 stray", outcome: "2021-05-20 adoption", placements: "2021-04-03..2021-05-10 returnedToShelter unnamed" },
    ]);
    expect(await animalState("F-2")).toMatchObject({ status: "sold" });
    const before = await animalState("F-2");
    const again = await importFile({ key }, text, { mapping: MAPPING });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await animalState("F-2")).toEqual(before);
  });

  it("in a later file: ends the placement recorded here, in one change of the animal (one version, audit record, event); that file again changes nothing", async () => {
    await importFile({ key }, file("F-3,Moth,DOG,6/1/2021,STRAY,6/2/2021,FOSTER"), { mapping: MAPPING });
    const before = await animalState("F-3");
    const later = file("F-3,Moth,DOG,7/1/2021,FOSTER RETURN,7/9/2021,FOSTER");
    const real = await importFile({ key }, later, { mapping: MAPPING });
    expect(real.counts).toMatchObject({ rows: 1, updated: 1, rejected: 0 });
    // Back on 1 July, out again on 9 July: the stay goes on.
    expect(await staysOf("F-3")).toEqual([
      { intake: "2021-06-01 stray", outcome: null, placements: "2021-06-02..2021-07-01 returnedToShelter unnamed; 2021-07-09..open unnamed" },
    ]);
    const after = await animalState("F-3");
    expect(after).toEqual({ ...before, version: before.version + 1, audits: before.audits + 1, events: before.events + 1 });
    const again = await importFile({ key }, later, { mapping: MAPPING });
    expect(again.counts).toMatchObject({ updated: 0, unchanged: 1 });
    expect(await animalState("F-3")).toEqual(after);
    // And the first file again: it says nothing of the return, and takes nothing back.
    const first = await importFile({ key }, file("F-3,Moth,DOG,6/1/2021,STRAY,6/2/2021,FOSTER"), { mapping: MAPPING });
    expect(first.counts).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it("without an open placement: imported as another intake (otherIntake), with a warning", async () => {
    const text = file("F-4,Rue,DOG,8/1/2021,STRAY,8/5/2021,ADOPTION", "F-4,Rue,DOG,9/1/2021,FOSTER RETURN,,");
    const real = await importFile({ key }, text, { mapping: MAPPING });
    expect(real.counts).toMatchObject({ rows: 2, created: 2, rejected: 0 });
    expect(real.report).toEqual([
      {
        line: 3,
        field: null,
        message: "is a return from a foster home, but the animal was in none then (here or in the file): imported as another intake (otherIntake)",
        result: "importedWithWarning",
      },
    ]);
    expect(await staysOf("F-4")).toEqual([
      { intake: "2021-08-01 stray", outcome: "2021-08-05 adoption", placements: null },
      { intake: "2021-09-01 otherIntake", outcome: null, placements: null },
    ]);
    const again = await importFile({ key }, text, { mapping: MAPPING });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
  });
});

describe("the report and the map", () => {
  it("a trip to a foster home changes no live release rate: the same rows with FOSTER sent to a live outcome count it as one", async () => {
    const org = await newOrganization({ name: "Twin Rescue" });
    const twin = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "twin", { plan: "pro" }, org)).key;
    const own = await newOrganization({ name: "Twin Rescue B" });
    const ownKey = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "twin-b", { plan: "pro" }, own)).key;
    const rows = file("T-1,A,DOG,1/3/2022,STRAY,1/10/2022,FOSTER", "T-2,B,DOG,1/4/2022,STRAY,1/12/2022,ADOPTION", "T-3,C,DOG,1/5/2022,STRAY,1/20/2022,EUTH");
    const values = (foster: string) =>
      JSON.stringify({ ...JSON.parse(MAPPING), values: { outcomeType: { FOSTER: foster, ADOPTION: "adoption", EUTH: "shelterEuthanasia" } } });
    await importFile({ key: twin }, rows, { mapping: values("otherLiveOutcome") });
    await importFile({ key: ownKey }, rows, { mapping: values("foster") });
    const live = (await organizationReport(org, { from: "2022-01", to: "2022-02" }, new Date())).months;
    const fostered = (await organizationReport(own, { from: "2022-01", to: "2022-02" }, new Date())).months;
    expect(live[0]!.species.dog.liveReleaseRate).toBeCloseTo(2 / 3, 4);
    expect(fostered[0]!.species.dog.liveReleaseRate).toBe(0.5);
    expect(fostered[0]!.species.dog.outcomes.otherLiveOutcome.unknownAge).toBe(0);
    expect(fostered[0]!.species.dog).toMatchObject({ endingCount: 1, endingFosterCount: 1 });
    expect(fostered[1]!.species.dog).toMatchObject({ beginningCount: 1, beginningFosterCount: 1 });
  });

  it("an unknown target is a 400 naming the word and listing foster and returnFromFoster", async () => {
    const res = await postImport({ key }, file("X,Y,DOG,1/1/2021,STRAY,,"), {
      mapping: JSON.stringify({ ...JSON.parse(MAPPING), values: { outcomeType: { FOSTER: "fostered" } } }),
    });
    const body = await expectApiError(res, 400, "invalid_body");
    expect(body.details).toContainEqual({
      field: "mapping.values.outcomeType.FOSTER",
      issue: expect.stringContaining('maps to "fostered", which is not one of'),
    });
    expect(body.details!.find((d) => d.field === "mapping.values.outcomeType.FOSTER")!.issue).toContain("foster");
    const intake = await postImport({ key }, file("X,Y,DOG,1/1/2021,STRAY,,"), {
      mapping: JSON.stringify({ ...JSON.parse(MAPPING), values: { intakeType: { BACK: "returnedFromFoster" } } }),
    });
    expect((await expectApiError(intake, 400, "invalid_body")).details![0]!.issue).toContain("returnFromFoster");
  });
});
