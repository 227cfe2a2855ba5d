import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pagePlan } from "./page-plan";

// Under a stream of creates and no VACUUM (autovacuum off, as CI runs
// PostgreSQL), a name search must cost what it did. The trigram index takes
// new entries into a pending list that every search reads whole, merged into
// the index only when it overflows: at GIN's default 4 MB that was up to 512
// pages more per search, and the one query of the soak (npm run bench --
// --soak) whose work grew with time. The work is counted in shared buffers
// (EXPLAIN (ANALYZE, BUFFERS)), which unlike time does not depend on how busy
// the machine is. docs/decisions/022.

const searchWork = async () => (await pagePlan({ search: "pet 500" })).buffers;

describe("a name search under a stream of creates", () => {
  it("reads no more after 5,000 new animals than before them", async () => {
    await db().$executeRaw`
      INSERT INTO pets (name, organization_id, category_id, status)
      SELECT 'Bench pet ' || g, 1, 1 + g % 6, (ARRAY['available', 'pending', 'sold']::"PetStatus"[])[1 + g % 3]
      FROM generate_series(1, 10000) AS g`;
    await db().$executeRawUnsafe("VACUUM ANALYZE pets");
    const before = await searchWork();
    // New animals arriving as creates do, a statement each (the API's shape: each its own insert into the index).
    for (let i = 0; i < 50; i++) {
      await db().$executeRaw`
        INSERT INTO pets (name, organization_id, category_id)
        SELECT 'Newcomer ' || ${i}::int || '-' || g, 1, 1 FROM generate_series(1, 100) AS g`;
    }
    const after = await searchWork();
    // With the default 4 MB pending list: about 5x (76 buffers, then 375).
    expect(after / before).toBeLessThan(1.3);
  }, 60_000);
});
