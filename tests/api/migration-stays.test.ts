import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Issue 42's migration (docs/decisions/023): every existing animal gets one
// stay, from its intake date (or its creation) with the outcome its status
// implies, and from then on the database refuses stays that overlap, a second
// open stay and an outcome before its intake, and keeps each stay's days in
// the shelter's time zone.

const MIGRATION = "20261203000000_pet_stays";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(MIGRATION, "upgrade_pet_stays"));
});

afterAll(async () => {
  await drop?.();
});

async function insertPet(org: number, category: number, status: string, createdAt: string, intakeDate: string | null): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO pets (name, category_id, organization_id, status, created_at, intake_date)
     VALUES ('Rex', $1, $2, $3::"PetStatus", $4::timestamptz, $5::date) RETURNING id`,
    [category, org, status, createdAt, intakeDate],
  );
  return Number(rows[0]!.id);
}

async function audit(pet: number, status: string, at: string): Promise<void> {
  await client.query(
    `INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after, created_at)
     VALUES ($1, 'updated', 1, 'staff', 1, 'staff@example.org', 'r', jsonb_build_object('status', $2::text), $3::timestamptz)`,
    [pet, status, at],
  );
}

describe(`migration ${MIGRATION}`, () => {
  it("gives every existing animal one stay, ended by an adoption when it was sold", async () => {
    const { rows: orgs } = await client.query<{ id: string }>("INSERT INTO organizations (name, slug) VALUES ('Before', 'before-stays') RETURNING id");
    const org = Number(orgs[0]!.id);
    const { rows: cats } = await client.query<{ id: string }>("INSERT INTO categories (name) VALUES ('Dogs') RETURNING id");
    const dogs = Number(cats[0]!.id);

    const waiting = await insertPet(org, dogs, "available", "2025-03-10T15:00:00Z", "2025-03-01");
    const noIntake = await insertPet(org, dogs, "pending", "2025-04-02T09:30:00Z", null);
    // An intake date after the record's creation (a typo) is not believed: the stay starts at creation.
    const future = await insertPet(org, dogs, "available", "2025-05-01T08:00:00Z", "2025-06-01");
    // Sold, back to available, then sold again: the adoption is the start of the last run as sold.
    const sold = await insertPet(org, dogs, "sold", "2025-01-05T10:00:00Z", "2025-01-02");
    await audit(sold, "sold", "2025-02-01T12:00:00Z");
    await audit(sold, "available", "2025-02-03T12:00:00Z");
    await audit(sold, "sold", "2025-02-10T12:00:00Z");
    await audit(sold, "sold", "2025-02-11T12:00:00Z");
    // Sold with no audit trail: adopted when created.
    const soldBare = await insertPet(org, dogs, "sold", "2025-01-20T10:00:00Z", null);

    await client.query(sqlOf(MIGRATION));

    const { rows } = await client.query<{
      pet_id: string;
      intake_at: Date;
      intake_on: string;
      intake_type: string;
      outcome_at: Date | null;
      outcome_type: string | null;
      in_care: boolean;
    }>(
      `SELECT s.pet_id, s.intake_at, s.intake_on::text, s.intake_type::text, s.outcome_at, s.outcome_type::text, p.in_care
       FROM pet_stays s JOIN pets p ON p.id = s.pet_id ORDER BY s.pet_id`,
    );
    expect(
      rows.map((r) => [
        Number(r.pet_id),
        r.intake_at.toISOString(),
        r.intake_on,
        r.intake_type,
        r.outcome_at?.toISOString() ?? null,
        r.outcome_type,
        r.in_care,
      ]),
    ).toEqual([
      [waiting, "2025-03-01T00:00:00.000Z", "2025-03-01", "otherIntake", null, null, true],
      [noIntake, "2025-04-02T09:30:00.000Z", "2025-04-02", "otherIntake", null, null, true],
      [future, "2025-05-01T08:00:00.000Z", "2025-05-01", "otherIntake", null, null, true],
      [sold, "2025-01-02T00:00:00.000Z", "2025-01-02", "otherIntake", "2025-02-10T12:00:00.000Z", "adoption", true],
      [soldBare, "2025-01-20T10:00:00.000Z", "2025-01-20", "otherIntake", "2025-01-20T10:00:00.000Z", "adoption", true],
    ]);
  });

  it("refuses overlapping stays, a second open stay and an outcome before its intake; a re-intake on the day of the outcome is fine", async () => {
    const { rows } = await client.query<{ pet_id: string; organization_id: string }>(
      "SELECT s.pet_id, s.organization_id FROM pet_stays s WHERE s.outcome_at IS NOT NULL ORDER BY s.pet_id LIMIT 1",
    );
    const { pet_id: pet, organization_id: org } = rows[0]!;
    const insert = (intake: string, outcome: string | null) =>
      client.query(
        `INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, outcome_at, outcome_type)
         VALUES ($1, $2, $3::timestamptz, 'stray', $4::timestamptz, CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE 'returnedToOwner'::"OutcomeType" END)`,
        [pet, org, intake, outcome],
      );
    await expect(insert("2025-01-15T00:00:00Z", "2025-01-16T00:00:00Z")).rejects.toThrow(/pet_stays_no_overlap/);
    await expect(insert("2025-03-01T00:00:00Z", "2025-02-01T00:00:00Z")).rejects.toThrow(/pet_stays_outcome_after_intake/);
    await insert("2025-02-10T12:00:00Z", "2025-02-10T12:00:00Z"); // came back and went home the same moment: an empty stay overlaps nothing
    await insert("2025-02-10T12:00:00Z", null);
    await expect(insert("2025-09-01T00:00:00Z", null)).rejects.toThrow(/pet_stays_no_overlap|pet_stays_one_open_key/);
  });

  it("stores each stay's days in the shelter's time zone, whatever the time's offset", async () => {
    const { rows: orgs } = await client.query<{ id: string }>(
      "INSERT INTO organizations (name, slug, time_zone) VALUES ('West', 'west-stays', 'America/Los_Angeles') RETURNING id",
    );
    const org = Number(orgs[0]!.id);
    const { rows: cats } = await client.query<{ id: string }>("SELECT id FROM categories LIMIT 1");
    const pet = await insertPet(org, Number(cats[0]!.id), "available", "2025-06-01T00:00:00Z", null);
    await client.query("DELETE FROM pet_stays WHERE pet_id = $1", [pet]);
    // 06:30 UTC on 1 July is still 30 June in Los Angeles.
    const { rows } = await client.query<{ intake_on: string; outcome_on: string }>(
      `INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, outcome_at, outcome_type)
       VALUES ($1, $2, '2025-06-01T00:00:00-07:00', 'stray', '2025-07-01T06:30:00Z', 'transferredOut')
       RETURNING intake_on::text, outcome_on::text`,
      [pet, org],
    );
    expect(rows[0]).toEqual({ intake_on: "2025-06-01", outcome_on: "2025-06-30" });
  });
});
