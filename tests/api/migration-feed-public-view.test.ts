import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Migration 20261210000000_feed_public_view on a feed written before it: each
// event already written gets the type readers without the organisation's
// records see (docs/decisions/027), replayed from each animal's own events,
// and the animals out of care are not listed for the feed from then on.

const UPGRADE = "20261210000000_feed_public_view";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(UPGRADE, "feedview"));
});

afterAll(async () => {
  await drop?.();
});

describe(`migration ${UPGRADE}`, () => {
  it("gives every event written before it its public type, and the animals out of care their feed state", async () => {
    await client.query(`INSERT INTO categories (name) VALUES ('Dogs') ON CONFLICT DO NOTHING`);
    const org = (await client.query<{ id: string }>("INSERT INTO organizations (name, slug) VALUES ('Before', 'before-feed-view') RETURNING id")).rows[0]!.id;
    const pet = async (name: string, inCare: boolean) =>
      Number(
        (
          await client.query<{ id: string }>(
            `INSERT INTO pets (name, category_id, organization_id, in_care) VALUES ($1, (SELECT min(id) FROM categories), $2, $3) RETURNING id`,
            [name, org, inCare],
          )
        ).rows[0]!.id,
      );
    const left = await pet("Left", false);
    const sold = await pet("Sold", true);
    const event = (petId: number, type: string, data: Record<string, unknown>) =>
      client.query(
        `INSERT INTO events (position, type, pet_id, organization_id, data) VALUES (nextval('events_position_seq'), $1, $2, (SELECT organization_id FROM pets WHERE id = $2), $3)`,
        [type, petId, data],
      );
    const stay = (outcome: string | null) => ({
      id: 1,
      intake: { type: "stray", subtype: null, at: "2026-01-01T00:00:00.000Z" },
      outcome: outcome && { type: outcome, subtype: "12 Elm St", at: "2026-02-01T00:00:00.000Z" },
    });
    await event(left, "pet.created", { pet: { id: left } });
    await event(sold, "pet.created", { pet: { id: sold } });
    await event(left, "pet.stay.ended", { pet: { id: left }, previous: {}, stay: stay("shelterEuthanasia") });
    await event(left, "pet.updated", { pet: { id: left }, previous: { name: "Before" } });
    await event(sold, "pet.updated", { pet: { id: sold }, previous: { status: "available" }, stay: stay("adoption") });
    await event(sold, "pet.stay.ended", { pet: { id: sold }, previous: {}, stay: stay("adoption") });
    await event(left, "pet.stay.started", { pet: { id: left }, previous: {}, stay: stay(null) });
    await event(left, "pet.updated", { pet: { id: left }, previous: { name: "Left" } });

    await client.query(sqlOf(UPGRADE));

    const { rows } = await client.query<{ pet_id: string; type: string; public_type: string | null }>(
      `SELECT pet_id, type, public_type FROM events ORDER BY position`,
    );
    expect(rows.map((r) => [Number(r.pet_id) === left ? "Left" : "Sold", r.type, r.public_type])).toEqual([
      ["Left", "pet.created", "pet.created"],
      ["Sold", "pet.created", "pet.created"],
      ["Left", "pet.stay.ended", "pet.unlisted"],
      ["Left", "pet.updated", null],
      ["Sold", "pet.updated", "pet.updated"],
      ["Sold", "pet.stay.ended", null],
      ["Left", "pet.stay.started", "pet.listed"],
      ["Left", "pet.updated", "pet.updated"],
    ]);
    const { rows: pets } = await client.query<{ name: string; feed_listed: boolean }>(`SELECT name, feed_listed FROM pets WHERE id = ANY($1) ORDER BY id`, [
      [left, sold],
    ]);
    expect(pets).toEqual([
      { name: "Left", feed_listed: false },
      { name: "Sold", feed_listed: true },
    ]);
  });
});
