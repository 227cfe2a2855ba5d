import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as linkRoute } from "@/app/v1/organizations/[organizationId]/people/[personId]/link/route";
import { GET as fosterPageRoute } from "@/app/v1/organizations/[organizationId]/people/[personId]/foster-page/route";
import { GET as viewRoute, PATCH as patchRoute } from "@/app/v1/foster-links/[token]/route";
import { POST as notesRoute } from "@/app/v1/foster-links/[token]/notes/route";
import { POST as readyRoute } from "@/app/v1/foster-links/[token]/ready/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { FosterPage, FosterView } from "@/lib/fosters/links-schemas";
import { FOSTER_LINK_DAYS } from "@/lib/fosters/links-schemas";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { PUBLIC_SITE, mailingInstance } from "@/tests/mail-server";
import { FIRST_ORG, call, expectApiError, expectJson, newKey, newOrganization, seedPets, staffSession, type StaffSession } from "./helpers";

// The foster's private page: staff send the link (only its hash is stored; a
// new one kills the old; it expires), the foster sees their own animals and
// nobody else's, changes their capacity, species and blackout days (clear
// 400s), writes notes staff read (and are emailed about), says "ready for
// another".

const mail = mailingInstance();
let work: BackgroundWork | undefined;
let staff: StaffSession;

beforeAll(async () => {
  staff = await staffSession();
  await db().organization.update({ where: { id: BigInt(FIRST_ORG) }, data: { email: "shelter-inbox@example.org" } });
  work = startBackgroundWork();
});

afterAll(async () => {
  await work?.stop();
});

let emails = 0;
async function foster(fields: { status?: "active" | "paused" | "applicant" | "inactive"; locale?: string; organizationId?: number } = {}) {
  const row = await db().person.create({
    data: {
      organizationId: BigInt(fields.organizationId ?? FIRST_ORG),
      name: `Foster ${++emails}`,
      email: `foster${emails}.${Math.random().toString(36).slice(2, 8)}@example.org`,
      city: "Evanston",
      country: "US",
      fosterStatus: fields.status ?? "active",
      fosterCapacity: 2,
      locale: fields.locale ?? null,
    },
    select: { id: true, email: true },
  });
  return { id: Number(row.id), email: row.email! };
}

/** Places the animal with the person (as the placements' service will: an open placement inside its open stay). */
async function place(petId: number, personId: number, expectedEndOn: string | null = null) {
  const intakeAt = new Date(Date.now() - 10 * 86_400_000);
  const stay = await db().petStay.create({
    data: { petId: BigInt(petId), organizationId: BigInt(FIRST_ORG), intakeAt, intakeType: "stray" },
    select: { id: true },
  });
  await db().petPlacement.create({
    data: {
      petId: BigInt(petId),
      organizationId: BigInt(FIRST_ORG),
      stayId: stay.id,
      personId: BigInt(personId),
      startAt: new Date(intakeAt.getTime() + 86_400_000),
      expectedEndOn: expectedEndOn ? new Date(`${expectedEndOn}T00:00:00Z`) : null,
    },
  });
}

function sendLink(personId: number, headers = staff.headers, organizationId = FIRST_ORG) {
  return call(linkRoute, `/v1/organizations/${organizationId}/people/${personId}/link`, {
    method: "POST",
    headers,
    params: { organizationId: String(organizationId), personId: String(personId) },
  });
}

/** Sends the link and reads the token from the email the foster gets. */
async function linkOf(person: { id: number; email: string }, subject = /Your foster page/): Promise<string> {
  const before = mail.to(person.email).length;
  await expectJson(await sendLink(person.id), 202);
  await until(() => mail.to(person.email).length > before);
  const message = mail.to(person.email).at(-1)!;
  expect(message.subject).toMatch(subject);
  return /\/fosters\/([A-Za-z0-9_-]{43})/.exec(message.text ?? "")![1]!;
}

async function until(probe: () => boolean) {
  await vi.waitFor(
    () => {
      if (!probe()) throw new Error("waiting for the email");
    },
    { timeout: 15_000, interval: 100 },
  );
}

const view = (token: string) => call(viewRoute, `/v1/foster-links/${token}`, { params: { token } });
const patch = (token: string, json: unknown) => call(patchRoute, `/v1/foster-links/${token}`, { method: "PATCH", params: { token }, json });

describe("the link", () => {
  it("is emailed in the person's language; only its hash is stored", async () => {
    const person = await foster({ locale: "es" });
    const token = await linkOf(person, /Su página de acogida/);
    expect(mail.to(person.email).at(-1)!.text).toContain(`${PUBLIC_SITE}/es/fosters/${token}`);
    const row = await db().fosterLink.findUniqueOrThrow({ where: { personId: BigInt(person.id) } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("base64url"));
    const stored = await db().$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM foster_links WHERE token_hash = ${token} OR row_to_json(foster_links)::text LIKE ${`%${token}%`}`;
    expect(Number(stored[0]!.n)).toBe(0);
    expect((await expectJson<FosterView>(await view(token))).name).toBe(`Foster ${emails}`);
  });

  it("in English when the person's language is not known", async () => {
    const person = await foster();
    const token = await linkOf(person);
    expect(mail.to(person.email).at(-1)!.text).toContain(`${PUBLIC_SITE}/fosters/${token}`);
  });

  it("sending again rotates it: the old link stops working at once", async () => {
    const person = await foster();
    const first = await linkOf(person);
    const second = await linkOf(person);
    expect(second).not.toBe(first);
    await expectApiError(await view(first), 404, "not_found");
    await expectJson(await view(second));
  });

  it(`expires after ${FOSTER_LINK_DAYS} days: 410 link_expired`, async () => {
    const person = await foster();
    const token = await linkOf(person);
    setClock(new Date(Date.now() + FOSTER_LINK_DAYS * 86_400_000 + 60_000));
    try {
      const body = await expectApiError(await view(token), 410, "link_expired");
      expect(body.message).toContain("new one");
      await expectApiError(await patch(token, { capacity: 3 }), 410, "link_expired");
    } finally {
      setClock(undefined);
    }
  });

  it("a foster no longer active or paused loses the page (410); a made-up or malformed token is 404 / 400", async () => {
    const person = await foster();
    const token = await linkOf(person);
    await db().person.update({ where: { id: BigInt(person.id) }, data: { fosterStatus: "inactive" } });
    await expectApiError(await view(token), 410, "link_expired");
    await expectApiError(await view("A".repeat(43)), 404, "not_found");
    await expectApiError(await view("short"), 400, "invalid_path");
  });

  it("only active or paused fosters with an email get one (409 not_a_foster); another organisation's person is 404, another organisation's staff 403", async () => {
    const applicant = await foster({ status: "applicant" });
    await expectApiError(await sendLink(applicant.id), 409, "not_a_foster");
    const other = await newOrganization();
    const theirs = await foster({ organizationId: other });
    await expectApiError(await sendLink(theirs.id), 404, "not_found");
    const otherStaff = await staffSession(undefined, { organizationId: other });
    await expectApiError(await sendLink(theirs.id, otherStaff.headers), 403, "forbidden");
  });

  it("needs people:write, and people:read as every people route: a key without either gets 403", async () => {
    const person = await foster();
    for (const scopes of [
      ["pets:read", "people:read"],
      ["pets:read", "people:write"],
    ] as const) {
      const { key } = await newKey([...scopes]);
      const res = await call(linkRoute, `/v1/organizations/${FIRST_ORG}/people/${person.id}/link`, {
        method: "POST",
        key,
        params: { organizationId: String(FIRST_ORG), personId: String(person.id) },
      });
      await expectApiError(res, 403, "forbidden");
    }
    expect(await db().fosterLink.count({ where: { personId: BigInt(person.id) } })).toBe(0);
  });
});

describe("the page", () => {
  it("shows the foster their own animals now (name, photo, since, expected back), never another foster's", async () => {
    const [mine, alsoMine, theirs] = await seedPets([{ name: "Biscuit" }, { name: "Pepper" }, { name: "Someone Else's" }]);
    const me = await foster();
    const them = await foster();
    await place(mine!.id, me.id, "2027-01-15");
    await place(alsoMine!.id, me.id);
    await place(theirs!.id, them.id);
    const token = await linkOf(me);
    const body = await expectJson<FosterView>(await view(token));
    expect(body.animals.map((a) => a.name)).toEqual(["Biscuit", "Pepper"]);
    expect(body.animals[0]).toMatchObject({ id: mine!.id, photo: null, expectedBack: "2027-01-15" });
    expect(body).toMatchObject({ capacity: 2, placedCount: 2, room: 0, status: "active", readyAt: null });
    expect(JSON.stringify(body)).not.toContain("Someone Else's");
    expect(JSON.stringify(body)).not.toContain(them.email);
  });

  it("capacity, species and blackout days change; bad values are clear 400s naming the field", async () => {
    const me = await foster();
    const token = await linkOf(me);
    const changed = await expectJson<FosterView>(
      await patch(token, {
        capacity: 4,
        species: ["cat", "dog"],
        blackouts: [
          { from: "2027-08-01", to: "2027-08-10" },
          { from: "2027-07-01", to: "2027-07-01" },
        ],
      }),
    );
    expect(changed).toMatchObject({ capacity: 4, species: ["cat", "dog"], room: 4 });
    expect(changed.blackouts).toEqual([
      { from: "2027-07-01", to: "2027-07-01" },
      { from: "2027-08-01", to: "2027-08-10" },
    ]);
    const cases: [unknown, string][] = [
      [{ capacity: 0 }, "capacity"],
      [{ capacity: 51 }, "capacity"],
      [{ capacity: 2.5 }, "capacity"],
      [{ species: ["horse"] }, "species.0"],
      [{ species: ["cat", "cat"] }, "species"],
      [{ blackouts: [{ from: "2027-02-30", to: "2027-03-01" }] }, "blackouts.0.from"],
      [{ blackouts: [{ from: "2027-03-10", to: "2027-03-01" }] }, "blackouts.0.to"],
      [{ name: "Someone" }, "name"],
      [{}, ""],
    ];
    for (const [json, field] of cases) {
      const body = await expectApiError(await patch(token, json), 400, "invalid_body");
      expect(
        body.details?.map((d) => d.field),
        JSON.stringify(json),
      ).toContain(field);
    }
    expect((await db().person.findUniqueOrThrow({ where: { id: BigInt(me.id) } })).fosterCapacity).toBe(4);
  });

  it("a note about one of their animals is kept for staff, who are emailed (without the note or the foster's name); not about another's animal", async () => {
    const [pet, notMine] = await seedPets([{ name: "Noted" }, { name: "Not Mine" }]);
    const me = await foster();
    await place(pet!.id, me.id);
    const token = await linkOf(me);
    const note = (json: unknown) => call(notesRoute, `/v1/foster-links/${token}/notes`, { method: "POST", params: { token }, json });
    const created = await expectJson<{ id: number; petName: string }>(await note({ petId: pet!.id, text: "Ate well, slept all afternoon." }), 201);
    expect(created.petName).toBe("Noted");
    await expectApiError(await note({ petId: notMine!.id, text: "Hello" }), 404, "not_found");
    await expectApiError(await note({ petId: pet!.id, text: "  " }), 400, "invalid_body");

    const alert = await mail.waitFor("shelter-inbox@example.org", /A foster wrote a note about Noted/);
    expect(alert.text).not.toContain("Ate well");
    expect(alert.text).not.toContain(`Foster ${emails}`);
    expect(alert.text).toContain(`${PUBLIC_SITE}/staff/fosters/applications?person=${me.id}`);

    const page = await expectJson<FosterPage>(
      await call(fosterPageRoute, `/v1/organizations/${FIRST_ORG}/people/${me.id}/foster-page`, {
        headers: staff.headers,
        params: { organizationId: String(FIRST_ORG), personId: String(me.id) },
      }),
    );
    expect(page.notes).toEqual([expect.objectContaining({ petId: pet!.id, petName: "Noted", text: "Ate well, slept all afternoon." })]);
    expect(page.link).toMatchObject({ expired: false });
  });

  it('"ready for another" sets the time staff see', async () => {
    const me = await foster();
    const token = await linkOf(me);
    const body = await expectJson<FosterView>(await call(readyRoute, `/v1/foster-links/${token}/ready`, { method: "POST", params: { token } }));
    expect(body.readyAt).not.toBeNull();
    const page = await expectJson<FosterPage>(
      await call(fosterPageRoute, `/v1/organizations/${FIRST_ORG}/people/${me.id}/foster-page`, {
        headers: staff.headers,
        params: { organizationId: String(FIRST_ORG), personId: String(me.id) },
      }),
    );
    expect(page.readyAt).toBe(body.readyAt);
  });

  it("staff's view of the page needs people:read", async () => {
    const me = await foster();
    const { key } = await newKey(["pets:read"]);
    const res = await call(fosterPageRoute, `/v1/organizations/${FIRST_ORG}/people/${me.id}/foster-page`, {
      key,
      params: { organizationId: String(FIRST_ORG), personId: String(me.id) },
    });
    await expectApiError(res, 403, "forbidden");
  });
});
