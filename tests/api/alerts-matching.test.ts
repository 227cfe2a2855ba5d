import { beforeAll, describe, expect, it } from "vitest";
import { matchAlerts, matchOnePetSql } from "@/lib/alerts/matching";
import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { petView } from "@/lib/pets/present";
import { newPetSchema, type NewPetInput } from "@/lib/pets/schemas/pet";
import { createPet, updatePet } from "@/lib/pets/service";
import { PLATFORM } from "@/lib/organizations/tenancy";
import { FIRST_ORG, newKey, newOrganization } from "./helpers";
import { confirmedAlert, createAlert, tokenOf } from "./alerts-helpers";

// Matching (issue 27): when an animal arrives (created available, or
// available again), every active alert whose filters it meets gets it
// queued, found from the change feed by the matcher's one statement, each
// event once. Each filter is checked on its own, then the area (near/within)
// by the shelter's place; the plan is pinned to the indexes.

let key: string;
let evanston: number;
let nome: number;
let unplaced: number;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"], "site"));
  // About 18.6 km (11.6 mi) from ZIP 60601's centre.
  evanston = await newOrganization({ name: "Evanston Friends", lat: 42.0451, lng: -87.6877 });
  nome = await newOrganization({ name: "Nome Rescue", lat: 64.5011, lng: -165.4064 });
  unplaced = FIRST_ORG; // the first organisation has no place yet
});

let seq = 0;
async function intake(fields: Partial<NewPetInput>, organizationId = evanston): Promise<number> {
  const pet = await createPet(
    newPetSchema.parse({ name: `Animal ${++seq}`, categoryId: 1, ...fields }),
    { actor: { kind: "api_key", id: 1 }, requestId: `intake-${seq}`, tenancy: { kind: "organization", organizationId } },
    petView(new Date()),
  );
  return pet.id;
}

async function alertId(email: string): Promise<bigint> {
  return (await db().alert.findFirstOrThrow({ where: { email }, orderBy: { id: "desc" }, select: { id: true } })).id;
}

/** The alerts (by email) that have this animal queued. */
async function alertsFor(petId: number): Promise<string[]> {
  const rows = await db().alertMatch.findMany({ where: { petId: BigInt(petId) }, select: { alert: { select: { email: true } } } });
  return rows.map((r) => r.alert.email).sort();
}

const birth = (yearsAgo: number) => new Date(Date.now() - yearsAgo * 365.25 * 86_400_000).toISOString().slice(0, 10);

describe("each filter", () => {
  beforeAll(async () => {
    await confirmedAlert(key, "all@example.org");
    await confirmedAlert(key, "dogs@example.org", { categoryId: 1 });
    await confirmedAlert(key, "cats@example.org", { categoryId: 2 });
    await confirmedAlert(key, "female@example.org", { sex: "female" });
    await confirmedAlert(key, "small@example.org", { size: "small" });
    await confirmedAlert(key, "baby@example.org", { ageGroup: "baby" });
    await confirmedAlert(key, "kids-cats@example.org", { goodWith: ["children", "cats"] });
    await confirmedAlert(key, "bis@example.org", { q: "bis" });
    await confirmedAlert(key, "near25@example.org", { near: "60601", within: "25mi" });
    await confirmedAlert(key, "near10@example.org", { near: "60601", within: "10mi" });
    await confirmedAlert(key, "near-default@example.org", { near: "41.8858,-87.6181" });
    await confirmedAlert(key, "combo@example.org", { categoryId: 1, size: "small", goodWith: ["children"], near: "60601", within: "25mi" });
    await createAlert(key, { email: "unconfirmed@example.org" });
    const paused = await confirmedAlert(key, "paused@example.org");
    await db().alert.update({
      where: { tokenHash: (await db().alert.findFirstOrThrow({ where: { email: "paused@example.org" } })).tokenHash },
      data: { status: "paused" },
    });
    expect(paused).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a plain dog at Evanston: the alerts without other conditions, the dog alerts, the areas that reach Evanston", async () => {
    const pet = await intake({ name: "Rex", categoryId: 1 });
    await matchAlerts(new Date());
    expect(await alertsFor(pet)).toEqual(["all@example.org", "dogs@example.org", "near-default@example.org", "near25@example.org"]);
  });

  it("sex, size, age group, goodWith and name each narrow it", async () => {
    const pet = await intake({
      name: "Biscuit",
      categoryId: 2,
      sex: "female",
      size: "small",
      birthDate: birth(0.5),
      goodWith: { children: true, cats: true, dogs: false },
    });
    await matchAlerts(new Date());
    expect(await alertsFor(pet)).toEqual(
      [
        "all@example.org",
        "baby@example.org",
        "bis@example.org",
        "cats@example.org",
        "female@example.org",
        "kids-cats@example.org",
        "near-default@example.org",
        "near25@example.org",
        "small@example.org",
      ].sort(),
    );
    const other = await intake({ name: "Oscar", categoryId: 2, sex: "male", size: "large", birthDate: birth(5), goodWith: { children: true, cats: false } });
    await matchAlerts(new Date());
    expect(await alertsFor(other)).toEqual(["all@example.org", "cats@example.org", "near-default@example.org", "near25@example.org"]);
  });

  it("the combination needs every part, the area included", async () => {
    const match = await intake({ name: "Pip", categoryId: 1, size: "small", goodWith: { children: true } });
    const far = await intake({ name: "Pip far", categoryId: 1, size: "small", goodWith: { children: true } }, nome);
    const nowhere = await intake({ name: "Pip nowhere", categoryId: 1, size: "small", goodWith: { children: true } }, unplaced);
    await matchAlerts(new Date());
    expect(await alertsFor(match)).toContain("combo@example.org");
    // Far away, or at a shelter whose place is unknown: only the alerts without an area.
    expect(await alertsFor(far)).toEqual(["all@example.org", "dogs@example.org", "small@example.org"]);
    expect(await alertsFor(nowhere)).toEqual(["all@example.org", "dogs@example.org", "small@example.org"]);
  });

  it("an animal created pending or sold is not news; one that becomes available again is, once; other changes are not", async () => {
    const pending = await intake({ name: "Later", status: "pending" });
    await matchAlerts(new Date());
    expect(await alertsFor(pending)).toEqual([]);
    const options = { actor: { kind: "api_key" as const, id: 1 }, requestId: "back", tenancy: PLATFORM, view: petView(new Date()) };
    await updatePet(pending, { name: "Later renamed" }, options);
    await matchAlerts(new Date());
    expect(await alertsFor(pending)).toEqual([]);
    await updatePet(pending, { status: "available" }, options);
    await matchAlerts(new Date());
    expect(await alertsFor(pending)).toContain("all@example.org");
    await updatePet(pending, { description: "Still here" }, options);
    await matchAlerts(new Date());
    const all = await alertId("all@example.org");
    expect(await db().alertMatch.count({ where: { alertId: all, petId: BigInt(pending) } })).toBe(1);
  });

  it("an animal adopted before the matcher ran matches nothing", async () => {
    const gone = await intake({ name: "Quick" });
    await updatePet(gone, { status: "sold" }, { actor: { kind: "api_key", id: 1 }, requestId: "gone", tenancy: PLATFORM, view: petView(new Date()) });
    await matchAlerts(new Date());
    expect(await alertsFor(gone)).toEqual([]);
  });
});

describe("the feed is read once", () => {
  it("two matchers at once: one works, the other finds the lock taken; the mark moves to the feed's end; no animal is queued twice", async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, (_, i) => intake({ name: `Twin ${i}` })));
    // The events waiting (each animal's arrival, and whatever else its creation announced).
    const [waiting] = await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM events WHERE position > (SELECT position FROM event_marks WHERE name = 'matched')`;
    const [a, b] = await Promise.all([matchAlerts(new Date()), matchAlerts(new Date())]);
    // Overlapping, one finds the lock taken; one after the other (a loaded machine), the second reads nothing: never both
    // (even when the second's snapshot predates the first's commit: tests/api/feed-reader.test.ts).
    expect(a.busy || b.busy || a.events + b.events === waiting!.n, JSON.stringify({ a, b, waiting })).toBe(true);
    await matchAlerts(new Date());
    const all = await alertId("all@example.org");
    for (const id of ids) expect(await db().alertMatch.count({ where: { alertId: all, petId: BigInt(id) } })).toBe(1);
    const [mark] = await db().$queryRaw<{ position: bigint }[]>`SELECT position FROM event_marks WHERE name = 'matched'`;
    const [last] = await db().$queryRaw<{ position: bigint }[]>`SELECT max(position) AS position FROM events`;
    expect(mark!.position).toBe(last!.position);
  });

  it("an alert confirmed after an animal arrived does not get that animal", async () => {
    const before = await intake({ name: "Early" });
    await confirmedAlert(key, "late@example.org");
    await matchAlerts(new Date());
    expect(await alertsFor(before)).not.toContain("late@example.org");
    expect(await tokenOf("late@example.org")).toBeTruthy();
  });
});

describe("the plan", () => {
  it("finds an animal's alerts through the two indexes, not by reading every alert", async () => {
    // 20,000 confirmed alerts, most with an area spread over the US, some without.
    await db().$executeRaw`
      INSERT INTO alerts (email, inbox, token_hash, sealed_token, status, frequency, filters, category_id, size, good_with_mask, near_lat, near_lng, within_chord, consent_at, confirmed_at)
      SELECT 'bulk' || g || '@example.org', 'bulk' || g || '@example.org', lpad(g::text, 43, 'x'), 'x', 'active', 'hourly', '{}'::jsonb,
             CASE WHEN g % 3 = 0 THEN NULL ELSE 1 + g % 4 END, CASE WHEN g % 5 = 0 THEN 'small'::"PetSize" END, (g % 2)::smallint,
             CASE WHEN g % 10 < 8 THEN 25 + (g * 7919 % 2300) / 100.0 END, CASE WHEN g % 10 < 8 THEN -124 + (g * 104729 % 5700) / 100.0 END,
             CASE WHEN g % 10 < 8 THEN 40000 END, now(), now() - interval '1 day'
        FROM generate_series(1, 20000) g`;
    await db().$executeRawUnsafe("ANALYZE alerts");
    const pet = await intake({ name: "Planned", categoryId: 3 });
    const sql = matchOnePetSql(pet, new Date());
    const [row] = await query<{ "QUERY PLAN": unknown }>(Prisma.sql`EXPLAIN (FORMAT JSON) ${sql}`);
    const plan = JSON.stringify(row!["QUERY PLAN"]);
    expect(plan).toContain("alerts_active_area_idx");
    expect(plan).toContain("alerts_active_anywhere_idx");
    const scans: string[] = [];
    const walk = (node: { "Node Type"?: string; "Relation Name"?: string; Plans?: unknown[]; Plan?: unknown }) => {
      if (node["Relation Name"] === "alerts") scans.push(node["Node Type"]!);
      for (const child of [node.Plan, ...(node.Plans ?? [])]) if (child) walk(child as typeof node);
    };
    for (const top of row!["QUERY PLAN"] as unknown[]) walk(top as Parameters<typeof walk>[0]);
    expect(scans.length).toBeGreaterThan(0);
    expect(scans).not.toContain("Seq Scan");
  });
});
