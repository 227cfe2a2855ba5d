import { beforeAll, describe, expect, it } from "vitest";
import { GET as monthlyRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly/route";
import { GET as monthlyCsvRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly.csv/route";
import { GET as networkRoute } from "@/app/v1/reports/monthly/route";
import { db } from "@/lib/db";
import { SPECIES, type MonthlyReport } from "@/lib/reports/schemas";
import { call, expectJson, newKey, newOrganization, seedPets, staffSession } from "./helpers";

// The monthly report's foster counts (issue 50, docs/decisions/028): of the
// animals in care when a month begins (ends), those in a foster home then, by
// the beginning count's own rule (the shelter's days: a placement begun on an
// earlier day and not ended before the first day). Placements are written
// straight into pet_placements, inside a stay, as any writer would.

let categories: Record<string, number>;

beforeAll(async () => {
  const rows = await db().category.findMany({ select: { id: true, name: true } });
  categories = Object.fromEntries(rows.map((r) => [r.name, Number(r.id)]));
});

async function shelter(timeZone: string): Promise<{ org: number; key: string }> {
  const org = await newOrganization();
  await db().organization.update({ where: { id: BigInt(org) }, data: { timeZone } });
  const { key } = await newKey(["records:read"], "reports", { plan: "pro" }, org);
  return { org, key };
}

async function animal(org: number, category = "Dogs"): Promise<number> {
  const [pet] = await seedPets([{ organizationId: org, categoryId: categories[category]! }]);
  return pet!.id;
}

async function stay(org: number, pet: number, intakeAt: string, outcome?: { at: string; type: string }): Promise<number> {
  const [row] = await db().$queryRaw<{ id: bigint }[]>`
    INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, outcome_at, outcome_type)
    VALUES (${BigInt(pet)}, ${BigInt(org)}, ${intakeAt}::timestamptz, 'stray', ${outcome?.at ?? null}::timestamptz, ${outcome?.type ?? null}::"OutcomeType")
    RETURNING id`;
  return Number(row!.id);
}

async function placement(org: number, pet: number, stayId: number, startAt: string, endAt?: string): Promise<void> {
  await db().$executeRaw`
    INSERT INTO pet_placements (pet_id, organization_id, stay_id, start_at, end_at, end_reason)
    VALUES (${BigInt(pet)}, ${BigInt(org)}, ${BigInt(stayId)}, ${startAt}::timestamptz, ${endAt ?? null}::timestamptz,
            ${endAt ? "returnedToShelter" : null}::"PlacementEndReason")`;
}

async function report(org: number, key: string, query: string): Promise<MonthlyReport> {
  return expectJson<MonthlyReport>(
    await call(monthlyRoute, `/v1/organizations/${org}/reports/monthly?${query}`, { key, params: { organizationId: String(org) } }),
  );
}

/** Everything of a report but its foster counts. */
function withoutFosters(r: MonthlyReport): unknown {
  return r.months.map((m) => ({
    month: m.month,
    species: Object.fromEntries(SPECIES.map((s) => [s, { ...m.species[s], beginningFosterCount: undefined, endingFosterCount: undefined }])),
  }));
}

describe("foster counts across a month's end", () => {
  it("the shelter's days decide: a placement begun at 22:00 on 30 June in Los Angeles is in July's beginning count; one ended on 1 August is in August's; one begun on 1 July is not in July's", async () => {
    const { org, key } = await shelter("America/Los_Angeles");
    // Each animal in care from June to September (Los Angeles days).
    const pets = [await animal(org), await animal(org), await animal(org), await animal(org, "Cats")];
    const stays = [];
    for (const pet of pets) stays.push(await stay(org, pet, "2021-06-05T19:00:00Z", { at: "2021-09-20T19:00:00Z", type: "adoption" }));
    // 22:00 on 30 June in Los Angeles = 05:00 UTC on 1 July: June's day there, so in foster when July began; back at 10:00 on 1 August: still there when August began.
    await placement(org, pets[0]!, stays[0]!, "2021-07-01T05:00:00Z", "2021-08-01T17:00:00Z");
    // 00:30 on 1 July in Los Angeles (07:30 UTC): begun on July's first day, so not in July's beginning count; out until the adoption.
    await placement(org, pets[1]!, stays[1]!, "2021-07-01T07:30:00Z", "2021-09-20T19:00:00Z");
    // 23:00 on 31 July in Los Angeles (06:00 UTC on 1 August): in foster when August began, ended in August.
    await placement(org, pets[2]!, stays[2]!, "2021-06-20T19:00:00Z", "2021-07-31T18:00:00Z");
    await placement(org, pets[2]!, stays[2]!, "2021-08-01T06:00:00Z", "2021-08-10T18:00:00Z");
    // A cat placed in June and still out when its stay ends in September: the outcome ends the placement.
    await placement(org, pets[3]!, stays[3]!, "2021-06-10T19:00:00Z", "2021-09-20T19:00:00Z");

    const { months } = await report(org, key, "from=2021-06&to=2021-10");
    const dogs = months.map((m) => [m.species.dog.beginningFosterCount, m.species.dog.endingFosterCount]);
    // June begins with none; July with pets[0] and pets[2] (its first placement); August with pets[0] (ended on 1 August), pets[1] and pets[2]'s second; September with pets[1].
    expect(dogs).toEqual([
      [0, 2],
      [2, 3],
      [3, 1],
      [1, 0],
      [0, 0],
    ]);
    expect(months.map((m) => m.species.cat.beginningFosterCount)).toEqual([0, 1, 1, 1, 0]);
    // The same instants in a UTC shelter: pets[0]'s placement begins on 1 July there, so it is not in July's beginning count.
    const utc = await shelter("UTC");
    const pet = await animal(utc.org);
    const stayId = await stay(utc.org, pet, "2021-06-05T19:00:00Z");
    await placement(utc.org, pet, stayId, "2021-07-01T05:00:00Z");
    expect((await report(utc.org, utc.key, "from=2021-07&to=2021-07")).months[0]!.species.dog).toMatchObject({ beginningFosterCount: 0, endingFosterCount: 1 });
  });

  it("counts only animals the beginning count counts, each once; endingFosterCount is the next month's beginningFosterCount", async () => {
    const { org, key } = await shelter("America/New_York");
    // Random stays with placements inside them, and an independent count by New York's calendar.
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(d);
    const placed: { from: Date; to: Date | null; stayFrom: Date; stayTo: Date | null }[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed / 2 ** 31);
    const hour = 3_600_000;
    for (let i = 0; i < 30; i++) {
      const pet = await animal(org, ["Dogs", "Cats", "Rabbits"][i % 3]!);
      const from = Date.UTC(2020, 0, 1) + Math.floor(random() * 300 * 24) * hour;
      const to = i % 5 === 0 ? null : from + Math.floor(random() * 150 * 24) * hour;
      const stayId = await stay(org, pet, new Date(from).toISOString(), to === null ? undefined : { at: new Date(to).toISOString(), type: "adoption" });
      // One to three placements one after the other inside the stay (the last may run to its end, or stay open when it is open).
      let at = from + Math.floor(random() * 10 * 24) * hour;
      for (let k = 0; k < 1 + (i % 3); k++) {
        const limit = to ?? from + 400 * 24 * hour;
        if (at > limit) break;
        const last = k === i % 3;
        const end = last && to === null ? null : Math.min(limit, at + Math.floor(random() * 60 * 24) * hour);
        await placement(org, pet, stayId, new Date(at).toISOString(), end === null ? undefined : new Date(end).toISOString());
        placed.push({ from: new Date(at), to: end === null ? null : new Date(end), stayFrom: new Date(from), stayTo: to === null ? null : new Date(to) });
        if (end === null) break;
        // Moved on the same instant, or back at the shelter a few days.
        at = end + (k % 2) * Math.floor(random() * 5 * 24) * hour;
      }
    }
    const { months } = await report(org, key, "from=2019-12&to=2021-06");
    let seen = 0;
    for (const [i, month] of months.entries()) {
      const first = `${month.month}-01`;
      const inFoster = placed.filter((p) => day(p.from) < first && (p.to === null || day(p.to) >= first)).length;
      expect(
        SPECIES.reduce((n, s) => n + month.species[s].beginningFosterCount, 0),
        month.month,
      ).toBe(inFoster);
      seen += inFoster;
      for (const s of SPECIES) {
        const sp = month.species[s];
        expect(sp.beginningFosterCount).toBeLessThanOrEqual(sp.beginningCount);
        expect(sp.endingFosterCount).toBeLessThanOrEqual(sp.endingCount);
        if (i + 1 < months.length) expect(sp.endingFosterCount).toBe(months[i + 1]!.species[s].beginningFosterCount);
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
});

describe("a placement is never an intake or an outcome", () => {
  it("placing animals changes no intake, outcome, count or live release rate: only the foster counts", async () => {
    const { org, key } = await shelter("UTC");
    const pets = [await animal(org), await animal(org), await animal(org)];
    const stays = [
      await stay(org, pets[0]!, "2021-03-02T12:00:00Z", { at: "2021-04-20T12:00:00Z", type: "adoption" }),
      await stay(org, pets[1]!, "2021-03-05T12:00:00Z", { at: "2021-04-22T12:00:00Z", type: "shelterEuthanasia" }),
      await stay(org, pets[2]!, "2021-03-07T12:00:00Z"),
    ];
    const before = await report(org, key, "from=2021-03&to=2021-05");
    await placement(org, pets[0]!, stays[0]!, "2021-03-10T12:00:00Z", "2021-04-20T12:00:00Z");
    await placement(org, pets[1]!, stays[1]!, "2021-03-11T12:00:00Z", "2021-04-01T12:00:00Z");
    await placement(org, pets[2]!, stays[2]!, "2021-03-12T12:00:00Z");
    const after = await report(org, key, "from=2021-03&to=2021-05");
    expect(withoutFosters(after)).toEqual(withoutFosters(before));
    expect(after.months[1]!.species.dog.liveReleaseRate).toBe(0.5);
    expect(after.months.map((m) => m.species.dog.beginningFosterCount)).toEqual([0, 3, 1]);
    expect(before.months.map((m) => m.species.dog.beginningFosterCount)).toEqual([0, 0, 0]);
  });
});

describe("the CSV and the network", () => {
  it("the CSV has a row for each, in the total columns; the network's report sums them", async () => {
    const { org, key } = await shelter("UTC");
    const pet = await animal(org, "Cats");
    const stayId = await stay(org, pet, "1991-05-02T12:00:00Z");
    await placement(org, pet, stayId, "1991-05-03T12:00:00Z");
    const res = await call(monthlyCsvRoute, `/v1/organizations/${org}/reports/monthly.csv?from=1991-05&to=1991-06`, {
      key,
      params: { organizationId: String(org) },
    });
    const lines = (await res.text()).split("\r\n");
    const june = lines.indexOf("Month 1991-06,Time zone UTC");
    expect(lines.slice(0, june)).toContain("Beginning count: in foster homes,,,,0,,,,0,,,,0");
    expect(lines.slice(0, june)).toContain("Ending count: in foster homes,,,,0,,,,1,,,,0");
    expect(lines.slice(june)).toContain("Beginning count: in foster homes,,,,0,,,,1,,,,0");

    const other = await shelter("America/Chicago");
    const dog = await animal(other.org);
    const otherStay = await stay(other.org, dog, "1991-05-10T12:00:00Z");
    await placement(other.org, dog, otherStay, "1991-05-11T12:00:00Z");
    const admin = await staffSession(undefined, { platformAdmin: true });
    const network = await expectJson<MonthlyReport>(await call(networkRoute, "/v1/reports/monthly?from=1991-06&to=1991-06", { headers: admin.headers }));
    expect(network.months[0]!.species.cat.beginningFosterCount).toBe(1);
    expect(network.months[0]!.species.dog.beginningFosterCount).toBe(1);
  });
});
