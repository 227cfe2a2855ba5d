import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { query } from "@/lib/db";
import { maintainGrownTables } from "@/lib/db-statistics";
import { Prisma } from "@/lib/generated/prisma/client";
import { CRONTAB } from "@/lib/worker/tasks";
import { newOrganization } from "./helpers";
import { pagePlan } from "./page-plan";

// A database that starts with a few animals and grows to thousands within
// minutes, with no autovacuum to analyze it (CI's and this machine's
// PostgreSQL, issue 51): the planner keeps the few animals' statistics, in
// which most names held "pet", and a name search walked every animal newest
// first. The job maintain-grown-tables analyzes (and vacuums:
// tests/api/db-visibility.test.ts), as autovacuum would.

let shelter: number;
const searchPlan = (text: string) => pagePlan({ search: text });

beforeAll(async () => {
  shelter = await newOrganization({ name: "Growing Rescue" });
  // Whatever the server's own setting: this table is not served by autovacuum, as on CI.
  await query(Prisma.sql`ALTER TABLE pets SET (autovacuum_enabled = off)`);
  await query(Prisma.sql`INSERT INTO pets (name, organization_id, category_id, status)
    SELECT 'Demo pet ' || g, ${BigInt(shelter)}, 1, 'available' FROM generate_series(1, 64) g`);
  await query(Prisma.sql`ANALYZE pets`);
});

afterAll(async () => {
  await query(Prisma.sql`ALTER TABLE pets RESET (autovacuum_enabled)`);
});

describe("maintain-grown-tables", () => {
  it("runs every minute", () => {
    expect(CRONTAB).toMatch(/^\* \* \* \* \* maintain-grown-tables$/m);
  });

  it("after 20,000 creates, a name search is back on the trigram index, its work as small as before the growth", async () => {
    // "pet 5" is in 11 of the 64 names (pet 5, pet 50 to pet 59) and in none of the new ones.
    const small = await searchPlan("pet 5");
    // The counts the job reads (pg_stat_user_tables) are flushed by each backend when it goes idle, up
    // to seconds later: this one flushes before it answers, so the job sees the growth at once.
    await query(Prisma.sql`WITH grown AS (INSERT INTO pets (name, organization_id, category_id, status)
      SELECT 'Soak new', ${BigInt(shelter)}, 1, 'available' FROM generate_series(1, 20000) g RETURNING 1)
      SELECT count(*)::int AS n, pg_stat_force_next_flush() FROM grown`);
    const stale = await searchPlan("pet 5");
    const { analyzed } = await maintainGrownTables();
    expect(analyzed).toContain("public.pets");
    const fresh = await searchPlan("pet 5");
    expect(fresh.indexes).toContain("pets_search_name_trgm_idx");
    // With the 64 animals' statistics the search walked past the 20,000 new ones (about 600
    // buffers here); now it reads about what it read at 64 (45 and 65 here: the 11 matches).
    expect(stale.indexes).not.toContain("pets_search_name_trgm_idx");
    expect(fresh.buffers).toBeLessThan(stale.buffers / 4);
    expect(fresh.buffers).toBeLessThan(small.buffers * 2);
  });

  it("analyzes and vacuums nothing that has not changed since", async () => {
    // Other backends' counts of earlier writes may still be on their way (flushed when they go idle):
    // once those are done, a run with nothing changed does nothing.
    const none = { analyzed: [], vacuumed: [] };
    await vi.waitFor(async () => expect(await maintainGrownTables()).toEqual(none), { timeout: 30_000, interval: 1_000 });
    expect(await maintainGrownTables()).toEqual(none);
  });
});
