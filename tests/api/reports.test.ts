import { beforeAll, describe, expect, it } from "vitest";
import { GET as monthlyRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly/route";
import { GET as monthlyCsvRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly.csv/route";
import { GET as networkCsvRoute } from "@/app/v1/reports/monthly.csv/route";
import { GET as networkRoute } from "@/app/v1/reports/monthly/route";
import { db } from "@/lib/db";
import { SPECIES, type AgeCounts, type MonthlyReport, type SpeciesReport } from "@/lib/reports/schemas";
import { INTAKE_TYPES, OUTCOME_TYPES } from "@/lib/stays/schemas";
import { call, expectApiError, expectJson, newKey, newOrganization, seedPets, staffSession } from "./helpers";

// The monthly report's rules (issue 42), on stays written straight into
// pet_stays as any writer would (the trigger sets their local days): the
// shelter's time zone decides the month, age is taken on the day, species
// follows the category, the counts chain from month to month, and the live
// release rate leaves owner-intended euthanasia out.

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

async function animal(org: number, category = "Dogs", birthDate?: string): Promise<number> {
  const [pet] = await seedPets([{ organizationId: org, categoryId: categories[category]!, birthDate }]);
  return pet!.id;
}

/** A stay as any writer stores it; a time without offset is not accepted here: each test says which instant it means. */
async function stay(org: number, pet: number, intake: { at: string; type: string }, outcome?: { at: string; type: string }): Promise<void> {
  await db().$executeRaw`
    INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, outcome_at, outcome_type)
    VALUES (${BigInt(pet)}, ${BigInt(org)}, ${intake.at}::timestamptz, ${intake.type}::"IntakeType",
            ${outcome?.at ?? null}::timestamptz, ${outcome?.type ?? null}::"OutcomeType")`;
}

async function report(org: number, key: string, query: string): Promise<MonthlyReport> {
  return expectJson<MonthlyReport>(
    await call(monthlyRoute, `/v1/organizations/${org}/reports/monthly?${query}`, { key, params: { organizationId: String(org) } }),
  );
}

const total = (a: AgeCounts) => a.adult + a.juvenile + a.unknownAge;
const intakes = (s: SpeciesReport) => INTAKE_TYPES.reduce((n, t) => n + total(s.intakes[t]), 0);
const outcomes = (s: SpeciesReport) => OUTCOME_TYPES.reduce((n, t) => n + total(s.outcomes[t]), 0);

describe("months are the shelter's calendar months", () => {
  it("an intake at 22:00 on 30 June in Los Angeles (05:00 UTC on 1 July) is June's; an outcome at 23:30 on 31 July there is July's", async () => {
    const { org, key } = await shelter("America/Los_Angeles");
    const pet = await animal(org);
    await stay(org, pet, { at: "2021-07-01T05:00:00Z", type: "stray" }, { at: "2021-08-01T06:30:00Z", type: "adoption" });
    const { months, timeZone, organizationId } = await report(org, key, "from=2021-06&to=2021-08");
    expect({ timeZone, organizationId }).toEqual({ timeZone: "America/Los_Angeles", organizationId: org });
    expect(months.map((m) => m.month)).toEqual(["2021-06", "2021-07", "2021-08"]);
    const [june, july, august] = months.map((m) => m.species.dog);
    expect(june!.intakes.stray.unknownAge).toBe(1);
    expect(june!.beginningCount).toBe(0);
    expect(june!.endingCount).toBe(1);
    expect(july!.beginningCount).toBe(1);
    expect(july!.outcomes.adoption.unknownAge).toBe(1);
    expect(july!.endingCount).toBe(0);
    expect(intakes(august!) + outcomes(august!) + august!.beginningCount).toBe(0);
  });

  it("the same instants in a UTC shelter fall in July and August", async () => {
    const { org, key } = await shelter("UTC");
    const pet = await animal(org);
    await stay(org, pet, { at: "2021-07-01T05:00:00Z", type: "stray" }, { at: "2021-08-01T06:30:00Z", type: "adoption" });
    const { months } = await report(org, key, "from=2021-06&to=2021-08");
    expect(months.map((m) => intakes(m.species.dog))).toEqual([0, 1, 0]);
    expect(months.map((m) => outcomes(m.species.dog))).toEqual([0, 0, 1]);
  });

  it("a date without a time (midnight in the shelter's zone) stays on its day", async () => {
    const { org, key } = await shelter("Pacific/Auckland");
    const pet = await animal(org);
    // Midnight of 1 March 2022 in Auckland is 11:00 UTC on 28 February.
    await stay(org, pet, { at: "2022-02-28T11:00:00Z", type: "transferredIn" });
    const { months } = await report(org, key, "from=2022-02&to=2022-03");
    expect(months.map((m) => m.species.dog.intakes.transferredIn.unknownAge)).toEqual([0, 1]);
  });
});

describe("age on the day, species by category", () => {
  it("juvenile on the day before five calendar months from the birth date, adult on that day; unknownAge without a birth date", async () => {
    const { org, key } = await shelter("UTC");
    const kitten = await animal(org, "Cats", "2021-01-15");
    // Taken in at 4 months 30 days (juvenile), leaves on the day it turns five months (adult).
    await stay(org, kitten, { at: "2021-06-14T12:00:00Z", type: "stray" }, { at: "2021-06-15T09:00:00Z", type: "adoption" });
    // Born 31 January: five calendar months later is 30 June (no 31 June).
    const late = await animal(org, "Cats", "2021-01-31");
    await stay(org, late, { at: "2021-06-29T12:00:00Z", type: "relinquishedByOwner" }, { at: "2021-06-30T12:00:00Z", type: "transferredOut" });
    const unknown = await animal(org, "Cats");
    await stay(org, unknown, { at: "2021-06-02T12:00:00Z", type: "stray" });
    const cat = (await report(org, key, "from=2021-06&to=2021-06")).months[0]!.species.cat;
    expect(cat.intakes.stray).toEqual({ adult: 0, juvenile: 1, unknownAge: 1 });
    expect(cat.intakes.relinquishedByOwner).toEqual({ adult: 0, juvenile: 1, unknownAge: 0 });
    expect(cat.outcomes.adoption).toEqual({ adult: 1, juvenile: 0, unknownAge: 0 });
    expect(cat.outcomes.transferredOut).toEqual({ adult: 1, juvenile: 0, unknownAge: 0 });
  });

  it("Dogs are dog, Cats are cat, every other category is other", async () => {
    const { org, key } = await shelter("UTC");
    for (const [category, n] of [
      ["Dogs", 2],
      ["Cats", 1],
      ["Rabbits", 3],
      ["Birds", 1],
    ] as const) {
      for (let i = 0; i < n; i++) await stay(org, await animal(org, category), { at: "2021-06-10T12:00:00Z", type: "otherIntake" });
    }
    const { species } = (await report(org, key, "from=2021-06&to=2021-06")).months[0]!;
    expect(SPECIES.map((s) => species[s].intakes.otherIntake.unknownAge)).toEqual([2, 1, 4]);
    expect(SPECIES.map((s) => species[s].endingCount)).toEqual([2, 1, 4]);
  });
});

describe("the stays follow their animal", () => {
  it("a birth date given or a category changed later recounts the animal's stays, in every month", async () => {
    const { org, key } = await shelter("UTC");
    const pet = await animal(org, "Rabbits");
    await stay(org, pet, { at: "2021-03-10T12:00:00Z", type: "stray" }, { at: "2021-04-10T12:00:00Z", type: "returnedToOwner" });
    await stay(org, pet, { at: "2021-06-01T12:00:00Z", type: "relinquishedByOwner" });
    await db().pet.update({ where: { id: BigInt(pet) }, data: { categoryId: BigInt(categories.Cats!), birthDate: new Date("2021-01-01T00:00:00Z") } });
    const [march, april, , june] = (await report(org, key, "from=2021-03&to=2021-06")).months;
    expect(march!.species.other.intakes.stray).toEqual({ adult: 0, juvenile: 0, unknownAge: 0 });
    expect(march!.species.cat.intakes.stray).toEqual({ adult: 0, juvenile: 1, unknownAge: 0 });
    expect(april!.species.cat.outcomes.returnedToOwner).toEqual({ adult: 0, juvenile: 1, unknownAge: 0 });
    // 1 June is five calendar months after 1 January: adult.
    expect(june!.species.cat.intakes.relinquishedByOwner).toEqual({ adult: 1, juvenile: 0, unknownAge: 0 });
    expect(june!.species.cat.endingCount).toBe(1);
    // A rename of the category: its animals' stays become other.
    await db().category.update({ where: { id: BigInt(categories.Cats!) }, data: { name: "Felines" } });
    try {
      const renamed = (await report(org, key, "from=2021-06&to=2021-06")).months[0]!;
      expect(renamed.species.other.endingCount).toBe(1);
      expect(renamed.species.cat.endingCount).toBe(0);
    } finally {
      await db().category.update({ where: { id: BigInt(categories.Cats!) }, data: { name: "Cats" } });
    }
  });
});

describe("counts from month to month", () => {
  it("endingCount is the next month's beginningCount and beginningCount + intakes − outcomes, over returns, same-day stays and open stays", async () => {
    const { org, key } = await shelter("America/New_York");
    // Deterministic stays over 2020-2022: varied lengths, some returned after adoption, some still open.
    const stays: { pet: number; from: Date; to: Date | null }[] = [];
    for (let i = 0; i < 40; i++) {
      const pet = await animal(org, ["Dogs", "Cats", "Rabbits"][i % 3]!, i % 4 === 0 ? undefined : "2019-05-05");
      let at = Date.UTC(2020, 0, 1) + ((i * 37) % 700) * 86_400_000 + (i % 24) * 3_600_000;
      for (let k = 0; k < 1 + (i % 3); k++) {
        const length = ((i * 13 + k * 29) % 120) * 86_400_000 + (i % 5) * 3_600_000;
        const open = k === i % 3 && i % 7 === 0;
        const end = open ? null : at + length;
        await stay(
          org,
          pet,
          { at: new Date(at).toISOString(), type: INTAKE_TYPES[(i + k) % 5]! },
          end === null ? undefined : { at: new Date(end).toISOString(), type: OUTCOME_TYPES[(i + k) % 9]! },
        );
        stays.push({ pet, from: new Date(at), to: end === null ? null : new Date(end) });
        if (end === null) break;
        at = end + ((i + k) % 3) * 86_400_000; // a return on the day of the outcome, or later
      }
    }
    const { months } = await report(org, key, "from=2019-12&to=2023-01");
    expect(months).toHaveLength(38);
    let seenAny = 0;
    for (const [i, month] of months.entries()) {
      for (const s of SPECIES) {
        const sp = month.species[s];
        expect(sp.endingCount, `${month.month} ${s}`).toBe(sp.beginningCount + intakes(sp) - outcomes(sp));
        if (i + 1 < months.length) expect(sp.endingCount).toBe(months[i + 1]!.species[s].beginningCount);
        seenAny += intakes(sp);
      }
    }
    expect(seenAny).toBe(stays.length);
    // And an independent count: the animals in care when each month began, by New York's calendar.
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(d);
    for (const month of months) {
      const first = `${month.month}-01`;
      const open = stays.filter((x) => day(x.from) < first && (x.to === null || day(x.to) >= first)).length;
      expect(
        SPECIES.reduce((n, s) => n + month.species[s].beginningCount, 0),
        month.month,
      ).toBe(open);
    }
    expect(months[0]!.species.dog.beginningCount).toBe(0);
    expect(months.at(-1)!.species.dog.endingCount + months.at(-1)!.species.cat.endingCount + months.at(-1)!.species.other.endingCount).toBe(
      stays.filter((x) => x.to === null).length,
    );
  });
});

describe("live release rate and length of stay", () => {
  it("live outcomes over all outcomes minus owner-intended euthanasia; null when that is 0; the median days of the month's outcomes", async () => {
    const { org, key } = await shelter("UTC");
    const outcome = async (category: string, type: string, days: number) => {
      const intake = new Date(Date.UTC(2021, 5, 20) - days * 86_400_000);
      await stay(org, await animal(org, category), { at: intake.toISOString(), type: "stray" }, { at: "2021-06-20T10:00:00Z", type });
    };
    await outcome("Dogs", "adoption", 3);
    await outcome("Dogs", "returnedToOwner", 10);
    await outcome("Dogs", "shelterEuthanasia", 40);
    await outcome("Dogs", "ownerIntendedEuthanasia", 1);
    await outcome("Cats", "ownerIntendedEuthanasia", 2);
    const { species } = (await report(org, key, "from=2021-06&to=2021-06")).months[0]!;
    expect(species.dog.liveReleaseRate).toBeCloseTo(2 / 3, 4);
    expect(species.cat.liveReleaseRate).toBeNull();
    expect(species.other.liveReleaseRate).toBeNull();
    expect(species.dog.medianLengthOfStayDays).toBe(6.5);
    expect(species.cat.medianLengthOfStayDays).toBe(2);
    expect(species.other.medianLengthOfStayDays).toBeNull();
  });
});

describe("the request", () => {
  it("refuses a range backwards, longer than 120 months, or not written YYYY-MM, naming the parameter", async () => {
    const { org, key } = await shelter("UTC");
    const ask = (q: string) => call(monthlyRoute, `/v1/organizations/${org}/reports/monthly?${q}`, { key, params: { organizationId: String(org) } });
    const cases: [string, string][] = [
      ["from=2021-06&to=2021-05", "to"],
      ["from=2011-01&to=2021-01", "to"],
      ["from=2021-13&to=2021-12", "from"],
      ["from=2021-06&to=June", "to"],
      ["from=2021-6", "from"],
      ["month=2021-06", "month"],
    ];
    for (const [q, field] of cases) {
      const body = await expectApiError(await ask(q), 400, "invalid_query");
      expect(
        body.details?.map((d) => d.field),
        q,
      ).toContain(field);
    }
    // 120 months exactly is fine.
    expect((await report(org, key, "from=2011-02&to=2021-01")).months).toHaveLength(120);
  });

  it("the whole network's report takes at most 12 months (issue 48: ten years ran past the statement timeout, answered 503): 13 are 400 naming to, JSON and CSV alike; an organisation's still takes 120", async () => {
    const { key } = await newKey(["records:read"], "platform", { plan: "pro" }, null);
    for (const [route, path] of [
      [networkRoute, "/v1/reports/monthly"],
      [networkCsvRoute, "/v1/reports/monthly.csv"],
    ] as const) {
      for (const q of ["from=2020-01&to=2021-01", "from=2011-02&to=2021-01"]) {
        const res = await call(route, `${path}?${q}`, { key });
        const body = await expectApiError(res, 400, "invalid_query");
        expect(res.headers.get("Retry-After"), q).toBeNull();
        expect(body.details, q).toEqual([
          {
            field: "to",
            issue: expect.stringMatching(
              /^must be at most 12 months from from \(20[12][01]-0[12]\) for the whole network's report \(an organisation's: 120\): this range has (13|120)$/,
            ),
          },
        ]);
      }
      expect((await call(route, `${path}?from=2020-01&to=2020-12`, { key })).status).toBe(200);
    }
    // A from alone takes the eleven months after it, within the year.
    expect((await expectJson<MonthlyReport>(await call(networkRoute, "/v1/reports/monthly?from=2020-01", { key }))).months).toHaveLength(12);
    const { org, key: shelterKey } = await shelter("UTC");
    expect((await report(org, shelterKey, "from=2011-02&to=2021-01")).months).toHaveLength(120);
  });

  it("defaults to the twelve months up to the current one", async () => {
    const { org, key } = await shelter("UTC");
    const { months } = await report(org, key, "");
    expect(months).toHaveLength(12);
    expect(months.at(-1)!.month).toBe(new Date().toISOString().slice(0, 7));
  });

  it("is the organisation's own: its staff and its keys with records:read; not a key without the scope, nor another organisation's callers", async () => {
    const { org, key } = await shelter("UTC");
    const other = await shelter("UTC");
    const path = `/v1/organizations/${org}/reports/monthly?from=2021-01&to=2021-01`;
    const params = { organizationId: String(org) };
    expect((await call(monthlyRoute, path, { key, params })).status).toBe(200);
    expect((await call(monthlyRoute, path, { headers: (await staffSession(undefined, { organizationId: org })).headers, params })).status).toBe(200);
    const petsOnly = await newKey(["pets:read"], "no records", { plan: "pro" }, org);
    await expectApiError(await call(monthlyRoute, path, { key: petsOnly.key, params }), 403, "forbidden");
    await expectApiError(await call(monthlyRoute, path, { key: other.key, params }), 403, "forbidden");
    await expectApiError(
      await call(monthlyRoute, path, { headers: (await staffSession(undefined, { organizationId: other.org })).headers, params }),
      403,
      "forbidden",
    );
    await expectApiError(
      await call(monthlyRoute, `/v1/organizations/987654321/reports/monthly`, { key, params: { organizationId: "987654321" } }),
      404,
      "not_found",
    );
  });
});

describe("the CSV", () => {
  it("is a download in the matrix's layout: a block per month, rows the categories, columns species × age", async () => {
    const { org, key } = await shelter("UTC");
    await stay(org, await animal(org, "Dogs", "2021-05-01"), { at: "2021-06-10T12:00:00Z", type: "stray" }, { at: "2021-07-02T12:00:00Z", type: "adoption" });
    const res = await call(monthlyCsvRoute, `/v1/organizations/${org}/reports/monthly.csv?from=2021-06&to=2021-07`, {
      key,
      params: { organizationId: String(org) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="monthly-report-${org}-2021-06_2021-07.csv"`);
    const lines = (await res.text()).split("\r\n");
    expect(lines[0]).toBe("Month 2021-06,Time zone UTC");
    expect(lines[1]).toBe(
      "Category,Dogs: Adult,Dogs: Up to 5 months,Dogs: Age unknown,Dogs: Total,Cats: Adult,Cats: Up to 5 months,Cats: Age unknown,Cats: Total,Other: Adult,Other: Up to 5 months,Other: Age unknown,Other: Total",
    );
    expect(lines).toContain("Intake: Stray/at large,0,1,0,1,0,0,0,0,0,0,0,0");
    expect(lines).toContain("Ending count,,,,1,,,,0,,,,0");
    const july = lines.indexOf("Month 2021-07,Time zone UTC");
    expect(july).toBeGreaterThan(0);
    expect(lines.slice(july)).toContain("Outcome: Adoption,0,1,0,1,0,0,0,0,0,0,0,0");
    expect(lines.slice(july)).toContain("Live release rate,,,,100.0%,,,,,,,,");
  });
});

describe("the network report", () => {
  it("sums every organisation for platform admins; an organisation's staff are refused", async () => {
    const a = await shelter("UTC");
    const b = await shelter("America/Chicago");
    await stay(a.org, await animal(a.org), { at: "1990-03-05T12:00:00Z", type: "stray" });
    await stay(b.org, await animal(b.org), { at: "1990-03-06T12:00:00Z", type: "stray" }, { at: "1990-03-09T12:00:00Z", type: "returnedToOwner" });
    const admin = await staffSession(undefined, { platformAdmin: true });
    const network = await expectJson<MonthlyReport>(await call(networkRoute, "/v1/reports/monthly?from=1990-03&to=1990-04", { headers: admin.headers }));
    expect({ organizationId: network.organizationId, timeZone: network.timeZone }).toEqual({ organizationId: null, timeZone: null });
    const march = network.months[0]!.species.dog;
    expect(march.intakes.stray.unknownAge).toBe(2);
    expect(march.outcomes.returnedToOwner.unknownAge).toBe(1);
    expect(march.endingCount).toBe(1);
    expect(network.months[1]!.species.dog.beginningCount).toBe(1);
    const platformKey = await newKey(["records:read"], "platform", { plan: "pro" }, null);
    expect((await call(networkRoute, "/v1/reports/monthly?from=1990-03&to=1990-03", { key: platformKey.key })).status).toBe(200);
    await expectApiError(
      await call(networkRoute, "/v1/reports/monthly", { headers: (await staffSession(undefined, { organizationId: a.org })).headers }),
      403,
      "forbidden",
    );
    await expectApiError(await call(networkRoute, "/v1/reports/monthly", { key: a.key }), 403, "forbidden");
  });
});
