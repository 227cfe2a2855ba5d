import { beforeAll, describe, expect, it } from "vitest";
import { GET as dashboardRoute } from "@/app/v1/dashboard/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import type { Dashboard } from "@/lib/dashboard/schemas";
import { weekStart } from "@/lib/dashboard/service";
import { db } from "@/lib/db";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import type { Pet } from "@/lib/pets/schemas";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { ORIGIN, call, expectApiError, expectJson, newKey, staffSession, type StaffSession } from "./helpers";

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

async function addPet(name: string): Promise<Pet> {
  return expectJson<Pet>(await call(createPetRoute, "/v1/pets", { method: "POST", json: { name, categoryId: 1 }, headers: staff.headers }), 201);
}

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

/** An animal's history written as it happened on earlier days: its intake, then each change of status. */
async function pastHistory(petId: number, steps: { at: Date; status?: "available" | "pending" | "sold"; name?: string }[]) {
  let status = "available";
  let name = "Old timer";
  for (const [i, step] of steps.entries()) {
    const before: Record<string, string> | null = i === 0 ? null : {};
    if (before && step.status && step.status !== status) before.status = status;
    if (before && step.name && step.name !== name) before.name = name;
    status = step.status ?? status;
    name = step.name ?? name;
    await db().$executeRaw`
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, before, after, created_at)
      VALUES (${BigInt(petId)}, ${i === 0 ? "created" : "updated"}::"AuditAction", ${i + 1}, 'staff', ${BigInt(staff.staffId)}, ${staff.email}, 'test',
              ${before === null ? null : JSON.stringify(before)}::jsonb, ${JSON.stringify({ id: petId, name, categoryId: 1, status, version: i + 1 })}::jsonb, ${step.at})`;
  }
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
    // Three intakes and one adoption (pending is not adopted; the two steps of Rex are one adoption).
    expect(dashboard.weeks.at(-1)).toMatchObject({ intakes: 3, adoptions: 1 });
    expect(dashboard.adoptions.count).toBe(1);
    expect(dashboard.adoptions.medianDaysToAdoption).toBe(0);
    // Nothing of the applicant, only counts.
    expect(JSON.stringify(dashboard)).not.toMatch(/Sam|example\.org/);
  });

  it("reads past weeks from the audit trail: each week by UTC Monday, renames of a sold animal are no adoption, older than 12 weeks left out", async () => {
    await db().$executeRaw`TRUNCATE pet_audit, events, adoption_applications, pets RESTART IDENTITY CASCADE`;
    const monday = weekStart(new Date()).getTime();
    const [a, b, c, d] = (await db().pet.createManyAndReturn({
      data: ["A", "B", "C", "D"].map((name) => ({ name, categoryId: 1n, organizationId: 1n, status: "sold" as const })),
      select: { id: true },
    })).map((row) => Number(row.id));
    // A: in 3 weeks ago (a Sunday's last millisecond is still that week), adopted 10 days later, renamed after.
    await pastHistory(a!, [
      { at: new Date(monday - 3 * 7 * DAY - 1) },
      { at: new Date(monday - 3 * 7 * DAY - 1 + 10 * DAY), status: "sold" },
      { at: new Date(monday - 3 * 7 * DAY - 1 + 11 * DAY), name: "Lucky" },
    ]);
    // B: in on a Monday at 00:00 two weeks ago, pending, adopted 30 days after its intake, counted in its week.
    await pastHistory(b!, [{ at: new Date(monday - 6 * 7 * DAY) }, { at: new Date(monday - 6 * 7 * DAY + 3 * DAY), status: "pending" }, { at: new Date(monday - 6 * 7 * DAY + 30 * DAY), status: "sold" }]);
    // C: in long ago (before the 12 weeks), adopted this week after 100 days: the adoption counts, the intake does not.
    await pastHistory(c!, [{ at: new Date(monday - 100 * DAY) }, { at: new Date(monday), status: "sold" }]);
    // D: in and out long ago: nothing of it is in the window.
    await pastHistory(d!, [{ at: new Date(monday - 200 * DAY) }, { at: new Date(monday - 150 * DAY), status: "sold" }]);

    const dashboard = await read();
    const byWeek = Object.fromEntries(dashboard.weeks.map((w, i) => [i - 11, [w.intakes, w.adoptions]]));
    expect(byWeek).toMatchObject({
      [-6]: [1, 0], // B in
      [-4]: [1, 0], // A in (Sunday 23:59:59.999 before week -3)
      [-3]: [0, 0],
      [-2]: [0, 2], // A adopted (day 10 from Sunday = Wednesday of week -2), B adopted (day 30 from week -6's Monday)
      [0]: [0, 1], // C adopted
    });
    expect(dashboard.weeks.reduce((sum, w) => sum + w.intakes, 0)).toBe(2);
    expect(dashboard.adoptions.count).toBe(3);
    // Median of 10, 30 and 100 days.
    expect(dashboard.adoptions.medianDaysToAdoption).toBe(30);
    expect(dashboard.animals).toEqual({ available: 0, pending: 0, sold: 4, total: 4 });
  });

  it("can read a week from the partial index (its condition is the query's), not only by a scan of the whole trail", async () => {
    // Forced, because on a table this small a scan is cheaper; the index
    // exists for the trail of a shelter with years of history.
    // SET LOCAL in one transaction: on one connection of the pool, and gone after it.
    const plan = await db().$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN SELECT count(*) FROM pet_audit
         WHERE (action = 'created' OR (action = 'updated' AND after ->> 'status' = 'sold' AND before ? 'status'))
           AND created_at >= now() - interval '84 days' AND created_at < now()`,
      );
    });
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("pet_audit_flow_idx");
  });
});
