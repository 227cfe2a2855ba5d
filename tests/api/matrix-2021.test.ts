import { describe, expect, it } from "vitest";
import { POST as endRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { PATCH as correctRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/route";
import { GET as listStaysRoute } from "@/app/v1/pets/[petId]/stays/route";
import { POST as createRoute } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import { organizationReport } from "@/lib/reports/service";
import type { Stay } from "@/lib/stays/schemas";
import { call, expectApiError, expectJson, newKey, newOrganization } from "./helpers";
import { importFile } from "./imports-helpers";

// The Basic Data Matrix's 2021 revision (issue 50, docs/decisions/028): a
// detail of today's types (seizedOrImpounded of otherIntake; a transfer's
// distance), so the types clients know keep their values and the report's old
// rows their totals; the new rows count the detailed stays apart.

async function shelter() {
  const org = await newOrganization();
  await db().organization.update({ where: { id: BigInt(org) }, data: { timeZone: "UTC" } });
  const { key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "matrix-2021", { plan: "pro" }, org);
  return { org, key };
}

describe("the API", () => {
  it("takes a detail that goes with its type, answers it, and refuses one that does not (400 naming the field); a new type clears a detail that no longer fits", async () => {
    const { key } = await shelter();
    const pet = await expectJson<Pet>(
      await call(createRoute, "/v1/pets", {
        method: "POST",
        key,
        json: { name: "Seized", categoryId: 1, intake: { at: "2021-03-02", type: "otherIntake", detail: "seizedOrImpounded" } },
      }),
      201,
    );
    const params = { petId: String(pet.id) };
    const [stay] = await expectJson<Stay[]>(await call(listStaysRoute, `/v1/pets/${pet.id}/stays`, { key, params }));
    expect(stay!.intake).toMatchObject({ type: "otherIntake", detail: "seizedOrImpounded" });

    const bad = await call(createRoute, "/v1/pets", {
      method: "POST",
      key,
      json: { name: "Bad", categoryId: 1, intake: { type: "stray", detail: "seizedOrImpounded" } },
    });
    expect((await expectApiError(bad, 400, "invalid_body")).details).toContainEqual({
      field: "intake.detail",
      issue: expect.stringContaining("does not go with the type"),
    });

    const stayParams = { petId: String(pet.id), stayId: String(stay!.id) };
    const wrong = await call(endRoute, `/v1/pets/${pet.id}/stays/${stay!.id}/outcome`, {
      method: "POST",
      key,
      json: { type: "adoption", detail: "outOfState" },
      params: stayParams,
    });
    expect((await expectApiError(wrong, 400, "invalid_body")).details).toContainEqual({
      field: "detail",
      issue: expect.stringContaining("does not go with the type"),
    });
    const ended = await expectJson<Stay>(
      await call(endRoute, `/v1/pets/${pet.id}/stays/${stay!.id}/outcome`, {
        method: "POST",
        key,
        json: { at: "2021-03-20", type: "transferredOut", detail: "outOfState" },
        params: stayParams,
      }),
    );
    expect(ended.outcome).toMatchObject({ type: "transferredOut", detail: "outOfState" });

    // A correction: a detail that does not go with the stay's type is a 400, never the database's 500.
    const mismatch = await call(correctRoute, `/v1/pets/${pet.id}/stays/${stay!.id}`, {
      method: "PATCH",
      key,
      json: { intake: { detail: "inState" } },
      params: stayParams,
    });
    expect((await expectApiError(mismatch, 400, "invalid_body")).details).toContainEqual({
      field: "intake.detail",
      issue: expect.stringContaining("does not go with"),
    });
    // A new type clears the detail it no longer goes with.
    const corrected = await expectJson<Stay>(
      await call(correctRoute, `/v1/pets/${pet.id}/stays/${stay!.id}`, { method: "PATCH", key, json: { outcome: { type: "adoption" } }, params: stayParams }),
    );
    expect(corrected.outcome).toMatchObject({ type: "adoption", detail: null });
    expect(corrected.intake.detail).toBe("seizedOrImpounded");
  });

  it("the database ties each detail to its type, whatever writes", async () => {
    const { org } = await shelter();
    const [pet] = await db().$queryRaw<
      { id: bigint }[]
    >`INSERT INTO pets (name, organization_id, category_id, status) VALUES ('X', ${BigInt(org)}, 1, 'available') RETURNING id`;
    await expect(
      db()
        .$executeRaw`INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, intake_detail) VALUES (${pet!.id}, ${BigInt(org)}, now(), 'stray', 'seizedOrImpounded')`,
    ).rejects.toThrow(/pet_stays_intake_detail_check/);
  });
});

describe("the report and the import", () => {
  it("the new rows count the detailed stays; the old rows keep their totals; a value map can name them", async () => {
    const { org, key } = await shelter();
    const mapping = JSON.stringify({
      externalId: "ID",
      name: "Name",
      species: "Kind",
      intakeDate: "In",
      intakeType: "In type",
      outcomeDate: "Out",
      outcomeType: "Out type",
      values: {
        intakeType: {
          "WELFARE SEIZED": "seizedOrImpounded",
          CONFISCATE: "seizedOrImpounded",
          "TRANSFER IN": "transferredIn",
          "TRANSFER IN WA": "transferredInInState",
        },
        outcomeType: { "TRANSFER ID": "transferredOutOutOfState", "TRANSFER MX": "transferredOutInternational", TRANSFER: "transferredOut" },
      },
    });
    const file = [
      "ID,Name,Kind,In,In type,Out,Out type",
      "M-1,A,DOG,6/2/2021,WELFARE SEIZED,6/20/2021,TRANSFER ID",
      "M-2,B,DOG,6/3/2021,CONFISCATE,6/21/2021,TRANSFER MX",
      "M-3,C,DOG,6/4/2021,otherIntake,6/22/2021,TRANSFER",
      "M-4,D,DOG,6/5/2021,TRANSFER IN,,",
      "M-5,E,DOG,6/6/2021,TRANSFER IN WA,,",
      "",
    ].join("\r\n");
    const real = await importFile({ key }, file, { mapping });
    expect(real.counts).toMatchObject({ rows: 5, created: 5, rejected: 0 });
    const stays = await db().$queryRaw<{ intake: string; outcome: string | null }[]>`
      SELECT s.intake_type || COALESCE('.' || s.intake_detail, '') AS intake, s.outcome_type || COALESCE('.' || s.outcome_detail, '') AS outcome
        FROM pet_stays s JOIN pets p ON p.id = s.pet_id WHERE p.organization_id = ${BigInt(org)} ORDER BY p.external_id`;
    expect(stays).toEqual([
      { intake: "otherIntake.seizedOrImpounded", outcome: "transferredOut.outOfState" },
      { intake: "otherIntake.seizedOrImpounded", outcome: "transferredOut.international" },
      { intake: "otherIntake", outcome: "transferredOut" },
      { intake: "transferredIn", outcome: null },
      { intake: "transferredIn.inState", outcome: null },
    ]);
    const dog = (await organizationReport(org, { from: "2021-06", to: "2021-06" }, new Date())).months[0]!.species.dog;
    // The old rows keep their totals.
    expect(dog.intakes.otherIntake.unknownAge).toBe(3);
    expect(dog.intakes.transferredIn.unknownAge).toBe(2);
    expect(dog.outcomes.transferredOut.unknownAge).toBe(3);
    // The new ones count the detailed stays.
    expect(dog.intakeDetails.seizedOrImpounded.unknownAge).toBe(2);
    expect(dog.intakeDetails.transferredInInState.unknownAge).toBe(1);
    expect(dog.intakeDetails.transferredInOutOfState.unknownAge).toBe(0);
    expect(dog.outcomeDetails.transferredOutOutOfState.unknownAge).toBe(1);
    expect(dog.outcomeDetails.transferredOutInternational.unknownAge).toBe(1);
    expect(dog.outcomeDetails.transferredOutInState.unknownAge).toBe(0);
    const again = await importFile({ key }, file, { mapping });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });
});
