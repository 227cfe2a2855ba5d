import { beforeAll, describe, expect, it } from "vitest";
import { query } from "@/lib/db";
import { maintainGrownTables } from "@/lib/db-statistics";
import { Prisma } from "@/lib/generated/prisma/client";
import { newOrganization } from "./helpers";
import { pagePlan } from "./page-plan";

// The soak's shape (scripts/bench-soak.ts), on a server without autovacuum:
// 10,000 animals of six categories, then 35,000 creates in the first. A list
// of available animals of another category has all its matches behind the
// new ones. Its (status, category_id, id) index answers it in a walk of 21
// entries, but the planner prices an index-only walk by the share of
// all-visible pages, and without VACUUM no new page is: with statistics as
// fresh as can be, it walked every available animal newest first instead
// (about 1,000 buffers for a page of 21, against 130). maintain-grown-tables runs the
// VACUUM autovacuum would (docs/decisions/026).

let shelter: number;

beforeAll(async () => {
  shelter = await newOrganization({ name: "Intake Rescue" });
  await query(Prisma.sql`ALTER TABLE pets SET (autovacuum_enabled = off)`);
  // As the bench seeds: each category has one status, so two of the six have available animals.
  await query(Prisma.sql`INSERT INTO pets (name, organization_id, category_id, status)
    SELECT 'Settled ' || g, ${BigInt(shelter)}, (SELECT id FROM categories ORDER BY id LIMIT 1 OFFSET (g % 6)),
           (ARRAY['available', 'pending', 'sold'])[1 + g % 3]::"PetStatus"
      FROM generate_series(1, 10000) g`);
  await query(Prisma.sql`VACUUM ANALYZE pets`);
});

describe("maintain-grown-tables", () => {
  it("after 35,000 creates in one category, a list of another's available animals is back on its (status, category, id) index", async () => {
    const [first, fourth] = await query<{ id: bigint }>(Prisma.sql`SELECT id FROM categories ORDER BY id LIMIT 4`).then((rows) => [rows[0]!.id, rows[3]!.id]);
    // The counts the job reads are flushed by each backend when it goes idle: this one flushes before it answers.
    await query(Prisma.sql`WITH grown AS (INSERT INTO pets (name, organization_id, category_id, status)
      SELECT 'Intake', ${BigInt(shelter)}, ${first}, 'available' FROM generate_series(1, 35000) g RETURNING 1)
      SELECT count(*)::int AS n, pg_stat_force_next_flush() FROM grown`);
    // Statistics as fresh as the job keeps them: what is missing is the VACUUM.
    await query(Prisma.sql`ANALYZE pets`);
    const older = { status: "available", categoryId: Number(fourth) } as const;
    const unvacuumed = await pagePlan(older);
    const { vacuumed } = await maintainGrownTables();
    expect(vacuumed).toContain("public.pets");
    const vacuumedPlan = await pagePlan(older);
    expect(unvacuumed.indexes).not.toContain("pets_status_category_id_id_idx");
    expect(vacuumedPlan.indexes).toContain("pets_status_category_id_id_idx");
    // The whole page statement (the rows, their photos and foster homes too): about 1,000 buffers before
    // (every available animal walked newest first), 130 after.
    expect(vacuumedPlan.buffers).toBeLessThan(unvacuumed.buffers / 4);
  });
});
