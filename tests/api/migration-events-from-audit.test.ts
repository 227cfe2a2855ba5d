import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Migration 20261124000000_events_from_audit on a database that already has a
// feed: events written the old way keep their ids (positions) and their
// webhook deliveries, and the feed goes on after them, now written from the
// audit records at commit.

const UPGRADE = "20261124000000_events_from_audit";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(UPGRADE, "upgrade"));
});

afterAll(async () => {
  await drop?.();
});

describe(`migration ${UPGRADE}`, () => {
  it("keeps the events and deliveries written before it, and the feed continues after them, written at commit from the audit records", async () => {
    // The old write path: the event inserted by the statement, numbered at commit by the old trigger.
    await client.query(`INSERT INTO categories (name) VALUES ('Dogs')`);
    const {
      rows: [pet],
    } = await client.query<{ id: string }>(`INSERT INTO pets (name, category_id) VALUES ('Old timer', 1) RETURNING id`);
    await client.query(`INSERT INTO events (type, pet_id, data) VALUES ('pet.created', $1, $2)`, [
      pet!.id,
      { pet: { id: Number(pet!.id), name: "Old timer" } },
    ]);
    await client.query(`INSERT INTO events (type, pet_id, data) VALUES ('pet.updated', $1, $2)`, [
      pet!.id,
      { pet: { id: Number(pet!.id) }, previous: { status: "available" } },
    ]);
    const { rows: before } = await client.query<{ position: string; type: string }>(`SELECT position, type FROM events ORDER BY position`);
    expect(before.map((e) => e.type)).toEqual(["pet.created", "pet.updated"]);
    const {
      rows: [key],
    } = await client.query<{ id: string }>(
      `INSERT INTO api_keys (name, prefix, hash, last4, scopes) VALUES ('k', 'pk_live_', 'h', 'abcd', '{webhooks:manage}') RETURNING id`,
    );
    const {
      rows: [endpoint],
    } = await client.query<{ id: string }>(
      `INSERT INTO webhook_endpoints (api_key_id, url, events, secret, start_after) VALUES ($1, 'http://127.0.0.1:9/hook', '{pet.created}', 's', 0) RETURNING id`,
      [key!.id],
    );
    await client.query(`INSERT INTO webhook_deliveries (endpoint_id, event_position, event_type) VALUES ($1, $2, 'pet.created')`, [
      endpoint!.id,
      before[0]!.position,
    ]);

    await client.query(sqlOf(UPGRADE));

    const { rows: after } = await client.query<{ position: string; type: string; data: unknown }>(`SELECT position, type, data FROM events ORDER BY position`);
    expect(after.map((e) => [e.position, e.type])).toEqual(before.map((e) => [e.position, e.type]));
    expect(after[1]!.data).toEqual({ pet: { id: Number(pet!.id) }, previous: { status: "available" } });
    const { rows: deliveries } = await client.query<{ event_position: string }>(`SELECT event_position FROM webhook_deliveries`);
    expect(deliveries).toEqual([{ event_position: before[0]!.position }]);

    // The new write path: an audit record, and its event at commit.
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, before, after)
       VALUES ($1, 'updated', 2, 'staff', 1, 'a@example.org', 'r', '{"status": "available"}', $2)`,
      [pet!.id, { id: Number(pet!.id), name: "Old timer", categoryId: 1, status: "sold", version: 2 }],
    );
    expect((await client.query(`SELECT count(*)::int AS n FROM events`)).rows[0].n).toBe(2);
    await client.query("COMMIT");
    const { rows: feed } = await client.query<{ position: string; type: string; data: unknown }>(`SELECT position, type, data FROM events ORDER BY position`);
    expect(feed).toHaveLength(3);
    expect(BigInt(feed[2]!.position)).toBeGreaterThan(BigInt(before[1]!.position));
    expect(feed[2]).toMatchObject({
      type: "pet.updated",
      data: { pet: { id: Number(pet!.id), name: "Old timer", categoryId: 1, status: "sold", version: 2 }, previous: { status: "available" } },
    });

    // Deleting an event still takes its deliveries along (the foreign key survived).
    await client.query(`DELETE FROM events WHERE position = $1`, [before[0]!.position]);
    expect((await client.query(`SELECT count(*)::int AS n FROM webhook_deliveries`)).rows[0].n).toBe(0);
  });
});
