import { beforeAll, describe, expect, it } from "vitest";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { POST as endRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { POST as openRoute } from "@/app/v1/pets/[petId]/stays/route";
import { db } from "@/lib/db";
import { STAYS_PER_ANIMAL_MAX } from "@/lib/stays/schemas";
import { call, expectApiError, expectJson, newKey, newOrganization, staffSession, type StaffSession } from "./helpers";
import { importFile, NO_DNS, postImport, readIssues, type Who } from "./imports-helpers";

// Issue 48's findings about history imports: the records scopes (writing
// stays needs records:write, the report names recorded stays' dates only to
// records:read), each existing animal changed as one change under its lock
// through the write path (planned again there), what an import's change of
// stays announces, and the cap of stays per animal.

let organization: number;
/** A shelter system's key: the animals and their records. */
let writer: string;
/** A listing partner's key: the animals, not their records. */
let petsOnly: string;
/** Writes records, but may not read them. */
let blindWriter: string;
let staff: StaffSession;

beforeAll(async () => {
  organization = await newOrganization({ name: "Records Rescue" });
  ({ key: writer } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter system", { plan: "pro" }, organization));
  ({ key: petsOnly } = await newKey(["pets:read", "pets:write"], "listing partner", { plan: "pro" }, organization));
  ({ key: blindWriter } = await newKey(["pets:write", "records:write"], "intake kiosk", { plan: "pro" }, organization));
  staff = await staffSession(undefined, { organizationId: organization });
});

const MAPPING = {
  externalId: "ID",
  name: "Name",
  species: "Kind",
  intakeDate: "In",
  intakeType: "In type",
  intakeSubtype: "In note",
  outcomeDate: "Out",
  outcomeType: "Out type",
};
const csv = (...rows: string[]) => ["ID,Name,Kind,In,In type,In note,Out,Out type", ...rows, ""].join("\r\n");
const history = (who: Who, file: string, options = NO_DNS) => importFile(who, file, { mapping: JSON.stringify(MAPPING) }, options);

const animal = (externalId: string) =>
  db().pet.findFirstOrThrow({ where: { organizationId: BigInt(organization), externalId }, select: { id: true, status: true, inCare: true, version: true } });
const staysOf = (petId: bigint) =>
  db().$queryRaw<{ id: bigint; intake_subtype: string | null; outcome_type: string | null }[]>`
    SELECT id, intake_subtype, outcome_type::text AS outcome_type FROM pet_stays WHERE pet_id = ${petId} ORDER BY intake_at`;
const auditsOf = (petId: bigint) =>
  db().petAudit.findMany({ where: { petId }, orderBy: { id: "asc" }, select: { action: true, version: true, requestId: true } });
const eventsOf = (petId: bigint) => db().event.findMany({ where: { petId }, orderBy: { position: "asc" }, select: { type: true, data: true } });

describe("the records scopes", () => {
  it("a history file (stay columns) needs records:write: 403 naming the scope before any work, its dry run too and with the remembered mapping; a file without stay columns still imports with pets:write", async () => {
    const before = await db().import.count({ where: { organizationId: BigInt(organization) } });
    for (const dryRun of ["false", "true"]) {
      const refused = await expectApiError(
        await postImport({ key: petsOnly }, csv("S-1,Sky,DOG,2021-01-05,stray,,,"), { mapping: JSON.stringify(MAPPING), dryRun }),
        403,
        "forbidden",
      );
      expect(refused.message).toContain('"records:write" scope');
    }
    expect(await db().import.count({ where: { organizationId: BigInt(organization) } })).toBe(before);

    // The organisation's remembered mapping is a history's: the same file without a mapping is refused too.
    expect((await history({ key: writer }, csv("S-1,Sky,DOG,2021-01-05,stray,,,"))).counts).toMatchObject({ created: 1 });
    await expectApiError(await postImport({ key: petsOnly }, csv("S-2,Sun,DOG,2021-01-05,stray,,,")), 403, "forbidden");

    const plain = await importFile({ key: petsOnly }, "ID,Name,Kind\r\nS-3,Sol,DOG\r\n", {
      mapping: JSON.stringify({ externalId: "ID", name: "Name", species: "Kind" }),
    });
    expect(plain.counts).toMatchObject({ created: 1, rejected: 0 });
  });

  it("the report names a recorded stay's dates only to a reader with records:read; others learn that it conflicts", async () => {
    await history({ key: writer }, csv("D-1,Dot,DOG,2021-06-01,stray,,,"));
    const refused = await history({ key: blindWriter }, csv("D-1,Dot,DOG,2021-07-01,stray,,2021-07-03,adoption"));
    expect(refused.counts).toMatchObject({ rejected: 1 });
    const withoutDates = "its stay (2021-07-01 to 2021-07-03) overlaps a stay of the animal recorded here: an animal is in one stay at a time";
    const withDates =
      "its stay (2021-07-01 to 2021-07-03) overlaps the animal's stay from 2021-06-01 to now (no outcome), recorded here: an animal is in one stay at a time";
    expect(refused.report).toEqual([{ line: 2, field: null, message: withoutDates, result: "refused" }]);
    expect((await readIssues({ key: petsOnly }, refused.id)).map((e) => e.message)).toEqual([withoutDates]);
    expect((await readIssues({ key: writer }, refused.id)).map((e) => e.message)).toEqual([withDates]);
    expect((await readIssues({ headers: staff.headers }, refused.id)).map((e) => e.message)).toEqual([withDates]);
  });
});

describe("an existing animal changes once, under its lock, through the write path", () => {
  it("a file that ends a stay with an adoption while an application is approved: the row is refused and nothing of it is recorded; cancelled, the animal is available with no adoption on record", async () => {
    await history({ key: writer }, csv("A-1,Ace,DOG,2021-03-01,stray,,,"));
    const pet = await animal("A-1");
    const applied = await call(applyRoute, `/v1/pets/${pet.id}/applications`, {
      method: "POST",
      key: (await newKey(["pets:read", "applications:write"], "adopters' site", { plan: "pro" }, organization)).key,
      params: { petId: String(pet.id) },
      json: { name: "Sam", email: "sam.records@example.org", home: "house", message: "Hello", consent: true },
    });
    const application = (await expectJson<{ id: number }>(applied, 201)).id;
    const step = (to: string) =>
      call(transitionRoute, `/v1/applications/${application}/transitions`, {
        method: "POST",
        json: { to },
        headers: staff.headers,
        params: { applicationId: String(application) },
      });
    await expectJson(await step("approved"));
    const held = { pet: await animal("A-1"), stays: await staysOf(pet.id), audits: await auditsOf(pet.id) };

    const adopted = await history({ key: writer }, csv("A-1,Ace,DOG,2021-03-01,stray,,2021-04-01,adoption"));
    expect(adopted.counts).toMatchObject({ updated: 0, rejected: 1 });
    expect(adopted.report).toEqual([
      { line: 2, field: null, message: expect.stringContaining("is approved, so its status follows that adoption"), result: "refused" },
    ]);
    expect({ pet: await animal("A-1"), stays: await staysOf(pet.id), audits: await auditsOf(pet.id) }).toEqual(held);

    await expectJson(await step("cancelled"));
    expect(await animal("A-1")).toMatchObject({ status: "available", inCare: true });
    expect((await staysOf(pet.id)).map((s) => s.outcome_type)).toEqual([null]);
  });

  it("a file that takes an animal out of care closes its open and approved applications, as an outcome recorded here does: the animal is available, out of care", async () => {
    await history({ key: writer }, csv("T-1,Tex,DOG,2021-03-01,stray,,,"));
    const pet = await animal("T-1");
    const site = (await newKey(["pets:read", "applications:write"], "adopters' site", { plan: "pro" }, organization)).key;
    const apply = async (email: string) =>
      (
        await expectJson<{ id: number }>(
          await call(applyRoute, `/v1/pets/${pet.id}/applications`, {
            method: "POST",
            key: site,
            params: { petId: String(pet.id) },
            json: { name: "Sam", email, home: "house", message: "Hello", consent: true },
          }),
          201,
        )
      ).id;
    const approved = await apply("approved.records@example.org");
    const waiting = await apply("waiting.records@example.org");
    await expectJson(
      await call(transitionRoute, `/v1/applications/${approved}/transitions`, {
        method: "POST",
        json: { to: "approved" },
        headers: staff.headers,
        params: { applicationId: String(approved) },
      }),
    );
    expect(await animal("T-1")).toMatchObject({ status: "pending", inCare: true });

    const left = await history({ key: writer }, csv("T-1,Tex,DOG,2021-03-01,stray,,2021-04-01,transferredOut"));
    expect(left.counts).toMatchObject({ updated: 1, rejected: 0 });
    expect(await animal("T-1")).toMatchObject({ status: "available", inCare: false });
    const states = await db().adoptionApplication.findMany({
      where: { id: { in: [BigInt(approved), BigInt(waiting)] } },
      orderBy: { id: "asc" },
      select: { state: true },
    });
    expect(states.map((a) => a.state)).toEqual(["cancelled", "cancelled"]);
  });

  it("staff record an outcome while the import runs (between its plan and its write): neither is lost", async () => {
    await history({ key: writer }, csv("C-1,Cleo,CAT,2021-05-01,stray,,,"));
    const pet = await animal("C-1");
    const [open] = await staysOf(pet.id);
    const staffOutcome = async () => {
      const res = await call(endRoute, `/v1/pets/${pet.id}/stays/${open!.id}/outcome`, {
        method: "POST",
        json: { type: "shelterEuthanasia", at: "2021-05-20" },
        headers: staff.headers,
        params: { petId: String(pet.id), stayId: String(open!.id) },
      });
      await expectJson(res);
    };
    // The file was exported before the outcome: it corrects the intake's note and has no outcome.
    const run = await history({ key: writer }, csv("C-1,Cleo,CAT,2021-05-01,stray,found on Elm St,,"), { ...NO_DNS, beforeWrites: staffOutcome });
    expect(run.counts).toMatchObject({ updated: 1, rejected: 0 });
    // The shelter system's key reads the records: the outcome kept is named.
    expect(run.report).toEqual([
      {
        line: 2,
        field: null,
        message: "has no outcome, but the stay's outcome is recorded here (shelterEuthanasia, 2021-05-01 to 2021-05-20): the recorded outcome is kept",
        result: "importedWithWarning",
      },
    ]);
    expect((await staysOf(pet.id)).map((s) => [s.intake_subtype, s.outcome_type])).toEqual([["found on Elm St", "shelterEuthanasia"]]);
    expect(await animal("C-1")).toMatchObject({ inCare: false, version: pet.version + 2 });
    expect((await auditsOf(pet.id)).slice(-2).map((a) => [a.action, a.version, a.requestId.startsWith("import-")])).toEqual([
      ["stay_ended", pet.version + 1, false],
      ["updated", pet.version + 2, true],
    ]);
  });
});

describe("what an import's change of stays announces", () => {
  it("an animal whose only change is its stays gets a version, an audit record naming the import, and an event", async () => {
    const first = await history({ key: writer }, csv("E-1,Echo,DOG,2021-02-01,stray,,,"));
    const pet = await animal("E-1");
    const left = await history({ key: writer }, csv("E-1,Echo,DOG,2021-02-01,stray,,2021-02-10,transferredOut"));
    expect(left.id).not.toBe(first.id);
    expect(left.counts).toMatchObject({ updated: 1 });
    expect(await animal("E-1")).toMatchObject({ inCare: false, version: pet.version + 1 });
    expect((await auditsOf(pet.id)).at(-1)).toEqual({ action: "updated", version: pet.version + 1, requestId: `import-${left.id}` });
    const events = await eventsOf(pet.id);
    expect(events.map((e) => [e.type, (e.data as { pet: { version: number } }).pet.version])).toEqual([
      ["pet.created", 1],
      ["pet.updated", pet.version + 1],
    ]);
  });

  it("a new animal whose history ended out of care is created out of care, with its stays, in one change", async () => {
    await history({ key: writer }, csv("N-1,Nox,DOG,2020-01-01,stray,,2020-02-01,transferredOut"));
    const pet = await animal("N-1");
    expect(pet).toMatchObject({ inCare: false, version: 1, status: "available" });
    expect((await staysOf(pet.id)).map((s) => s.outcome_type)).toEqual(["transferredOut"]);
    expect((await auditsOf(pet.id)).map((a) => a.action)).toEqual(["created"]);
  });
});

describe(`at most ${STAYS_PER_ANIMAL_MAX} stays an animal`, () => {
  const day = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `M-1,Moth,CAT,${day(2 * i)},stray,,${day(2 * i + 1)},returnedToOwner`);
  const excess = 100;

  it("an animal with many rows plans and imports; the file's oldest stays past the cap are refused, each with a report entry; a new intake past it is 409 too_many_stays", async () => {
    const file = csv(...rows(STAYS_PER_ANIMAL_MAX + excess));
    const real = await history({ key: writer }, file);
    expect(real.counts).toMatchObject({ rows: STAYS_PER_ANIMAL_MAX + excess, created: STAYS_PER_ANIMAL_MAX, rejected: excess });
    const refused = real.report.filter((e) => e.result === "refused");
    expect(refused).toHaveLength(excess);
    expect(refused[0]).toEqual({
      line: 2,
      field: null,
      message: `its stay (${day(0)} to ${day(1)}) is left out: an animal keeps at most ${STAYS_PER_ANIMAL_MAX} stays, and with the file's it would have ${STAYS_PER_ANIMAL_MAX + excess}; the oldest new stays are refused`,
      result: "refused",
    });
    expect(refused.at(-1)!.line).toBe(excess + 1);
    const pet = await animal("M-1");
    const [count] = await db().$queryRaw<
      { n: number; first: Date }[]
    >`SELECT count(*)::int AS n, min(intake_at) AS first FROM pet_stays WHERE pet_id = ${pet.id}`;
    expect(count).toEqual({ n: STAYS_PER_ANIMAL_MAX, first: new Date(`${day(2 * excess)}T00:00:00Z`) });

    // The same file again: its stays are the animal's, the oldest still refused.
    const again = await history({ key: writer }, file);
    expect(again.counts).toMatchObject({ unchanged: STAYS_PER_ANIMAL_MAX, rejected: excess, created: 0, updated: 0 });

    const intake = await call(openRoute, `/v1/pets/${pet.id}/stays`, {
      method: "POST",
      json: { intake: { type: "stray" } },
      key: writer,
      params: { petId: String(pet.id) },
    });
    expect((await expectApiError(intake, 409, "too_many_stays")).message).toContain(`(${STAYS_PER_ANIMAL_MAX})`);
  }, 60_000);
});
