import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCHES_PER_RUN, matchAlerts } from "@/lib/alerts/matching";
import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { newKey, newOrganization } from "./helpers";
import { confirmedAlert } from "./alerts-helpers";

// The matcher's work is what there is to match, not what the traffic is
// (issue 51, docs/decisions/026): with no active alert a run reads no event
// and only moves its mark to the feed's end; with alerts, one run reads at
// most MAX_BATCHES_PER_RUN batches and says that more wait, and the next run
// goes on from there, each arrival matched once.

let key: string;
let shelter: number;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"], "site"));
  shelter = await newOrganization({ name: "Busy Feed Rescue" });
});

/**
 * `n` animals created available in one transaction, each with its audit
 * record: the feed's trigger announces one event for each at commit, as for
 * any write. Returns their ids.
 */
async function arrivals(n: number): Promise<bigint[]> {
  const rows = await query<{ id: bigint }>(Prisma.sql`
    WITH p AS (
      INSERT INTO pets (name, organization_id, category_id, status)
      SELECT 'Feed ' || g, ${BigInt(shelter)}, 1, 'available' FROM generate_series(1, ${n}::int) g
      RETURNING id, name, organization_id
    ), a AS (
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after)
      SELECT id, 'created', 1, 'api_key', 1, 'test', 'feed-' || id,
             jsonb_build_object('id', id, 'name', name, 'status', 'available', 'organizationId', organization_id)
        FROM p
    )
    SELECT id FROM p ORDER BY id`);
  return rows.map((r) => BigInt(r.id));
}

const mark = async () => Number((await db().eventMark.findUnique({ where: { name: "matched" } }))?.position ?? 0);
const lastPosition = async () => Number((await db().event.aggregate({ _max: { position: true } }))._max.position ?? 0);

describe("with no active alert", () => {
  it("a run reads no event: the mark moves to the feed's end, in one statement, however many events wait", async () => {
    // A paused alert is no active one: it matches nothing while paused, as before.
    await confirmedAlert(key, "paused@example.org");
    await db().alert.updateMany({ where: { email: "paused@example.org" }, data: { status: "paused" } });
    await matchAlerts(new Date());
    const from = await mark();
    await arrivals(3 * 200 + 50);
    const result = await matchAlerts(new Date());
    expect(result).toMatchObject({ busy: false, events: 0, matches: 0, more: false });
    expect(result.skipped).toBe((await lastPosition()) - from);
    expect(result.skipped).toBeGreaterThanOrEqual(650);
    expect(await mark()).toBe(await lastPosition());
    expect(await db().alertMatch.count()).toBe(0);
  });

  it("an alert confirmed afterwards hears of the next arrival", async () => {
    await confirmedAlert(key, "later@example.org");
    const [pet] = await arrivals(1);
    const result = await matchAlerts(new Date());
    expect(result).toMatchObject({ events: 1, skipped: 0, matches: 1 });
    const matched = await db().alertMatch.findMany({ select: { petId: true, alert: { select: { email: true } } } });
    expect(matched).toEqual([{ petId: pet, alert: { email: "later@example.org" } }]);
  });
});

describe("a run is bounded", () => {
  it(`reads at most ${MAX_BATCHES_PER_RUN} batches and says more wait; the next run goes on from its mark, each arrival matched once`, async () => {
    await db().alertMatch.deleteMany();
    await matchAlerts(new Date());
    const from = await mark();
    const pets = await arrivals(MAX_BATCHES_PER_RUN * 200 + 120);
    const first = await matchAlerts(new Date());
    expect(first).toMatchObject({ busy: false, events: MAX_BATCHES_PER_RUN * 200, skipped: 0, more: true });
    expect(await mark()).toBe(from + MAX_BATCHES_PER_RUN * 200);
    const second = await matchAlerts(new Date());
    expect(second).toMatchObject({ events: 120, more: false });
    expect(await mark()).toBe(await lastPosition());
    // The one active alert ("later@…", no filters) has every arrival queued, once.
    const matched = await db().alertMatch.findMany({ select: { petId: true }, orderBy: { petId: "asc" } });
    expect(matched.map((m) => m.petId)).toEqual(pets);
    expect(first.matches + second.matches).toBe(pets.length);
  }, 60_000);
});
