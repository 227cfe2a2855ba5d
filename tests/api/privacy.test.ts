import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { matchAlerts } from "@/lib/alerts/matching";
import { db } from "@/lib/db";
import { petView } from "@/lib/pets/present";
import { newPetSchema } from "@/lib/pets/schemas/pet";
import { createPet } from "@/lib/pets/service";
import { erasePerson, exportPerson } from "@/lib/privacy/service";
import { call, createPet as createPetThroughRoute, newKey, newOrganization, seedPets } from "./helpers";
import { confirmedAlert, createAlert } from "./alerts-helpers";

// A person's data across the service (issue 27): `people export` / `people
// erase` (alias `applicants`, as before) include alerts beside
// applications, by email in any case, and nobody else's.

let key: string;
beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"], "site"));
});

async function someoneWithEverything(email: string): Promise<void> {
  const [pet] = await seedPets([{ name: "Applied for" }]);
  const applied = await call(applyRoute, `/v1/pets/${pet!.id}/applications`, {
    method: "POST",
    key,
    params: { petId: String(pet!.id) },
    json: { name: "Pat Person", email, home: "house", message: "Hello.", consent: true },
  });
  expect(applied.status).toBe(201);
  await confirmedAlert(key, email, { categoryId: 1 });
  await createAlert(key, { email, frequency: "daily", timeZone: "Europe/London", filters: { q: "Rex" } });
  await createPet(
    newPetSchema.parse({ name: "Found", categoryId: 1 }),
    { actor: { kind: "api_key", id: 1 }, requestId: "p", tenancy: { kind: "organization", organizationId: 1 } },
    petView(new Date()),
  );
  await matchAlerts(new Date());
}

describe("people export / erase", () => {
  it("export holds the person's applications and alerts (filters, frequency, dates, animals found), whatever the case typed", async () => {
    await someoneWithEverything("pat.person@example.org");
    await confirmedAlert(key, "other.person@example.org");
    const out = await exportPerson("PAT.Person@example.org");
    expect(out.email).toBe("pat.person@example.org");
    expect(out.applications).toHaveLength(1);
    expect(out.alerts).toHaveLength(2);
    expect(out.alerts[0]).toMatchObject({
      email: "pat.person@example.org",
      status: "active",
      frequency: "hourly",
      filters: { categoryId: 1 },
      animalsFound: 1,
    });
    expect(out.alerts[1]).toMatchObject({ status: "unconfirmed", frequency: "daily", timeZone: "Europe/London", filters: { q: "Rex" }, confirmedAt: null });
    expect(JSON.stringify(out)).not.toContain("other.person");
    expect(JSON.stringify(out)).not.toMatch(/sealed|token/i);
  });

  it("erase anonymises the applications and deletes the alerts with their matches; others keep theirs", async () => {
    await someoneWithEverything("erase.me@example.org");
    await confirmedAlert(key, "stays@example.org");
    expect(await erasePerson("Erase.Me@example.org")).toEqual({ applications: 1, alerts: 2, people: { erased: 0, refused: [] } });
    expect(await db().alert.count({ where: { email: "erase.me@example.org" } })).toBe(0);
    expect((await exportPerson("erase.me@example.org")).alerts).toEqual([]);
    expect(await db().alert.count({ where: { email: "stays@example.org" } })).toBe(1);
    const orphans = await db().$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM alert_matches m WHERE NOT EXISTS (SELECT 1 FROM alerts a WHERE a.id = m.alert_id)`;
    expect(orphans[0]!.n).toBe(0);
  });

  it("the CLI: `people export` and `applicants erase` (the old name) reach the same", () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", path.join(process.cwd(), "scripts", "cli.ts"), ...args], {
        env: { ...process.env, LOG_LEVEL: "silent" },
        encoding: "utf8",
        timeout: 60_000,
      });
    const exported = cli("people", "export", "--email", "pat.person@example.org");
    expect(exported.status, exported.stderr).toBe(0);
    expect((JSON.parse(exported.stdout) as { alerts: unknown[] }).alerts).toHaveLength(2);
    const dry = cli("applicants", "erase", "--email", "pat.person@example.org");
    expect(dry.stdout.trim()).toBe("1 application(s) of pat.person@example.org would be anonymised and 2 alert(s) deleted. Run again with --yes to do it.");
    const done = cli("applicants", "erase", "--email", "pat.person@example.org", "--yes");
    expect(done.stdout.trim()).toBe("Anonymised 1 application(s) and deleted 2 alert(s) of pat.person@example.org.");
  }, 120_000);
});

describe("people export / erase: organisations' people records (fosters)", () => {
  async function personOf(organizationId: number, name: string, email: string): Promise<bigint> {
    const row = await db().person.create({
      data: {
        organizationId: BigInt(organizationId),
        name,
        email,
        phone: "555 0123",
        city: "Chicago",
        country: "US",
        notes: "Private.",
        fosterStatus: "active",
        fosterCapacity: 2,
      },
      select: { id: true },
    });
    return row.id;
  }

  it("export holds the person's records in every organisation, whatever the case; erase erases each as DELETE does, but not one with an animal placed", async () => {
    const other = await newOrganization({ name: "Privacy Elsewhere" });
    const here = await personOf(1, "Fran Foster", "Fran.Foster@example.org");
    const there = await personOf(other, "Fran F.", "fran.foster@example.org");
    await personOf(1, "Someone Else", "someone.else@example.org");
    const out = await exportPerson("FRAN.FOSTER@example.org");
    expect(out.people.map((p) => [p.id, p.organizationId, p.name, p.notes])).toEqual([
      [Number(here), 1, "Fran Foster", "Private."],
      [Number(there), other, "Fran F.", "Private."],
    ]);
    expect(JSON.stringify(out)).not.toContain("Someone Else");

    // An animal placed with the record of the second organisation: that one is kept, and said so.
    const { key: writer } = await newKey(["pets:read", "pets:write"], "placing", { plan: "pro" }, other);
    const pet = await createPetThroughRoute({ name: "With Fran" }, { key: writer });
    await db().$executeRaw`
      INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at)
      SELECT ${BigInt(pet.id)}, ${BigInt(other)}, id, ${there}, now() FROM pet_stays WHERE pet_id = ${BigInt(pet.id)}`;
    const erased = await erasePerson("fran.foster@EXAMPLE.org");
    expect(erased.people).toEqual({ erased: 1, refused: [{ id: Number(there), organizationId: other, placed: 1 }] });
    const rows = await db().person.findMany({
      where: { id: { in: [here, there] } },
      orderBy: { id: "asc" },
      select: { name: true, email: true, notes: true, erasedAt: true },
    });
    expect(rows[0]).toEqual({ name: null, email: null, notes: null, erasedAt: expect.any(Date) });
    expect(rows[1]).toMatchObject({ name: "Fran F.", erasedAt: null });
    expect((await exportPerson("fran.foster@example.org")).people.map((p) => p.id)).toEqual([Number(there)]);
  });

  it("what a foster sent goes with them: export shows their applications' messages and notes; erase clears those and deletes their private link", async () => {
    const person = await personOf(1, "Noa Notes", "noa.notes@example.org");
    const { key: writer } = await newKey(["pets:read", "pets:write"], "noa's animal");
    const pet = await createPetThroughRoute({ name: "Noted" }, { key: writer });
    await db().fosterApplication.create({
      data: {
        organizationId: 1n,
        personId: person,
        message: "I work from home.",
        consentAt: new Date("2026-03-01T10:00:00Z"),
        createdAt: new Date("2026-03-01T10:00:00Z"),
        decision: "approved",
        decisionMessage: "Welcome, Noa.",
        decidedAt: new Date("2026-03-02T09:00:00Z"),
        decidedBy: "coordinator@example.org",
      },
    });
    await db().fosterNote.create({
      data: {
        organizationId: 1n,
        personId: person,
        petId: BigInt(pet.id),
        body: "Eats well; my sister visits on Sundays.",
        createdAt: new Date("2026-03-05T18:00:00Z"),
      },
    });
    await db().fosterLink.create({ data: { personId: person, tokenHash: "n".repeat(43), expiresAt: new Date(Date.now() + 86_400_000) } });

    const [exported] = (await exportPerson("noa.notes@example.org")).people;
    expect(exported).toMatchObject({
      id: Number(person),
      fosterApplications: [{ at: "2026-03-01T10:00:00.000Z", message: "I work from home.", decision: "approved" }],
      fosterNotes: [{ at: "2026-03-05T18:00:00.000Z", petId: pet.id, text: "Eats well; my sister visits on Sundays." }],
    });

    expect((await erasePerson("noa.notes@example.org")).people).toEqual({ erased: 1, refused: [] });
    expect(await db().fosterLink.count({ where: { personId: person } })).toBe(0);
    expect(await db().fosterApplication.findMany({ where: { personId: person }, select: { message: true, decision: true, decisionMessage: true } })).toEqual([
      { message: null, decision: "approved", decisionMessage: null },
    ]);
    // The note stays in the animal's history, without its words.
    expect(await db().fosterNote.findMany({ where: { personId: person }, select: { petId: true, body: true } })).toEqual([
      { petId: BigInt(pet.id), body: null },
    ]);
  });

  it("the CLI says which record it could not erase, and why", () => {
    const done = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(process.cwd(), "scripts", "cli.ts"), "people", "erase", "--email", "fran.foster@example.org", "--yes"],
      { env: { ...process.env, LOG_LEVEL: "silent" }, encoding: "utf8", timeout: 60_000 },
    );
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toMatch(
      /Not erased: person \d+ of organisation \d+ has 1 animal\(s\) placed with them\. End the placement\(s\), then run this again\./,
    );
  }, 120_000);
});
