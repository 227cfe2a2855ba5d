import { describe, expect, it } from "vitest";
import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { scheduleListingUploads } from "@/lib/listings/uploads/schedule";
import { newOrganization } from "./helpers";

// The listing sites' scheduler reads the feed after every commit; with no
// enabled site anywhere no change can concern one, so a run passes the feed
// over unread and only moves its mark (issue 51, docs/decisions/026). With
// sites, tests/api/listing-uploads.test.ts shows the uploads it queues.

describe("with no enabled listing site", () => {
  it("a run reads no event and moves the mark to the feed's end", async () => {
    const shelter = await newOrganization({ name: "Unlisted Rescue" });
    await scheduleListingUploads();
    const mark = async () => Number((await db().eventMark.findUnique({ where: { name: "listings" } }))?.position ?? 0);
    const from = await mark();
    // 1,200 animals and their audit records in one transaction: the feed's trigger announces each at commit.
    await query(Prisma.sql`
      WITH p AS (
        INSERT INTO pets (name, organization_id, category_id, status)
        SELECT 'Listed ' || g, ${BigInt(shelter)}, 1, 'available' FROM generate_series(1, 1200) g
        RETURNING id, name, organization_id
      )
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after)
      SELECT id, 'created', 1, 'api_key', 1, 'test', 'listed-' || id,
             jsonb_build_object('id', id, 'name', name, 'status', 'available', 'organizationId', organization_id)
        FROM p`);
    const last = Number((await db().event.aggregate({ _max: { position: true } }))._max.position);
    const result = await scheduleListingUploads();
    expect(result).toEqual({ busy: false, events: 0, skipped: last - from, uploads: 0 });
    expect(last - from).toBeGreaterThanOrEqual(1200);
    expect(await mark()).toBe(last);
  });
});
