import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as withdrawRoute } from "@/app/v1/application-links/[token]/withdraw/route";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { APPLICATION_MOVES, APPLICATION_STATES, type ApplicationState, type ApplicationStep } from "@/lib/applications/schemas";
import { db } from "@/lib/db";
import { applicationFootprint, call, expectApiError, expectJson, newKey, seedPets, staffSession, type StaffSession } from "./helpers";

// The applications' state machine as a whole: every (state, step) pair,
// taken for real on an application brought to that state. The pairs in the
// table go through; every other one answers 409 invalid_transition and
// changes nothing (the application, its steps, the animal, its audit trail
// and events, the emails queued). The table is written out here, as the
// contract, and must equal the one the code enforces and the one docs/api.md
// prints.

/** The contract: from each state, the steps it allows (staff's, and the applicant's withdrawal). */
const TABLE: Record<ApplicationState, ApplicationStep[]> = {
  received: ["in_review", "approved", "declined", "withdrawn"],
  in_review: ["approved", "declined", "withdrawn"],
  approved: ["completed", "cancelled"],
  declined: [],
  withdrawn: [],
  completed: [],
  cancelled: [],
};
const STEPS: ApplicationStep[] = ["in_review", "approved", "declined", "completed", "cancelled", "withdrawn"];

/** How to bring a fresh application to each state, from received. */
const PATH_TO: Record<ApplicationState, ApplicationStep[]> = {
  received: [],
  in_review: ["in_review"],
  approved: ["approved"],
  declined: ["declined"],
  withdrawn: ["withdrawn"],
  completed: ["approved", "completed"],
  cancelled: ["approved", "cancelled"],
};

let partner: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key: partner } = await newKey(["pets:read", "applications:write"], "listing site"));
  staff = await staffSession();
});

async function take(application: { id: number; token: string }, to: ApplicationStep): Promise<Response> {
  if (to === "withdrawn") {
    const { token } = application;
    return call(withdrawRoute, `/v1/application-links/${token}/withdraw`, { method: "POST", params: { token } });
  }
  return call(transitionRoute, `/v1/applications/${application.id}/transitions`, {
    method: "POST",
    headers: staff.headers,
    json: { to, ...(to === "declined" ? { message: "Not this time." } : {}) },
    params: { applicationId: String(application.id) },
  });
}

async function applicationIn(state: ApplicationState): Promise<{ id: number; token: string; petId: number }> {
  const [pet] = await seedPets([{ name: `State ${state}` }]);
  const created = await expectJson<{ id: number; statusUrl: string }>(
    await call(applyRoute, `/v1/pets/${pet!.id}/applications`, {
      method: "POST",
      key: partner,
      params: { petId: String(pet!.id) },
      json: { name: "Tabled", email: `tabled.${Math.random().toString(36).slice(2, 10)}@example.org`, home: "house", message: "Hello.", consent: true },
    }),
    201,
  );
  const application = { id: created.id, token: created.statusUrl.split("/").at(-1)!, petId: pet!.id };
  for (const to of PATH_TO[state]) await expectJson(await take(application, to));
  expect((await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(application.id) } })).state).toBe(state);
  return application;
}

/** The table docs/api.md prints under "Applications to adopt": each row's states, and the steps they allow. */
function documentedTable(): Record<string, string[]> {
  const doc = fs.readFileSync(path.join(process.cwd(), "docs", "api.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Applications to adopt"), doc.indexOf("\n## ", doc.indexOf("## Applications to adopt") + 1));
  const table: Record<string, string[]> = {};
  for (const line of section.split("\n").filter((l) => l.startsWith("| `"))) {
    const [states, steps] = line
      .split("|")
      .slice(1, 3)
      .map((cell) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
    for (const state of states!) table[state] = steps!.filter((s) => s !== "invalid_transition");
  }
  return table;
}

describe("the state machine", () => {
  it("the table the code enforces and the one docs/api.md prints are this one", () => {
    expect(APPLICATION_MOVES).toEqual(TABLE);
    expect(documentedTable()).toEqual(TABLE);
    expect(Object.keys(TABLE).sort()).toEqual([...APPLICATION_STATES].sort());
  });

  for (const state of APPLICATION_STATES) {
    for (const to of STEPS) {
      const allowed = TABLE[state].includes(to);
      it(`${state} → ${to}: ${allowed ? "taken" : "409 invalid_transition, nothing changes"}`, async () => {
        const application = await applicationIn(state);
        const before = await applicationFootprint(application.id, application.petId);
        const res = await take(application, to);
        if (allowed) {
          expect((await expectJson<{ state: string }>(res)).state).toBe(to);
          expect((await applicationFootprint(application.id, application.petId)).application.state).toBe(to);
        } else {
          await expectApiError(res, 409, "invalid_transition");
          expect(await applicationFootprint(application.id, application.petId)).toEqual(before);
        }
      });
    }
  }
});
