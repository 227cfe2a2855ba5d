import { describe, expect, it } from "vitest";
import { db, query } from "@/lib/db";
import { advanceMarkSql, feedBatchSql } from "@/lib/events/feed-reader";
import { Prisma } from "@/lib/generated/prisma/client";
import { newOrganization } from "./helpers";

// The change feed's readers (webhook dispatch, alert matching, the listing
// sites' schedule) share one statement shape (lib/events/feed-reader.ts).
// A statement's snapshot is taken when it starts; the reader's lock is
// tried a moment later. When another reader commits in between, the late
// one gets the lock, and must read on from the mark just moved, not from
// the one its snapshot holds. The window is microseconds wide in service;
// here the late reader sleeps between its snapshot and its lock, so the
// other's commit always falls in it.

const READER = "dispatched";

/** A reader's statement: lock, batch, mark moved; with `sleep`, it waits that long after its snapshot before trying the lock. */
function readingSql(sleep?: number): { text: string; values: unknown[] } {
  const statement = Prisma.sql`WITH ${feedBatchSql(READER, Prisma.sql`e.position`, 500)}, ${advanceMarkSql(READER)}
    SELECT (SELECT locked FROM lock) AS locked, (SELECT count(*)::int FROM batch) AS events`;
  if (sleep === undefined) return statement;
  // The sleep joins the lock's CTE, so PostgreSQL cannot try the lock before it ends.
  const text = statement.text.replace(
    /lock AS \(\s*SELECT (pg_try_advisory_xact_lock\([^)]*\)) AS locked/,
    `lock AS (SELECT $1 AS locked FROM (SELECT pg_sleep(${sleep})) slept`,
  );
  if (text === statement.text) throw new Error("the reader's lock CTE is no longer shaped as this test expects");
  return { text, values: statement.values };
}

async function announce(n: number): Promise<void> {
  const shelter = await newOrganization({ name: `Feed Rescue ${n}` });
  // Animals and their audit records in one transaction: the feed's trigger announces each at commit.
  await query(Prisma.sql`
    WITH p AS (
      INSERT INTO pets (name, organization_id, category_id, status)
      SELECT 'Fed ' || g, ${BigInt(shelter)}, 1, 'available' FROM generate_series(1, ${n}::int) g
      RETURNING id, name, organization_id
    )
    INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after)
    SELECT id, 'created', 1, 'api_key', 1, 'test', 'fed-' || id,
           jsonb_build_object('id', id, 'name', name, 'status', 'available', 'organizationId', organization_id)
      FROM p`);
}

describe("a feed reader", () => {
  it("that takes the lock just after another committed reads on from the mark that one moved, not from its snapshot's", async () => {
    await query(readingSql()); // the mark at the feed's end
    await announce(5);
    const late = query<{ locked: boolean; events: number }>(readingSql(1));
    // The late statement has its snapshot (it is sleeping); the other reads the five and commits.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const [first] = await query<{ locked: boolean; events: number }>(readingSql());
    expect(first).toEqual({ locked: true, events: 5 });
    const [second] = await late;
    expect(second).toEqual({ locked: true, events: 0 });
    const last = (await db().event.aggregate({ _max: { position: true } }))._max.position;
    expect((await db().eventMark.findUnique({ where: { name: READER } }))?.position).toBe(last);
  });
});
