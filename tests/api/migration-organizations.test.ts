import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Migration 20261126000000_organizations on a one-shelter database as an
// install had it the day before: every animal, key, staff account,
// application and event becomes the first organisation's, and the feed goes
// on, its events now naming their organisation.

const UPGRADE = "20261126000000_organizations";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(UPGRADE, "orgs_upgrade"));
});

afterAll(async () => {
  await drop?.();
});

const one = async <T>(sql: string, values: unknown[] = []) => (await client.query(sql, values)).rows[0] as T;

describe(`migration ${UPGRADE}`, () => {
  it("moves a one-shelter database into the first organisation, and the feed goes on naming it", async () => {
    // The shelter as it was: animals, a key with a webhook endpoint, staff, an application, events.
    await client.query(`INSERT INTO categories (name) VALUES ('Dogs'), ('Cats')`);
    const pets = (
      await client.query<{ id: string }>(`INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available'), ('Tom', 2, 'sold') RETURNING id`)
    ).rows;
    const key = await one<{ id: string }>(
      `INSERT INTO api_keys (name, prefix, hash, last4, scopes) VALUES ('partner', 'pk_live_', repeat('a', 64), 'abcd', '{pets:read}') RETURNING id`,
    );
    const staff = await one<{ id: string }>(`INSERT INTO staff_users (email, password_hash) VALUES ('staff@shelter.example', 'x') RETURNING id`);
    const application = await one<{ id: string }>(
      `INSERT INTO adoption_applications (pet_id, token_hash, name, email, home, message, consent_at) VALUES ($1, repeat('t', 43), 'Sam', 'sam@example.org', 'house', 'Hi', now()) RETURNING id`,
      [pets[0]!.id],
    );
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after) VALUES ($1, 'created', 1, 'api_key', $2, 'partner', 'r1', $3)`,
      [pets[0]!.id, key.id, { id: Number(pets[0]!.id), name: "Rex", categoryId: 1, status: "available", version: 1 }],
    );
    await client.query("COMMIT");
    const old = await one<{ position: string }>(`SELECT position FROM events`);

    await client.query(sqlOf(UPGRADE));

    expect(await one(`SELECT id::int, name, slug, city, lat FROM organizations`)).toEqual({ id: 1, name: "Petstore", slug: "petstore", city: null, lat: null });
    expect((await client.query(`SELECT organization_id::int AS o FROM pets ORDER BY id`)).rows).toEqual([{ o: 1 }, { o: 1 }]);
    expect(await one(`SELECT organization_id::int AS o FROM api_keys WHERE id = $1`, [key.id])).toEqual({ o: 1 });
    expect(await one(`SELECT organization_id::int AS o, platform_admin FROM staff_users WHERE id = $1`, [staff.id])).toEqual({ o: 1, platform_admin: false });
    expect(await one(`SELECT organization_id::int AS o FROM adoption_applications WHERE id = $1`, [application.id])).toEqual({ o: 1 });
    expect(await one(`SELECT position, organization_id::int AS o FROM events`)).toEqual({ position: old.position, o: 1 });

    // Every animal needs its organisation from now on; a staff account one, or to be a platform admin.
    await expect(client.query(`INSERT INTO pets (name, category_id) VALUES ('Nobody''s', 1)`)).rejects.toThrow(/organization_id/);
    await expect(client.query(`INSERT INTO staff_users (email, password_hash) VALUES ('x@y.example', 'x')`)).rejects.toThrow(
      /staff_users_organization_or_platform/,
    );

    // A change after the migration: its event names the animal's organisation,
    // from the record when it says so, else from the animal.
    const second = await one<{ id: string }>(
      `INSERT INTO organizations (name, slug, city, country, lat, lng) VALUES ('Elsewhere', 'elsewhere', 'Evanston', 'US', 42.04, -87.69) RETURNING id`,
    );
    const there = await one<{ id: string }>(`INSERT INTO pets (name, category_id, organization_id) VALUES ('Ada', 1, $1) RETURNING id`, [second.id]);
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after) VALUES ($1, 'created', 1, 'api_key', $2, 'partner', 'r2', $3)`,
      [there.id, key.id, { id: Number(there.id), name: "Ada", categoryId: 1, status: "available", version: 1 }],
    );
    await client.query("COMMIT");
    const newest = await one<{ position: string; o: number }>(`SELECT position, organization_id::int AS o FROM events ORDER BY position DESC LIMIT 1`);
    expect(BigInt(newest.position)).toBeGreaterThan(BigInt(old.position));
    expect(newest.o).toBe(Number(second.id));

    // The place is a generated point on the Earth's mean sphere, indexed for near searches.
    const placed = await one<{ chord: number }>(`SELECT earth_point <-> geo_point(41.8786, -87.6359) AS chord FROM organizations WHERE id = $1`, [second.id]);
    expect(placed.chord).toBeGreaterThan(18_000);
    expect(placed.chord).toBeLessThan(21_000);
  });
});
