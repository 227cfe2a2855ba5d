import { beforeAll, describe, expect, it } from "vitest";
import { GET as dashboardRoute } from "@/app/v1/dashboard/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import type { Dashboard } from "@/lib/dashboard/schemas";
import { flowByWeekSql } from "@/lib/dashboard/queries";
import { weekStart } from "@/lib/dashboard/service";
import { db } from "@/lib/db";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import type { Pet } from "@/lib/pets/schemas/pet";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { ORIGIN, call, createPet, expectApiError, expectJson, newKey, newOrganization, staffSession, type StaffSession } from "./helpers";

// The staff dashboard's figures: animals by status, applications waiting,
// and intakes and adoptions per week as the audit trail records them, made
// by the same API calls staff and adopters make (and, for past weeks, by
// records written with an earlier date, as a shelter with a history has).

const DAY = 86_400_000;
let staff: StaffSession;

beforeAll(async () => {
  staff = await staffSession();
});

const read = async () => expectJson<Dashboard>(await call(dashboardRoute, "/v1/dashboard", { headers: staff.headers }));

const addPet = (name: string) => createPet({ name }, { headers: staff.headers });

async function setStatus(pet: Pet, status: string): Promise<Pet> {
  return expectJson<Pet>(
    await call(patchPetRoute, `/v1/pets/${pet.id}`, {
      method: "PATCH",
      json: { status },
      params: { petId: String(pet.id) },
      headers: { ...staff.headers, "content-type": "application/merge-patch+json", "if-match": `"${pet.version}"` },
    }),
  );
}

/** A stay as any writer stores it (lib/stays, imports): the dashboard counts stays opened and stays ended with `adoption`. */
async function pastStay(petId: number, intakeAt: Date, outcome?: { at: Date; type: string }) {
  await db().$executeRaw`
    INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, outcome_at, outcome_type)
    VALUES (${BigInt(petId)}, 1, ${intakeAt}, 'stray', ${outcome?.at ?? null}, ${outcome?.type ?? null}::"OutcomeType")`;
}

describe("GET /v1/dashboard", () => {
  it("answers staff only: no one signed out, no API key (keys never hold audit:read)", async () => {
    await expectApiError(await call(dashboardRoute, "/v1/dashboard"), 401, "unauthorized");
    const { key } = await newKey(["pets:read", "pets:write", "applications:write", "webhooks:manage"], "partner");
    await expectApiError(await call(dashboardRoute, "/v1/dashboard", { key }), 403, "forbidden");
    const res = await call(dashboardRoute, "/v1/dashboard", { headers: staff.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("on an empty shelter: zeros, no median, and twelve Mondays ending with this week's", async () => {
    const dashboard = await read();
    expect(dashboard.animals).toEqual({ available: 0, pending: 0, sold: 0, total: 0 });
    expect(dashboard.applications).toEqual({ waiting: 0, oldestWaitingSince: null, approved: 0 });
    expect(dashboard.adoptions).toEqual({ count: 0, medianDaysToAdoption: null });
    expect(dashboard.weeks).toHaveLength(12);
    const mondays = dashboard.weeks.map((w) => w.week);
    expect(mondays.at(-1)).toBe(weekStart(new Date()).toISOString().slice(0, 10));
    for (const [i, monday] of mondays.entries()) {
      expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
      if (i > 0) expect(Date.parse(monday) - Date.parse(mondays[i - 1]!)).toBe(7 * DAY);
    }
    expect(dashboard.weeks.every((w) => w.intakes === 0 && w.adoptions === 0)).toBe(true);
  });

  it("moves with what staff and adopters do this week: intakes, statuses, an adoption, an application waiting", async () => {
    const [rex, bella, coco] = [await addPet("Rex"), await addPet("Bella"), await addPet("Coco")];
    await setStatus(await setStatus(rex!, "pending"), "sold");
    await setStatus(bella!, "pending");
    const { token } = mintAnonymousToken(new Date());
    await expectJson(
      await call(applyRoute, `/v1/pets/${coco!.id}/applications`, {
        method: "POST",
        params: { petId: String(coco!.id) },
        headers: { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: "198.51.100.7" },
        json: { name: "Sam Rivera", email: "sam@example.org", home: "flat", message: "We work from home.", consent: true },
      }),
      201,
    );

    const dashboard = await read();
    expect(dashboard.animals).toEqual({ available: 1, pending: 1, sold: 1, total: 3 });
    expect(dashboard.applications.waiting).toBe(1);
    expect(Date.now() - Date.parse(dashboard.applications.oldestWaitingSince!)).toBeLessThan(60_000);
    // Nothing of the applicant, only counts.
    expect(JSON.stringify(dashboard)).not.toMatch(/Sam|example\.org/);
  });

  it("reads the weeks from the stays: each week by UTC Monday, only adoptions count as adoptions, older than 12 weeks left out", async () => {
    await db().$executeRaw`TRUNCATE pet_audit, events, adoption_applications, pets RESTART IDENTITY CASCADE`;
    const monday = weekStart(new Date()).getTime();
    const [a, b, c, d, e] = (
      await db().pet.createManyAndReturn({
        data: ["A", "B", "C", "D", "E"].map((name) => ({ name, categoryId: 1n, organizationId: 1n, status: "sold" as const })),
        select: { id: true },
      })
    ).map((row) => Number(row.id));
    // A: in 3 weeks ago (a Sunday's last millisecond is still that week), adopted 10 days later.
    await pastStay(a!, new Date(monday - 3 * 7 * DAY - 1), { at: new Date(monday - 3 * 7 * DAY - 1 + 10 * DAY), type: "adoption" });
    // B: in on a Monday at 00:00 six weeks ago, adopted 30 days after its intake, counted in its week.
    await pastStay(b!, new Date(monday - 6 * 7 * DAY), { at: new Date(monday - 6 * 7 * DAY + 30 * DAY), type: "adoption" });
    // C: in long ago (before the 12 weeks), adopted this week after 100 days: the adoption counts, the intake does not.
    await pastStay(c!, new Date(monday - 100 * DAY), { at: new Date(monday), type: "adoption" });
    // D: in and out long ago: nothing of it is in the window.
    await pastStay(d!, new Date(monday - 200 * DAY), { at: new Date(monday - 150 * DAY), type: "adoption" });
    // E: in this week and transferred out: an intake, no adoption.
    await pastStay(e!, new Date(monday + 1000), { at: new Date(monday + 2000), type: "transferredOut" });

    const dashboard = await read();
    const byWeek = Object.fromEntries(dashboard.weeks.map((w, i) => [i - 11, [w.intakes, w.adoptions]]));
    expect(byWeek).toMatchObject({
      [-6]: [1, 0], // B in
      [-4]: [1, 0], // A in (Sunday 23:59:59.999 before week -3)
      [-3]: [0, 0],
      [-2]: [0, 2], // A adopted (day 10 from Sunday = Wednesday of week -2), B adopted (day 30 from week -6's Monday)
      [0]: [1, 1], // E in, C adopted
    });
    expect(dashboard.weeks.reduce((sum, w) => sum + w.intakes, 0)).toBe(3);
    expect(dashboard.adoptions.count).toBe(3);
    // Median of 10, 30 and 100 days.
    expect(dashboard.adoptions.medianDaysToAdoption).toBe(30);
    expect(dashboard.animals).toEqual({ available: 0, pending: 0, sold: 5, total: 5 });
  });

  it("reads a shelter's weeks and the network's through the stays' day indexes, not by a scan of every stay", async () => {
    // Ten years of stays at two shelters (one animal each, a stay of 0 to 59 days), so the planner sees a history.
    const other = await newOrganization();
    await db().$executeRaw`
      WITH p AS (INSERT INTO pets (name, organization_id, category_id, status)
                 SELECT 'Old ' || g, CASE WHEN g % 2 = 0 THEN 1 ELSE ${BigInt(other)} END, 1, 'sold' FROM generate_series(1, 6000) g RETURNING id, organization_id)
      INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, outcome_at, outcome_type)
      SELECT id, organization_id, now() - ((id * 7) % 3650) * interval '1 day', 'stray', now() - ((id * 7) % 3650) * interval '1 day' + (id % 60) * interval '1 day', 'adoption' FROM p
       WHERE now() - ((id * 7) % 3650) * interval '1 day' + (id % 60) * interval '1 day' < now()`;
    await db().$executeRawUnsafe("ANALYZE pet_stays");
    const explain = async (organizationId: number | undefined) => {
      const sql = flowByWeekSql(new Date(Date.now() - 84 * DAY), new Date(), organizationId);
      return (await db().$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql.text}`, ...sql.values)).map((r) => r["QUERY PLAN"]).join("\n");
    };
    const shelter = await explain(1);
    expect(shelter).not.toContain("Seq Scan");
    expect(shelter).toMatch(/Index Cond: .*intake_on >=/);
    expect(shelter).toMatch(/Index Cond: .*outcome_on >=/);
    const network = await explain(undefined);
    expect(network).not.toContain("Seq Scan");
    expect(network).toMatch(/Index Cond: .*intake_on >=/);
    expect(network).toMatch(/Index Cond: .*outcome_on >=/);
  });
});
