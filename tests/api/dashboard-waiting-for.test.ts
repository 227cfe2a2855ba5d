import { beforeAll, describe, expect, it } from "vitest";
import { GET as dashboardRoute } from "@/app/v1/dashboard/route";
import type { Dashboard } from "@/lib/dashboard/schemas";
import { db } from "@/lib/db";
import { call, expectJson, newKey, newOrganization, seedPets, staffSession, type StaffSession } from "./helpers";
import { confirmedAlert, createAlert } from "./alerts-helpers";

// "What adopters are waiting for" on the staff dashboard: the most common
// filters of confirmed alerts (paused ones count: those people still wait),
// how many people, and how many available animals match each now. Each
// shelter sees the alerts whose area holds it or that have no area, and
// counts its own animals; a platform admin sees everything. Counts only.

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
  await confirmedAlert(key, "nome@example.org", { near: "99762", within: "25mi" });
  await seedPets([
    { name: "Small dog 1", categoryId: 1, size: "small", organizationId: evanston },
    { name: "Small dog 2", categoryId: 1, size: "small", organizationId: evanston },
    { name: "Adopted small dog", categoryId: 1, size: "small", status: "sold", organizationId: evanston },
    { name: "Big dog", categoryId: 1, size: "large", organizationId: evanston },
    { name: "Evanston cat", categoryId: 2, organizationId: evanston },
    { name: "Nome cat", categoryId: 2, organizationId: nome },
    { name: "Nome small dog", categoryId: 1, size: "small", organizationId: nome },
  ]);
  staff.evanston = await staffSession(undefined, { organizationId: evanston });
  staff.nome = await staffSession(undefined, { organizationId: nome });
  staff.platform = await staffSession(undefined, { platformAdmin: true });
});

describe("GET /v1/dashboard waitingFor", () => {
  it("a shelter sees the searches whose area holds it or that have none, most people first, with its own animals that match now", async () => {
    expect(await read(staff.evanston!)).toEqual([
      { filters: { categoryId: 1, size: "small", near: "60601", within: "25mi" }, description: "Dogs · small · within 25 mi of 60601", people: 4, availableNow: 2 },
      { filters: { categoryId: 2 }, description: "Cats", people: 3, availableNow: 1 },
    ]);
  });

  it("another shelter, elsewhere, sees its own area's searches and the ones without an area", async () => {
    expect(await read(staff.nome!)).toEqual([
      { filters: { categoryId: 2 }, description: "Cats", people: 3, availableNow: 1 },
      { filters: { near: "99762", within: "25mi" }, description: "All animals · within 25 mi of 99762", people: 1, availableNow: 2 },
    ]);
  });

  it("a platform admin sees every search, counting every shelter's animals", async () => {
    const all = await read(staff.platform!);
    expect(all.map((w) => [w.description, w.people, w.availableNow])).toEqual([
      ["Dogs · small · within 25 mi of 60601", 4, 2],
      ["Cats", 3, 2],
      ["All animals · within 25 mi of 99762", 1, 2],
    ]);
  });

  it("never names anyone", async () => {
    const res = await call(dashboardRoute, "/v1/dashboard", { headers: staff.platform!.headers });
    expect(await res.text()).not.toMatch(/@example\.org|…@/);
  });
});
