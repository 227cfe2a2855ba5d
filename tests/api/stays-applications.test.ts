import { mailingInstance } from "@/tests/mail-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { GET as getApplicationRoute } from "@/app/v1/applications/[applicationId]/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { POST as endRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { PATCH as correctRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/route";
import { GET as listStaysRoute, POST as openRoute } from "@/app/v1/pets/[petId]/stays/route";
import { POST as createRoute } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import type { Stay } from "@/lib/stays/schemas";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey, staffSession, type StaffSession } from "./helpers";

// Issue 48: an outcome other than adoption recorded while an application is
// approved (or others are open) left applications that could never be
// completed. Recording it now cancels the animal's open and approved
// applications in the same transaction, the animal is `available` again
// (out of care), and each applicant is told by email, in the language they
// applied in, that the animal is no longer available. Through the real job
// queue and a real SMTP server.

const mail = mailingInstance();
let work: BackgroundWork | undefined;
let partner: string;
let records: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key: partner } = await newKey(["pets:read", "applications:write"], "listing site"));
  ({ key: records } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter records"));
  staff = await staffSession();
  work = startBackgroundWork();
});

afterAll(async () => {
  await work?.stop();
});

async function apply(petId: number, email: string, locale?: "es"): Promise<number> {
  const res = await call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    key: partner,
    params: { petId: String(petId) },
    json: { name: "Applicant", email, home: "house", message: "Hello.", consent: true, ...(locale ? { locale } : {}) },
  });
  return (await expectJson<{ id: number }>(res, 201)).id;
}

/** An animal with its first stay open, as the API adds one. */
const seedPets = async ([{ name }]: [{ name: string }]) => [
  await expectJson<Pet>(await call(createRoute, "/v1/pets", { method: "POST", key: records, json: { name, categoryId: 1 } }), 201),
];

const step = (id: number, to: string) =>
  call(transitionRoute, `/v1/applications/${id}/transitions`, { method: "POST", headers: staff.headers, json: { to }, params: { applicationId: String(id) } });
const stateOf = async (id: number) =>
  await expectJson<{ state: string; steps: { from: string | null; to: string; actor: string }[] }>(
    await call(getApplicationRoute, `/v1/applications/${id}`, { headers: staff.headers, params: { applicationId: String(id) } }),
  );
const openStay = async (petId: number) =>
  (await expectJson<Stay[]>(await call(listStaysRoute, `/v1/pets/${petId}/stays?limit=100`, { key: records, params: { petId: String(petId) } }))).at(-1)!;
const row = (petId: number) => db().pet.findUniqueOrThrow({ where: { id: BigInt(petId) }, select: { status: true, inCare: true } });

describe("an outcome other than adoption closes the animal's applications", () => {
  it("transferredOut while one application is approved and others are open: all cancelled (by the recording key), the animal out of care and available, each applicant told in their language", async () => {
    const [pet] = await seedPets([{ name: "Comet" }]);
    const approved = await apply(pet!.id, "approved.en@example.org");
    const waiting = await apply(pet!.id, "waiting.es@example.org", "es");
    const reviewed = await apply(pet!.id, "reviewed.en@example.org");
    await expectJson(await step(reviewed, "in_review"));
    await expectJson(await step(approved, "approved"));
    expect(await row(pet!.id)).toEqual({ status: "pending", inCare: true });

    const stay = await openStay(pet!.id);
    const ended = await call(endRoute, `/v1/pets/${pet!.id}/stays/${stay.id}/outcome`, {
      method: "POST",
      key: records,
      json: { type: "transferredOut", subtype: "To County Humane" },
      params: { petId: String(pet!.id), stayId: String(stay.id) },
    });
    expect((await expectJson<Stay>(ended)).outcome?.type).toBe("transferredOut");
    expect(await row(pet!.id)).toEqual({ status: "available", inCare: false });
    for (const [id, from] of [
      [approved, "approved"],
      [waiting, "received"],
      [reviewed, "in_review"],
    ] as const) {
      const application = await stateOf(id);
      expect(application.state, `application ${id}`).toBe("cancelled");
      expect(application.steps.at(-1)).toMatchObject({ from, to: "cancelled", actor: expect.stringMatching(/^API key #\d+$/) });
    }

    const english = await mail.waitFor("approved.en@example.org", /Comet is no longer available/);
    expect(english.text).toContain("Comet is no longer at the shelter, so your application to adopt Comet has been closed.");
    // The shelter's record (why it left, its own words) is not the applicant's news.
    expect(english.text).not.toMatch(/transfer|County Humane/i);
    await mail.waitFor("reviewed.en@example.org", /Comet is no longer available/);
    const spanish = await mail.waitFor("waiting.es@example.org", /Comet ya no está disponible/);
    expect(spanish.text).toMatch(/^Hola:\n/);
    expect(spanish.text).toContain("Comet ya no está en el refugio, por lo que se cerró su solicitud para adoptar a Comet.");

    // Nothing is left that could be completed; a completion is refused as for any cancelled application.
    await expectApiError(await step(approved, "completed"), 409, "invalid_transition");
  });

  it("an application already closed stays as it is; a correction that takes a sold animal out of care closes what was left open", async () => {
    const [pet] = await seedPets([{ name: "Orbit" }]);
    const declined = await apply(pet!.id, "declined@example.org");
    await expectJson(await step(declined, "declined"));
    const adopter = await apply(pet!.id, "adopter@example.org");
    const late = await apply(pet!.id, "late@example.org");
    await expectJson(await step(adopter, "approved"));
    await expectJson(await step(adopter, "completed"));
    expect(await row(pet!.id)).toEqual({ status: "sold", inCare: true });
    const stay = await openStay(pet!.id);
    // The adoption was recorded by mistake: the animal was in fact transferred out.
    const corrected = await call(correctRoute, `/v1/pets/${pet!.id}/stays/${stay.id}`, {
      method: "PATCH",
      headers: staff.headers,
      json: { outcome: { type: "transferredOut" } },
      params: { petId: String(pet!.id), stayId: String(stay.id) },
    });
    await expectJson(corrected);
    expect(await row(pet!.id)).toEqual({ status: "available", inCare: false });
    expect((await stateOf(late)).state).toBe("cancelled");
    expect((await stateOf(late)).steps.at(-1)).toMatchObject({ from: "received", to: "cancelled", actor: `staff ${staff.email}` });
    expect((await stateOf(declined)).state).toBe("declined");
    expect((await stateOf(adopter)).state).toBe("completed");
    await mail.waitFor("late@example.org", /Orbit is no longer available/);
  });

  it("an adoption recorded by hand while one is approved is still refused (the workflow completes it); a new intake later opens the animal to applications again", async () => {
    const [pet] = await seedPets([{ name: "Nova" }]);
    const approved = await apply(pet!.id, "nova@example.org");
    await expectJson(await step(approved, "approved"));
    const stay = await openStay(pet!.id);
    const byHand = await call(endRoute, `/v1/pets/${pet!.id}/stays/${stay.id}/outcome`, {
      method: "POST",
      key: records,
      json: { type: "adoption" },
      params: { petId: String(pet!.id), stayId: String(stay.id) },
    });
    await expectApiError(byHand, 409, "adoption_in_progress");
    expect((await stateOf(approved)).state).toBe("approved");
    await expectJson(
      await call(endRoute, `/v1/pets/${pet!.id}/stays/${stay.id}/outcome`, {
        method: "POST",
        key: records,
        json: { type: "diedInCare" },
        params: { petId: String(pet!.id), stayId: String(stay.id) },
      }),
    );
    expect((await stateOf(approved)).state).toBe("cancelled");
    await expectJson(
      await call(openRoute, `/v1/pets/${pet!.id}/stays`, {
        method: "POST",
        key: records,
        json: { intake: { type: "stray" } },
        params: { petId: String(pet!.id) },
      }),
      201,
    );
    expect(await row(pet!.id)).toEqual({ status: "available", inCare: true });
    await apply(pet!.id, "again@example.org");
  });
});
