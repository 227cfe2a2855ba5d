import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as withdrawRoute } from "@/app/v1/application-links/[token]/withdraw/route";
import { GET as linkRoute } from "@/app/v1/application-links/[token]/route";
import { GET as oneRoute } from "@/app/v1/applications/[applicationId]/route";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { GET as inboxRoute } from "@/app/v1/applications/route";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { GET as historyRoute } from "@/app/v1/pets/[petId]/history/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { PATCH as patchPet } from "@/app/v1/pets/[petId]/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import type { Application } from "@/lib/applications/schemas";
import { db } from "@/lib/db";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import type { Pet } from "@/lib/pets/schemas/pet";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { eventOf, startReceiver, type ReceivedRequest } from "@/tests/webhook-receiver";
import {
  ORIGIN,
  applicationFootprint,
  call,
  expectApiError,
  expectJson,
  newKey,
  seedPets,
  staffSession,
  type StaffSession,
  allowPrivateWebhooks,
} from "./helpers";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// Adoption applications through the API: the adopter's form (an anonymous
// browser session) and a partner forwarding one, the private link, staff's
// steps and the animal's status following them in one transaction, the
// approve race, and that no applicant's data reaches keys, events or webhooks.

let partner: string;
let reader: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key: partner } = await newKey(["pets:read", "applications:write", "webhooks:manage"], "listing site"));
  ({ key: reader } = await newKey(["pets:read", "pets:write", "webhooks:manage"], "no applications"));
  staff = await staffSession();
});

const form = (over: Record<string, unknown> = {}) => ({
  name: "Sam Rivera",
  email: `Sam.${Math.random().toString(36).slice(2, 8)}@Example.org`,
  phone: "+44 20 7946 0000",
  home: "house",
  otherAnimals: "One elderly cat",
  message: "We have a garden and work from home.\nWe walk every day.",
  consent: true,
  ...over,
});

/** An adopter's browser: a fresh anonymous session cookie, our Origin, an address. */
function adopter(address = "198.51.100.10") {
  const { token } = mintAnonymousToken(new Date());
  return { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: address };
}

function apply(petId: number, json: unknown, auth: { key?: string; headers?: Record<string, string> } = { headers: adopter() }) {
  return call(applyRoute, `/v1/pets/${petId}/applications`, { method: "POST", json, params: { petId: String(petId) }, ...auth });
}

function step(id: number, json: Record<string, unknown>, headers = staff.headers) {
  return call(transitionRoute, `/v1/applications/${id}/transitions`, { method: "POST", json, headers, params: { applicationId: String(id) } });
}

async function petOf(id: number): Promise<Pet> {
  return (await expectJson<Pet[]>(await call(listPets, `/v1/pets?id=${id}`, { key: reader })))[0]!;
}

const tokenOf = (statusUrl: string) => statusUrl.split("/").at(-1)!;

/** Rows as text, to search for values (ids are bigints). */
const asText = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));

describe("applying", () => {
  it("an adopter's browser applies: 201 with a private link whose token is stored only as a hash", async () => {
    const [pet] = await seedPets([{ name: "Maple" }]);
    const res = await apply(pet!.id, form());
    const created = await expectJson<{ id: number; state: string; statusUrl: string }>(res, 201);
    expect(created.state).toBe("received");
    expect(created.statusUrl).toMatch(new RegExp(`^${ORIGIN}/applications/[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(created.statusUrl);
    const row = await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(created.id) } });
    expect(row.tokenHash).not.toContain(token);
    expect(asText(row)).not.toContain(token);
    expect(row.email).toMatch(/^sam\.[a-z0-9]+@example\.org$/); // compared without regard to case

    const status = await expectJson<{ state: string; petName: string; name: string }>(
      await call(linkRoute, `/v1/application-links/${token}`, { params: { token } }),
    );
    expect(status).toMatchObject({ state: "received", petName: "Maple", name: "Sam Rivera" });
    // A token of the right shape that names nothing, and one of the wrong shape.
    const unknown = "A".repeat(43);
    await expectApiError(await call(linkRoute, `/v1/application-links/${unknown}`, { params: { token: unknown } }), 404, "not_found");
    await expectApiError(await call(linkRoute, "/v1/application-links/abc", { params: { token: "abc" } }), 400, "invalid_path");
  });

  it("bad input is a 400 naming each field; consent must be true; the honeypot refuses", async () => {
    const [pet] = await seedPets([{}]);
    const body = await expectApiError(
      await apply(pet!.id, form({ name: " ", email: "nope", home: "castle", message: "", consent: false })),
      400,
      "invalid_body",
    );
    expect(body.details!.map((d) => d.field).sort()).toEqual(["consent", "email", "home", "message", "name"]);
    expect(body.details!.find((d) => d.field === "consent")!.issue).toContain("agreement");
    const bot = await expectApiError(await apply(pet!.id, form({ website: "http://spam.example" })), 400, "invalid_body");
    expect(bot.details).toEqual([{ field: "website", issue: "must be left empty" }]);
    expect(await db().adoptionApplication.count({ where: { petId: BigInt(pet!.id) } })).toBe(0);
  });

  it("a pending or sold animal takes no application (409 not_available); an unknown one is 404", async () => {
    const [pending, sold] = await seedPets([
      { name: "Otis", status: "pending" },
      { name: "Duke", status: "sold" },
    ]);
    expect((await expectApiError(await apply(pending!.id, form()), 409, "not_available")).message).toContain("Otis is pending");
    expect((await expectApiError(await apply(sold!.id, form()), 409, "not_available")).message).toContain("Duke has already found a home");
    await expectApiError(await apply(987654, form()), 404, "not_found");
  });

  it("the same email applying twice while the first is open gets a 409 that tells nothing of the first (no id, no date); after a withdrawal it may apply again", async () => {
    const [pet] = await seedPets([{ name: "Luna" }]);
    const first = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, form({ email: "twice@example.org" })), 201);
    const again = await expectApiError(await apply(pet!.id, form({ email: "TWICE@example.org" })), 409, "already_applied");
    expect(again.message).toContain("Luna");
    // Anyone can send any email address: the answer must not say which application, or since when.
    expect(again.message).not.toMatch(/#\d|\d{4}-\d{2}-\d{2}/);
    expect(again.message).not.toContain(String(first.id));
    // No mail server here: nothing is sent, and the answer does not claim it was.
    expect(again.message).not.toContain("sent");
    expect(again.message).toContain("the private link you were given when you applied");
    const token = tokenOf(first.statusUrl);
    const withdrawn = await expectJson<{ state: string }>(
      await call(withdrawRoute, `/v1/application-links/${token}/withdraw`, { method: "POST", params: { token }, headers: adopter() }),
    );
    expect(withdrawn.state).toBe("withdrawn");
    await expectJson(await apply(pet!.id, form({ email: "twice@example.org" })), 201);
  });

  it("a partner forwards an application with applications:write; a key without it is refused; keys never read applications", async () => {
    const [pet] = await seedPets([{}]);
    const created = await expectJson<{ id: number }>(await apply(pet!.id, form(), { key: partner }), 201);
    await expectApiError(await apply(pet!.id, form(), { key: reader }), 403, "forbidden");
    for (const key of [partner, reader]) {
      await expectApiError(await call(inboxRoute, "/v1/applications", { key }), 403, "forbidden");
      await expectApiError(await call(oneRoute, `/v1/applications/${created.id}`, { key, params: { applicationId: String(created.id) } }), 403, "forbidden");
    }
    const seen = await expectJson<Application>(
      await call(oneRoute, `/v1/applications/${created.id}`, { headers: staff.headers, params: { applicationId: String(created.id) } }),
    );
    expect(seen.source).toBe("partner");
    expect(seen.steps).toEqual([expect.objectContaining({ from: null, to: "received", actor: expect.stringMatching(/^API key #\d+$/) })]);
  });

  it("an adopter's form from another site is refused (CSRF), as every cookie write", async () => {
    const [pet] = await seedPets([{}]);
    await expectApiError(await apply(pet!.id, form(), { headers: { ...adopter(), origin: "https://evil.example" } }), 403, "forbidden");
  });
});

describe("staff steps and the animal's status", () => {
  it("approve makes the animal pending (new version, audit, event); complete makes it sold and declines the others with a message", async () => {
    const [pet] = await seedPets([{ name: "Pepper" }]);
    const a = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, form()), 201);
    const b = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, form()), 201);
    const c = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);

    await expectJson(await step(a.id, { to: "in_review" }));
    const approved = await expectJson<Application>(await step(a.id, { to: "approved", petVersion: 1 }));
    expect(approved.state).toBe("approved");
    expect(await petOf(pet!.id)).toMatchObject({ status: "pending", version: 2 });
    // No more applications while it is pending.
    await expectApiError(await apply(pet!.id, form()), 409, "not_available");
    // Another approval for the same animal: a clear conflict, nothing changed.
    expect((await expectApiError(await step(b.id, { to: "approved" }), 409, "not_available")).message).toContain("Pepper is pending");
    expect((await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(b.id) } })).state).toBe("received");
    // The adopter can no longer withdraw an approved application from the link.
    const token = tokenOf(a.statusUrl);
    await expectApiError(
      await call(withdrawRoute, `/v1/application-links/${token}/withdraw`, { method: "POST", params: { token }, headers: adopter() }),
      409,
      "invalid_transition",
    );

    const done = await expectJson<Application>(
      await step(a.id, { to: "completed", declineOthers: true, message: "Pepper has found a home. Thank you for applying." }),
    );
    expect(done.state).toBe("completed");
    expect(await petOf(pet!.id)).toMatchObject({ status: "sold", version: 3 });
    for (const other of [b, c]) {
      const row = await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(other.id) } });
      expect(row).toMatchObject({ state: "declined", decisionMessage: "Pepper has found a home. Thank you for applying." });
    }
    const bStatus = await expectJson<{ state: string; decisionMessage: string }>(
      await call(linkRoute, `/v1/application-links/${tokenOf(b.statusUrl)}`, { params: { token: tokenOf(b.statusUrl) } }),
    );
    expect(bStatus).toMatchObject({ state: "declined", decisionMessage: "Pepper has found a home. Thank you for applying." });

    // The animal's history shows each status step, by the staff member.
    const history = await expectJson<{ before: { status?: string }; after: { status: string }; actor: { kind: string; email?: string } }[]>(
      await call(historyRoute, `/v1/pets/${pet!.id}/history`, { headers: staff.headers, params: { petId: String(pet!.id) } }),
    );
    expect(history.slice(0, 2).map((h) => [h.before.status, h.after.status, h.actor.email])).toEqual([
      ["pending", "sold", staff.email],
      ["available", "pending", staff.email],
    ]);
    // The application's own steps.
    const steps = (
      await expectJson<Application>(await call(oneRoute, `/v1/applications/${a.id}`, { headers: staff.headers, params: { applicationId: String(a.id) } }))
    ).steps;
    expect(steps.map((s) => `${s.from ?? "-"}>${s.to}`)).toEqual(["->received", "received>in_review", "in_review>approved", "approved>completed"]);
    expect(steps[1]!.actor).toBe(`staff ${staff.email}`);
  });

  it("cancel returns the animal to available; steps out of order are 409 invalid_transition; a stale petVersion is 412", async () => {
    const [pet] = await seedPets([{}]);
    const a = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);
    await expectApiError(await step(a.id, { to: "completed" }), 409, "invalid_transition");
    await expectApiError(await step(a.id, { to: "approved", petVersion: 7 }), 412, "precondition_failed");
    expect((await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(a.id) } })).state).toBe("received");
    await expectJson(await step(a.id, { to: "approved" }));
    await expectJson(await step(a.id, { to: "cancelled" }));
    expect(await petOf(pet!.id)).toMatchObject({ status: "available", version: 3 });
    await expectApiError(await step(a.id, { to: "approved" }), 409, "invalid_transition");
    await expectApiError(await step(a.id, { to: "unknown" }), 400, "invalid_body");
    await expectApiError(await step(424242, { to: "declined" }), 404, "not_found");
  });

  it("If-Match (the animal's ETag, as for PATCH /v1/pets/{id}): a stale one is 412 with the current ETag and changes nothing; the current one goes through", async () => {
    const [pet] = await seedPets([{ name: "Conditional" }]);
    const a = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);
    // Someone renames the animal after staff read it at version 1.
    await expectJson(
      await call(patchPet, `/v1/pets/${pet!.id}`, { method: "PATCH", key: reader, json: { name: "Conditional Too" }, params: { petId: String(pet!.id) } }),
    );
    const before = await applicationFootprint(a.id, pet!.id);
    const stale = await step(a.id, { to: "approved" }, { ...staff.headers, "if-match": '"1"' });
    await expectApiError(stale, 412, "precondition_failed");
    expect(stale.headers.get("etag")).toBe('"2"');
    expect(await applicationFootprint(a.id, pet!.id)).toEqual(before);
    // A list naming another stale version, and a weak tag (never matches), fail alike; a malformed header is 400.
    await expectApiError(await step(a.id, { to: "approved" }, { ...staff.headers, "if-match": '"1", "3"' }), 412, "precondition_failed");
    await expectApiError(await step(a.id, { to: "approved" }, { ...staff.headers, "if-match": 'W/"2"' }), 412, "precondition_failed");
    await expectApiError(await step(a.id, { to: "approved" }, { ...staff.headers, "if-match": "2" }), 400, "invalid_header");
    // If-Match and the older petVersion field must both hold.
    await expectApiError(await step(a.id, { to: "approved", petVersion: 1 }, { ...staff.headers, "if-match": '"2"' }), 412, "precondition_failed");
    expect(await applicationFootprint(a.id, pet!.id)).toEqual(before);

    // What staff see carries the version to send.
    const seen = await expectJson<Application>(
      await call(oneRoute, `/v1/applications/${a.id}`, { headers: staff.headers, params: { applicationId: String(a.id) } }),
    );
    expect(seen).toMatchObject({ petStatus: "available", petVersion: 2 });
    const approved = await expectJson<Application>(await step(a.id, { to: "approved" }, { ...staff.headers, "if-match": `"${seen.petVersion}"` }));
    expect(approved).toMatchObject({ state: "approved", petStatus: "pending", petVersion: 3 });
    // A cancel under the version from before the approval: refused; under the current one: done.
    await expectApiError(await step(a.id, { to: "cancelled" }, { ...staff.headers, "if-match": '"2"' }), 412, "precondition_failed");
    expect((await expectJson<Application>(await step(a.id, { to: "cancelled" }, { ...staff.headers, "if-match": '"3"' }))).petStatus).toBe("available");
  });

  it("steps that leave the animal alone (review, decline) ignore If-Match", async () => {
    const [pet] = await seedPets([{}]);
    const a = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);
    expect((await expectJson<Application>(await step(a.id, { to: "in_review" }, { ...staff.headers, "if-match": '"9"' }))).state).toBe("in_review");
    expect((await expectJson<Application>(await step(a.id, { to: "declined" }, { ...staff.headers, "if-match": '"9"' }))).state).toBe("declined");
  });

  it("while an application is approved, the animal's status follows it: a status changed by hand is 409 adoption_in_progress (other fields may change)", async () => {
    const [pet] = await seedPets([{ name: "Followed" }]);
    const a = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);
    await expectJson(await step(a.id, { to: "approved" }));
    const before = await applicationFootprint(a.id, pet!.id);
    for (const status of ["available", "sold"]) {
      const refused = await expectApiError(
        await call(patchPet, `/v1/pets/${pet!.id}`, { method: "PATCH", key: reader, json: { status }, params: { petId: String(pet!.id) } }),
        409,
        "adoption_in_progress",
      );
      expect(refused.message).toContain(`Application #${a.id} for Followed is approved`);
    }
    expect(await applicationFootprint(a.id, pet!.id)).toEqual(before);
    const renamed = await expectJson<Pet>(
      await call(patchPet, `/v1/pets/${pet!.id}`, {
        method: "PATCH",
        key: reader,
        json: { name: "Followed Still", status: "pending" },
        params: { petId: String(pet!.id) },
      }),
    );
    expect(renamed).toMatchObject({ name: "Followed Still", status: "pending", version: 3 });
    // Once the adoption is cancelled, the status is staff's to set again.
    await expectJson(await step(a.id, { to: "cancelled" }));
    expect(
      (
        await expectJson<Pet>(
          await call(patchPet, `/v1/pets/${pet!.id}`, { method: "PATCH", key: reader, json: { status: "sold" }, params: { petId: String(pet!.id) } }),
        )
      ).status,
    ).toBe("sold");
  });

  it("approving while another application for the animal is approved (its status set back by hand, before that was refused) is 409 adoption_in_progress, never a 500, and changes nothing", async () => {
    const [pet] = await seedPets([{ name: "Twice" }]);
    const a = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);
    const b = await expectJson<{ id: number }>(await apply(pet!.id, form()), 201);
    await expectJson(await step(a.id, { to: "approved" }));
    // As a hand-made change used to leave it (and as a database restored from then may hold it).
    await db().pet.update({ where: { id: BigInt(pet!.id) }, data: { status: "available" } });
    const before = await applicationFootprint(b.id, pet!.id);
    const refused = await expectApiError(await step(b.id, { to: "approved" }), 409, "adoption_in_progress");
    expect(refused.message).toBe(`Application #${a.id} for Twice is already approved: complete or cancel that adoption before approving another application.`);
    expect(await applicationFootprint(b.id, pet!.id)).toEqual(before);
    expect((await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(a.id) } })).state).toBe("approved");
    // The way out: cancel the first adoption, then approve the second.
    await expectJson(await step(a.id, { to: "cancelled" }));
    expect((await expectJson<Application>(await step(b.id, { to: "approved" }))).petStatus).toBe("pending");
  });

  it("twenty staff approving twenty applications for one animal at the same moment: exactly one wins, the others change nothing", async () => {
    const [pet] = await seedPets([{ name: "Scout" }]);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await expectJson<{ id: number }>(await apply(pet!.id, form()), 201)).id);
    const sessions = await Promise.all(ids.map(() => staffSession()));
    const answers = await Promise.all(ids.map((id, i) => step(id, { to: "approved" }, sessions[i]!.headers)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const rows = await db().adoptionApplication.groupBy({ by: ["state"], where: { petId: BigInt(pet!.id) }, _count: true });
    expect(Object.fromEntries(rows.map((r) => [r.state, r._count]))).toEqual({ approved: 1, received: 19 });
    expect(await petOf(pet!.id)).toMatchObject({ status: "pending", version: 2 });
  });

  it("the inbox lists newest first and filters by state and animal; staff only", async () => {
    const [p1, p2] = await seedPets([{}, {}]);
    const a = await expectJson<{ id: number }>(await apply(p1!.id, form()), 201);
    const b = await expectJson<{ id: number }>(await apply(p2!.id, form()), 201);
    await expectJson(await step(a.id, { to: "declined", message: "Sorry." }));
    const all = await expectJson<Application[]>(await call(inboxRoute, "/v1/applications", { headers: staff.headers }));
    expect(all.slice(0, 2).map((x) => x.id)).toEqual([b.id, a.id]);
    const received = await expectJson<Application[]>(await call(inboxRoute, "/v1/applications?state=received", { headers: staff.headers }));
    expect(received.map((x) => x.id)).toContain(b.id);
    expect(received.map((x) => x.id)).not.toContain(a.id);
    const forP1 = await expectJson<Application[]>(await call(inboxRoute, `/v1/applications?petId=${p1!.id}`, { headers: staff.headers }));
    expect(forP1.map((x) => x.id)).toEqual([a.id]);
    await expectApiError(await call(inboxRoute, "/v1/applications", { headers: adopter() }), 403, "forbidden");
  });
});

describe("personal data", () => {
  let work: BackgroundWork | undefined;
  afterAll(async () => {
    await work?.stop();
  });

  it("the change feed and webhook deliveries carry the animal's change only, never the applicant", async () => {
    // A real endpoint, delivered to by the real background work (as every server runs it).
    const receiver = await startReceiver();
    try {
      await expectJson(
        await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key: partner, json: { url: receiver.url, events: ["pet.created", "pet.updated"] } }),
        201,
      );
      work = startBackgroundWork();
      const [pet] = await seedPets([{}]);
      const secret = {
        name: "Priya Secretname",
        email: "priya.secret@example.org",
        phone: "+1 555 0100 999",
        message: "A very private reason 7d1f",
        otherAnimals: "Two hidden hamsters 3c9a",
      };
      const a = await expectJson<{ id: number }>(await apply(pet!.id, form(secret)), 201);
      await expectJson(await step(a.id, { to: "approved" }));
      await expectJson(await step(a.id, { to: "completed" }));

      const forPet = (status: string) => (r: ReceivedRequest) => {
        const event = eventOf(r);
        return event.type === "pet.updated" && (event.data.pet as Pet).id === pet!.id && (event.data.pet as Pet).status === status;
      };
      const delivered = [await receiver.waitFor(forPet("pending")), await receiver.waitFor(forPet("sold"))];
      expect(eventOf(delivered[0]!).data).toMatchObject({ pet: { id: pet!.id, status: "pending" }, previous: { status: "available" } });
      expect(eventOf(delivered[1]!).data).toMatchObject({ pet: { id: pet!.id, status: "sold" }, previous: { status: "pending" } });
      const secrets = [...Object.values(secret), secret.email.toUpperCase(), "Priya", "Secretname"];
      for (const request of receiver.requests) {
        for (const value of secrets) expect(request.body, `a delivery carries "${value}"`).not.toContain(value);
        for (const value of secrets) expect(JSON.stringify(request.headers)).not.toContain(value);
      }

      const feed = await call(listEventsRoute, "/v1/events?limit=100", { key: partner });
      const text = await feed.text();
      expect(feed.status).toBe(200);
      expect(text).toContain(`"status":"pending"`);
      for (const value of secrets) expect(text).not.toContain(value);
      // Stored events, audit records and delivery records too.
      const stored = asText(await db().event.findMany()) + asText(await db().petAudit.findMany()) + asText(await db().webhookDelivery.findMany());
      for (const value of secrets) expect(stored).not.toContain(value);
    } finally {
      await receiver.close();
    }
  });
});
