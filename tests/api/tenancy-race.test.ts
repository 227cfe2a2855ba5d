import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { PATCH as organizationPatch } from "@/app/v1/organizations/[organizationId]/route";
import { POST as organizationCreate } from "@/app/v1/organizations/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { POST as photoUpload } from "@/app/v1/pets/[petId]/photos/route";
import { PATCH as petPatch } from "@/app/v1/pets/[petId]/route";
import { POST as petCreate } from "@/app/v1/pets/route";
import { getApplication, transitionApplication } from "@/lib/applications/service";
import { db } from "@/lib/db";
import { revokeApiKey, unbanApiKey } from "@/lib/keys/service";
import { organizationTenancy, PLATFORM, type Tenancy } from "@/lib/organizations/tenancy";
import { updateOrganization } from "@/lib/organizations/service";
import { addPhoto, deletePhoto, updatePhotoAlt } from "@/lib/photos/service";
import { petView } from "@/lib/pets/present";
import { updatePet } from "@/lib/pets/service";
import { disableWebhookByStaff } from "@/lib/webhooks/service";
import { call, expectApiError, expectJson, FIRST_ORG, newKey, newOrganization, seedPets, type RouteHandler, type StaffSession, staffSession } from "./helpers";

// The tenancy race of issue 32, played against the real handlers and
// database: a caller of the first organisation sends the head of a write to
// the next id (ids are sequential and public) and holds its body back; the
// other organisation then creates that resource; then the body is sent. The
// request must be refused with nothing changed, and answered before its body
// is read (a path that names nothing is 404 at once). Below the wrapper,
// each write names the caller's organisation in the very statement that
// locks or changes the row, so even a write that got past the wrapper
// finds nothing of another organisation's.

/** A body the handler can only read when the test lets it: pulled on demand (highWaterMark 0), delivered on release(). */
function heldBody(bytes: Uint8Array) {
  let pulled!: () => void;
  const reading = new Promise<"the body was read">((resolve) => (pulled = () => resolve("the body was read")));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulled();
        await released;
        controller.enqueue(bytes);
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, reading, release };
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** The id the next row of `table` will get (each test file has a database of its own). */
async function nextId(table: "pets" | "adoption_applications" | "organizations"): Promise<number> {
  const [row] = await db().$queryRawUnsafe<{ n: bigint }[]>(`SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence('${table}', 'id')), 0) + 1 AS n`);
  return Number(row!.n);
}

interface Race {
  /** The held request: the first organisation's caller on `id`, not there yet. */
  handler: RouteHandler;
  method: "PATCH" | "POST";
  path: (id: number) => string;
  params: (id: number) => Record<string, string>;
  caller: () => { key?: string; headers?: Record<string, string> };
  body: () => Promise<{ bytes: Uint8Array; type: string }>;
  /** The other organisation creates the resource; returns its id. */
  create: () => Promise<number>;
  /** What must still be as the other organisation left it. */
  state: (id: number) => Promise<unknown>;
}

let home: { key: string; staff: StaffSession };
let other: { org: number; key: string; petId?: number };
let platformKey: string;

beforeAll(async () => {
  home = {
    key: (await newKey(["pets:read", "pets:write", "organizations:manage"], "home key")).key,
    staff: await staffSession(),
  };
  const org = await newOrganization({ name: "Other Rescue" });
  other = { org, key: (await newKey(["pets:read", "pets:write", "applications:write"], "other key", { plan: "pro" }, org)).key };
  platformKey = (await newKey(["pets:read", "organizations:manage"], "platform", { plan: "pro" }, null)).key;
});

async function createOtherPet(name: string): Promise<number> {
  const res = await call(petCreate, "/v1/pets", { method: "POST", key: other.key, json: { name, categoryId: 1 } });
  return (await expectJson<{ id: number }>(res, 201)).id;
}

const RACES: Record<string, Race> = {
  "PATCH /v1/pets/{petId}: another organisation's animal is not renamed": {
    handler: petPatch,
    method: "PATCH",
    path: (id) => `/v1/pets/${id}`,
    params: (id) => ({ petId: String(id) }),
    caller: () => ({ key: home.key }),
    body: async () => ({ bytes: json({ name: "Taken by A" }), type: "application/json" }),
    create: () => createOtherPet("Their own"),
    state: async (id) => ({
      pet: await db().pet.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { name: true, version: true } }),
      audits: await db().petAudit.count({ where: { petId: BigInt(id) } }),
    }),
  },
  "POST /v1/pets/{petId}/photos: no photo lands on another organisation's animal": {
    handler: photoUpload,
    method: "POST",
    path: (id) => `/v1/pets/${id}/photos`,
    params: (id) => ({ petId: String(id) }),
    caller: () => ({ key: home.key }),
    body: async () => ({
      bytes: new Uint8Array(
        await sharp({ create: { width: 64, height: 48, channels: 3, background: "#884422" } })
          .jpeg()
          .toBuffer(),
      ),
      type: "image/jpeg",
    }),
    create: () => createOtherPet("Camera shy"),
    state: (id) => db().pet.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { version: true, photos: { select: { id: true } } } }),
  },
  "POST /v1/applications/{applicationId}/transitions: another organisation's application is not decided, nor shown": {
    handler: transitionRoute,
    method: "POST",
    path: (id) => `/v1/applications/${id}/transitions`,
    params: (id) => ({ applicationId: String(id) }),
    caller: () => ({ headers: home.staff.headers }),
    body: async () => ({ bytes: json({ to: "declined", message: "Taken by A" }), type: "application/json" }),
    create: async () => {
      other.petId ??= await createOtherPet("Much loved");
      const res = await call(applyRoute, `/v1/pets/${other.petId}/applications`, {
        method: "POST",
        key: other.key,
        params: { petId: String(other.petId) },
        json: { name: "Robin Private", email: "robin.private@example.org", home: "house", message: "Please", consent: true },
      });
      return (await expectJson<{ id: number }>(res, 201)).id;
    },
    state: (id) =>
      db().adoptionApplication.findUniqueOrThrow({
        where: { id: BigInt(id) },
        select: { state: true, decisionMessage: true, _count: { select: { steps: true } } },
      }),
  },
  "PATCH /v1/organizations/{organizationId}: a new organisation's profile is not taken over": {
    handler: organizationPatch,
    method: "PATCH",
    path: (id) => `/v1/organizations/${id}`,
    params: (id) => ({ organizationId: String(id) }),
    caller: () => ({ key: home.key }),
    body: async () => ({ bytes: json({ name: "Taken by A" }), type: "application/json" }),
    create: async () => {
      const res = await call(organizationCreate, "/v1/organizations", {
        method: "POST",
        key: platformKey,
        json: { name: "Brand New Rescue", address: { city: "Chicago", country: "US", postcode: "60601" } },
      });
      return (await expectJson<{ id: number }>(res, 201)).id;
    },
    state: (id) => db().organization.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { name: true, slug: true } }),
  },
};

const SEQUENCE: Record<string, "pets" | "adoption_applications" | "organizations"> = {
  "/v1/pets": "pets",
  "/v1/applications": "adoption_applications",
  "/v1/organizations": "organizations",
};

describe("a request held open until another organisation creates what its path names", () => {
  for (const [name, race] of Object.entries(RACES)) {
    it(name, async () => {
      const prefix = Object.keys(SEQUENCE).find((p) => race.path(1).startsWith(`${p}/`))!;
      const id = await nextId(SEQUENCE[prefix]!);
      const { bytes, type } = await race.body();
      const held = heldBody(bytes);
      const caller = race.caller();
      const answer = call(race.handler, race.path(id), {
        method: race.method,
        ...caller,
        headers: { ...caller.headers, "content-type": type },
        body: held.stream,
        params: race.params(id),
      });
      // Either the answer comes first (the wrapper refused the path as it
      // is), or the handler starts reading the body (it let the path through).
      const first = await Promise.race([answer.then(() => "answered" as const), held.reading]);

      // Meanwhile the other organisation creates that very id.
      expect(await race.create()).toBe(id);
      const before = await race.state(id);
      held.release();

      const res = await answer;
      const body = await expectApiError(res, 404, "not_found");
      expect(JSON.stringify(body)).not.toMatch(/Robin|robin\.private/);
      expect(await race.state(id)).toEqual(before);
      expect(first, "answered before the body was read").toBe("answered");
    });
  }
});

describe("below the wrapper, every write names the caller's organisation in the statement that locks or changes the row", () => {
  let mine: { pet: number; photo: number; application: number; key: number; platformKey: number; webhook: number };
  let theirs: Tenancy;
  const staff = { id: 1, email: "someone@elsewhere.example" };

  beforeAll(async () => {
    const [pet] = await seedPets([{ name: "Mine" }]);
    const photo = await db().petPhoto.create({
      data: { petId: BigInt(pet!.id), position: 0, width: 10, height: 10, placeholder: "data:,", files: {}, fileKeys: [] },
      select: { id: true },
    });
    const key = await newKey(["pets:read", "webhooks:manage", "applications:write"], "mine");
    const webhook = await db().webhookEndpoint.create({
      data: { apiKeyId: BigInt(key.id), url: "https://hooks.mine.example/in", events: ["pet.created"], secret: "sealed", startAfter: 0n },
      select: { id: true },
    });
    const applied = await call(applyRoute, `/v1/pets/${pet!.id}/applications`, {
      method: "POST",
      key: key.key,
      params: { petId: String(pet!.id) },
      json: { name: "Kit Mine", email: "kit.mine@example.org", home: "house", message: "Hello", consent: true },
    });
    const platformKey = await newKey(["pets:read"], "platform key", { plan: "pro" }, null);
    mine = {
      pet: pet!.id,
      photo: Number(photo.id),
      application: (await expectJson<{ id: number }>(applied, 201)).id,
      key: key.id,
      platformKey: platformKey.id,
      webhook: Number(webhook.id),
    };
    theirs = organizationTenancy(await newOrganization({ name: "Elsewhere" }));
  });

  async function footprint() {
    return Promise.all([
      db().pet.findUniqueOrThrow({
        where: { id: BigInt(mine.pet) },
        select: { name: true, version: true, status: true, photos: { select: { id: true, alt: true } } },
      }),
      db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(mine.application) }, select: { state: true, updatedAt: true } }),
      db().apiKey.findMany({ where: { id: { in: [BigInt(mine.key), BigInt(mine.platformKey)] } }, select: { revokedAt: true, bannedUntil: true } }),
      db().webhookEndpoint.findUniqueOrThrow({ where: { id: BigInt(mine.webhook) }, select: { enabled: true } }),
      db().organization.findUniqueOrThrow({ where: { id: BigInt(FIRST_ORG) }, select: { name: true } }),
    ]);
  }

  const options = (tenancy: Tenancy) => ({
    actor: { kind: "staff" as const, id: 1, email: staff.email },
    requestId: "statement",
    tenancy,
    view: petView(new Date()),
  });

  const WRITES: Record<string, (tenancy: Tenancy) => Promise<unknown>> = {
    "updatePet (changePet's lock)": (tenancy) => updatePet(mine.pet, { name: "Taken" }, options(tenancy)),
    addPhoto: async (tenancy) =>
      addPhoto(
        mine.pet,
        {
          bytes: await sharp({ create: { width: 32, height: 32, channels: 3, background: "#123456" } })
            .png()
            .toBuffer(),
          alt: null,
        },
        options(tenancy),
      ),
    deletePhoto: (tenancy) => deletePhoto(mine.pet, mine.photo, options(tenancy)),
    updatePhotoAlt: (tenancy) => updatePhotoAlt(mine.pet, mine.photo, "Taken", options(tenancy)),
    "transitionApplication (the application's lock)": (tenancy) =>
      transitionApplication(mine.application, { to: "in_review", declineOthers: false, message: null }, { staff, tenancy, requestId: "statement" }),
    "transitionApplication (with the animal's lock)": (tenancy) =>
      transitionApplication(mine.application, { to: "approved", declineOthers: false, message: null }, { staff, tenancy, requestId: "statement" }),
    getApplication: (tenancy) => getApplication(mine.application, tenancy.kind === "organization" ? tenancy.organizationId : undefined),
    updateOrganization: (tenancy) => updateOrganization(FIRST_ORG, { name: "Taken" }, tenancy),
    revokeApiKey: (tenancy) => revokeApiKey(mine.key, tenancy),
    "revokeApiKey (a platform key)": (tenancy) => revokeApiKey(mine.platformKey, tenancy),
    unbanApiKey: (tenancy) => unbanApiKey(mine.key, tenancy),
    disableWebhookByStaff: (tenancy) => disableWebhookByStaff(mine.key, mine.webhook, staff.email, tenancy),
  };

  for (const [name, write] of Object.entries(WRITES)) {
    it(`${name}: another organisation's caller finds nothing, and nothing changes`, async () => {
      const before = await footprint();
      await expect(write(theirs)).rejects.toMatchObject({ status: 404, code: "not_found" });
      expect(await footprint()).toEqual(before);
    });
  }

  it("the organisation's own callers and the platform still can", async () => {
    const own = organizationTenancy(FIRST_ORG);
    await expect(updatePet(mine.pet, { name: "Renamed" }, options(own))).resolves.toMatchObject({ name: "Renamed" });
    await expect(updatePhotoAlt(mine.pet, mine.photo, "A dog", options(PLATFORM))).resolves.toMatchObject({ photo: { alt: "A dog" } });
    await expect(
      transitionApplication(mine.application, { to: "in_review", declineOthers: false, message: null }, { staff, tenancy: own, requestId: "own" }),
    ).resolves.toMatchObject({ state: "in_review" });
    await expect(getApplication(mine.application, FIRST_ORG)).resolves.toMatchObject({ name: "Kit Mine" });
    await expect(updateOrganization(FIRST_ORG, { phone: "+1 312 555 0100" }, own)).resolves.toMatchObject({ phone: "+1 312 555 0100" });
    await expect(unbanApiKey(mine.key, own)).resolves.toMatchObject({ id: mine.key });
    await expect(disableWebhookByStaff(mine.key, mine.webhook, staff.email, own)).resolves.toMatchObject({ enabled: false });
    await expect(revokeApiKey(mine.platformKey, PLATFORM)).resolves.toMatchObject({ revokedAt: expect.any(String) });
    await expect(revokeApiKey(mine.key, own)).resolves.toMatchObject({ revokedAt: expect.any(String) });
  });
});
