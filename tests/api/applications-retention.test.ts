import { describe, expect, it } from "vitest";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { GET as historyRoute } from "@/app/v1/pets/[petId]/history/route";
import { anonymiseExpiredApplications, eraseApplicant, exportApplicant } from "@/lib/applications/retention";
import { db } from "@/lib/db";
import { call, expectJson, newKey, seedPets, staffSession } from "./helpers";

// Personal data kept no longer than needed: closed applications anonymised
// after the retention period (180 days), completed ones keeping the
// adopter's name and contact but not the free text; export and erasure on
// request; the animals' history untouched.

const DAY = 86_400_000;

async function applyAs(petId: number, email: string, key: string): Promise<bigint> {
  const res = await call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    key,
    params: { petId: String(petId) },
    json: { name: "Jo Private", email, phone: "+1 555 0100", home: "flat", otherAnimals: "A parrot", message: "Private reasons.", consent: true },
  });
  return BigInt((await expectJson<{ id: number }>(res, 201)).id);
}

const setState = (id: bigint, state: "declined" | "withdrawn" | "cancelled" | "completed" | "received", daysAgo: number) =>
  db().adoptionApplication.update({ where: { id }, data: { state, updatedAt: new Date(Date.now() - daysAgo * DAY) } });

describe("retention", () => {
  it("anonymises closed applications past 180 days, trims completed ones, leaves open and recent ones", async () => {
    const { key } = await newKey(["pets:read", "applications:write"], "forwarder");
    const pets = await seedPets([{}, {}, {}, {}, {}]);
    const [oldDeclined, recentWithdrawn, oldCompleted, oldOpen, oldCancelled] = await Promise.all(pets.map((p, i) => applyAs(p.id, `r${i}@example.org`, key)));
    await setState(oldDeclined!, "declined", 200);
    await setState(recentWithdrawn!, "withdrawn", 10);
    await setState(oldCompleted!, "completed", 400);
    await setState(oldOpen!, "received", 300);
    await setState(oldCancelled!, "cancelled", 181);

    expect(await anonymiseExpiredApplications(new Date())).toEqual({ anonymised: 2, trimmed: 1 });
    const row = (id: bigint) => db().adoptionApplication.findUniqueOrThrow({ where: { id } });
    for (const id of [oldDeclined!, oldCancelled!]) {
      expect(await row(id)).toMatchObject({
        name: null,
        email: null,
        phone: null,
        home: null,
        otherAnimals: null,
        message: null,
        anonymisedAt: expect.any(Date),
      });
    }
    expect(await row(oldCompleted!)).toMatchObject({
      name: "Jo Private",
      email: "r2@example.org",
      phone: "+1 555 0100",
      otherAnimals: null,
      message: null,
      anonymisedAt: null,
    });
    for (const id of [recentWithdrawn!, oldOpen!]) expect(await row(id)).toMatchObject({ name: "Jo Private", message: "Private reasons." });
    // Running again finds nothing more to do.
    expect(await anonymiseExpiredApplications(new Date())).toEqual({ anonymised: 0, trimmed: 0 });
  });
});

describe("access and erasure on request", () => {
  it("export lists everything held about one email (any case); erase anonymises it and withdraws what is undecided; the animal's history stays", async () => {
    const { key } = await newKey(["pets:read", "applications:write"], "forwarder 2");
    const staff = await staffSession();
    const [a, b] = await seedPets([{ name: "Erase A" }, { name: "Erase B" }]);
    const first = await applyAs(a!.id, "Subject@Example.org", key);
    await applyAs(b!.id, "subject@example.org", key);
    await applyAs(b!.id, "someone.else@example.org", key);

    const exported = await exportApplicant("SUBJECT@example.org");
    expect(exported.applications.map((x) => x.pet.name).sort()).toEqual(["Erase A", "Erase B"]);
    expect(exported.applications[0]).toMatchObject({
      name: "Jo Private",
      phone: "+1 555 0100",
      message: "Private reasons.",
      steps: [{ from: null, to: "received" }],
    });

    const historyBefore = await call(historyRoute, `/v1/pets/${a!.id}/history`, { headers: staff.headers, params: { petId: String(a!.id) } });
    expect(await eraseApplicant("subject@EXAMPLE.org")).toBe(2);
    expect((await exportApplicant("subject@example.org")).applications).toEqual([]);
    const erased = await db().adoptionApplication.findUniqueOrThrow({ where: { id: first }, include: { steps: true } });
    expect(erased).toMatchObject({ state: "withdrawn", name: null, email: null, message: null, anonymisedAt: expect.any(Date) });
    expect(erased.steps.at(-1)).toMatchObject({ fromState: "received", toState: "withdrawn", actorKind: "system" });
    expect((await exportApplicant("someone.else@example.org")).applications).toHaveLength(1);
    const historyAfter = await call(historyRoute, `/v1/pets/${a!.id}/history`, { headers: staff.headers, params: { petId: String(a!.id) } });
    expect(await historyAfter.json()).toEqual(await historyBefore.json());
  });
});
