import { beforeAll, describe, expect, it } from "vitest";
import { GET as dashboardRoute } from "@/app/v1/dashboard/route";
import type { Dashboard } from "@/lib/dashboard/schemas";
import { db } from "@/lib/db";
import { call, expectJson, newKey, newOrganization, seedPets, staffSession, type StaffSession } from "./helpers";
import { confirmedAlert, createAlert } from "./alerts-helpers";

// "What adopters are waiting for" on the staff dashboard: confirmed alerts
// (paused ones count: those people still wait) grouped by what a shelter may
// see of them (category, sex, size, age, good-with and an area's radius),
// how many people, and how many available animals match each now. Never an
// area's place nor a name searched for, and only groups of at least 3 people:
// else a shelter could move its own location and read the dashboard again to
// map one adopter's alerts. Each shelter sees the alerts whose area holds it
// or that have no area, and counts its own animals; a platform admin sees
// everything. Counts only.

let evanston: number;
let nome: number;
const staff: Record<string, StaffSession> = {};

const read = async (who: StaffSession) => (await expectJson<Dashboard>(await call(dashboardRoute, "/v1/dashboard", { headers: who.headers }))).waitingFor;

beforeAll(async () => {
  const { key } = await newKey(["pets:read", "applications:write"], "site");
  evanston = await newOrganization({ name: "Evanston Friends", lat: 42.0451, lng: -87.6877 });
  nome = await newOrganization({ name: "Nome Rescue", lat: 64.5011, lng: -165.4064 });
  const smallDogsNearChicago = { categoryId: 1, size: "small", near: "60601", within: "25mi" };
  for (let i = 0; i < 4; i++) await confirmedAlert(key, `dog${i}@example.org`, smallDogsNearChicago);
  await createAlert(key, { email: "unconfirmed@example.org", filters: smallDogsNearChicago });
  for (let i = 0; i < 2; i++) await confirmedAlert(key, `cat${i}@example.org`, { categoryId: 2 });
  await confirmedAlert(key, "paused.cat@example.org", { categoryId: 2 });
  await db().alert.updateMany({ where: { email: "paused.cat@example.org" }, data: { status: "paused" } });
  // Three searches for dogs by name: one group, "Dogs", whatever the names.
  for (const name of ["Rexford", "Bellamy", "Maxine"]) await confirmedAlert(key, `${name.toLowerCase()}@example.org`, { categoryId: 1, q: name });
  // Three small cats around three places within 10 km of Evanston's shelter: one group, by its radius only.
  for (const [i, near] of ["42.0612,-87.6755", "60201", "42.0333,-87.7001"].entries()) {
    await confirmedAlert(key, `small.cat${i}@example.org`, { categoryId: 2, size: "small", near, within: "10km" });
  }
  // Fewer than three people: never shown, however precise.
  await confirmedAlert(key, "nome@example.org", { near: "99762", within: "25mi" });
  for (let i = 0; i < 2; i++) await confirmedAlert(key, `doorstep${i}@example.org`, { categoryId: 3, near: "42.04513,-87.68779", within: "1km" });
  await seedPets([
    { name: "Small dog 1", categoryId: 1, size: "small", organizationId: evanston },
    { name: "Small dog 2", categoryId: 1, size: "small", organizationId: evanston },
    { name: "Adopted small dog", categoryId: 1, size: "small", status: "sold", organizationId: evanston },
    { name: "Big dog", categoryId: 1, size: "large", organizationId: evanston },
    { name: "Evanston cat", categoryId: 2, organizationId: evanston },
    { name: "Small Evanston cat", categoryId: 2, size: "small", organizationId: evanston },
    { name: "Nome cat", categoryId: 2, organizationId: nome },
    { name: "Nome small dog", categoryId: 1, size: "small", organizationId: nome },
  ]);
  staff.evanston = await staffSession(undefined, { organizationId: evanston });
  staff.nome = await staffSession(undefined, { organizationId: nome });
  staff.platform = await staffSession(undefined, { platformAdmin: true });
});

describe("GET /v1/dashboard waitingFor", () => {
  it("a shelter sees the groups of at least 3 whose area holds it or that have none, most people first, with its own animals that match now", async () => {
    expect(await read(staff.evanston!)).toEqual([
      { filters: { categoryId: 1, size: "small", within: "25mi" }, description: "Dogs · small · within 25 mi", people: 4, availableNow: 2 },
      { filters: { categoryId: 1 }, description: "Dogs", people: 3, availableNow: 3 },
      { filters: { categoryId: 2 }, description: "Cats", people: 3, availableNow: 2 },
      { filters: { categoryId: 2, size: "small", within: "10km" }, description: "Cats · small · within 10 km", people: 3, availableNow: 1 },
    ]);
  });

  it("another shelter, elsewhere, sees the groups without an area; its own area's alert is one person's, so it is not shown", async () => {
    expect(await read(staff.nome!)).toEqual([
      { filters: { categoryId: 1 }, description: "Dogs", people: 3, availableNow: 1 },
      { filters: { categoryId: 2 }, description: "Cats", people: 3, availableNow: 1 },
    ]);
  });

  it("a platform admin sees every group of at least 3, counting every shelter's animals in the area of one of its alerts", async () => {
    const all = await read(staff.platform!);
    expect(all.map((w) => [w.description, w.people, w.availableNow])).toEqual([
      ["Dogs · small · within 25 mi", 4, 2],
      ["Dogs", 3, 4],
      ["Cats", 3, 3],
      ["Cats · small · within 10 km", 3, 1],
    ]);
  });

  it("never names anyone, a place or a name searched for", async () => {
    for (const who of Object.values(staff)) {
      const text = await (await call(dashboardRoute, "/v1/dashboard", { headers: who.headers })).text();
      expect(text).not.toMatch(/@example\.org|…@|60601|60201|99762|42\.0|87\.6|87\.7|Rexford|Bellamy|Maxine|"near"|"q"/);
      const { waitingFor } = JSON.parse(text) as Dashboard;
      for (const w of waitingFor)
        expect(Object.keys(w.filters).every((k) => ["categoryId", "sex", "size", "ageGroup", "goodWith", "within"].includes(k))).toBe(true);
    }
  });
});
