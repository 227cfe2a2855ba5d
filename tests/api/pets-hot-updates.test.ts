import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "@/tests/wait";
import { PATCH as patchRoute } from "@/app/v1/pets/[petId]/route";
import { db } from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectJson, newKey } from "./helpers";

// A change that touches no indexed column is a HOT update (heap-only tuple):
// PostgreSQL writes the new row version on the same page and no index entry
// at all, and later reads and updates prune the old versions without a
// VACUUM. `version`, which every change bumps, used to be an included column
// of two covering indexes, so no update of an animal was ever HOT: each wrote
// a new entry in every one of the table's indexes, and under a steady stream
// of changes to one animal the dead versions and their index entries piled
// up until a VACUUM (docs/decisions/022). Read from PostgreSQL's own counters
// (pg_stat_user_tables) on the real database, through the API's write path.
//
// A change of the name (the name search's trigram index) or the status (every
// status filter's index) changes an indexed column and can never be HOT; see
// the decision.

let key: string;

interface PetsCounters {
  updates: number;
  hot: number;
}

/** pets' update counters, as PostgreSQL counts them. */
async function counters(): Promise<PetsCounters> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ upd: string; hot: string }>(
      "SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'pets'",
    );
    return { updates: Number(rows[0]!.upd), hot: Number(rows[0]!.hot) };
  } finally {
    await client.end();
  }
}

/**
 * The counters once `updates` more updates than `from` are counted. A backend
 * reports its table statistics when it goes idle, at most once a second, and
 * otherwise within 10 s (PostgreSQL 15): the app's connections report theirs
 * a little after the requests.
 */
async function countersAfter(from: PetsCounters, updates: number): Promise<PetsCounters> {
  return until(
    `${updates} more updates of pets to be counted`,
    async () => {
      const now = await counters();
      return now.updates - from.updates >= updates && now;
    },
    30_000,
  );
}

const patch = (id: number, json: unknown) => call(patchRoute, `/v1/pets/${id}`, { method: "PATCH", key, json, params: { petId: String(id) } });

/** Changes to the profile that no index reads (staff editing an animal's page), each a real change (a new version). */
const EDITS: ((n: number) => Record<string, unknown>)[] = [
  (n) => ({ description: `Edited ${n} times: calm, friendly and curious.` }),
  (n) => ({ breed: `Labrador Retriever ${n}` }),
  (n) => ({ adoptionFee: { amountCents: 10_000 + n, currency: "USD" } }),
  (n) => ({ tags: [`Tag ${n}`] }),
  (n) => ({ colors: [`Colour ${n}`] }),
  (n) => ({ shotsCurrent: Math.floor(n / 6) % 2 === 0 }),
];

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "hot updates"));
});

describe("an update that changes no indexed column is a HOT update", () => {
  it("300 changes to one animal's profile through PATCH /v1/pets/{id}: HOT, the old versions pruned on the way", async () => {
    const pet = await db().pet.create({ data: { name: "Often Edited", categoryId: 1n, organizationId: 1n } });
    const before = await counters();
    const N = 300;
    let last: Pet | undefined;
    for (let n = 1; n <= N; n++) last = await expectJson<Pet>(await patch(Number(pet.id), EDITS[n % EDITS.length]!(n)));
    expect(last!.version).toBe(N + 1);
    const after = await countersAfter(before, N);
    expect(after.updates - before.updates).toBe(N);
    // Each version written on the same page, the old ones pruned as it fills, no index touched. (Pruning can
    // only remove versions no transaction may still see: one that another database's transaction keeps
    // alive a moment longer may leave no room for the next, so a few may go to another page.)
    expect(after.hot - before.hot).toBeGreaterThanOrEqual(0.95 * N);
  }, 60_000);

  it("the first change of an animal on a page full of others finds room there: the table keeps a tenth of each page free", async () => {
    // 2,000 animals inserted one after another fill their pages as far as the table lets them.
    const { count } = await db().pet.createMany({
      data: Array.from({ length: 2_000 }, (_, i) => ({
        name: `Packed ${i}`,
        categoryId: 1n,
        organizationId: 1n,
        description: "Friendly; walks well on a lead.",
      })),
    });
    expect(count).toBe(2_000);
    // One animal of each page: nothing else on its page has changed, so there is nothing to prune, and only
    // the room left at insert can take its new version.
    const onePerPage = await db().$queryRaw<{ id: bigint }[]>`
      SELECT DISTINCT ON ((ctid::text::point)[0]) id FROM pets WHERE name LIKE 'Packed %' ORDER BY (ctid::text::point)[0], id`;
    expect(onePerPage.length).toBeGreaterThan(40);
    const before = await counters();
    for (const { id } of onePerPage) await expectJson<Pet>(await patch(Number(id), { description: "Friendly; walks well on a lead, and loves the car." }));
    const after = await countersAfter(before, onePerPage.length);
    expect(after.updates - before.updates).toBe(onePerPage.length);
    // With full pages (fillfactor 100) almost none would be.
    expect((after.hot - before.hot) / onePerPage.length).toBeGreaterThanOrEqual(0.9);
  }, 60_000);
});
