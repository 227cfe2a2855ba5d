import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as feedRoute } from "@/app/v1/events/route";
import { GET as dashboardRoute } from "@/app/v1/dashboard/route";
import { GET as listingFileRoute } from "@/app/v1/organizations/[organizationId]/listings/[file]/route";
import { GET as custodyRoute } from "@/app/v1/organizations/[organizationId]/custody/route";
import { GET as placementsRoute } from "@/app/v1/pets/[petId]/placements/route";
import { GET as orgReportRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly/route";
import { GET as personRoute } from "@/app/v1/organizations/[organizationId]/people/[personId]/route";
import { GET as peopleRoute } from "@/app/v1/organizations/[organizationId]/people/route";
import { GET as orgReportCsvRoute } from "@/app/v1/organizations/[organizationId]/reports/monthly.csv/route";
import { GET as fosterApplicantsRoute } from "@/app/v1/organizations/[organizationId]/foster-applications/route";
import { GET as fosterPageRoute } from "@/app/v1/organizations/[organizationId]/people/[personId]/foster-page/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { GET as historyRoute } from "@/app/v1/pets/[petId]/history/route";
import { GET as getPetRoute, PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { POST as outcomeRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { GET as staysRoute, POST as newStayRoute } from "@/app/v1/pets/[petId]/stays/route";
import { GET as listPetsRoute, POST as createPetRoute } from "@/app/v1/pets/route";
import { GET as networkReportRoute } from "@/app/v1/reports/monthly/route";
import { GET as networkReportCsvRoute } from "@/app/v1/reports/monthly.csv/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { matchAlerts } from "@/lib/alerts/matching";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { LISTING_SITES } from "@/lib/core/listing-sites";
import { db } from "@/lib/db";
import { PET_EVENT_TYPES, type PetEvent } from "@/lib/events/schemas";
import type { Scope } from "@/lib/keys/schemas";
import { listedAnimals } from "@/lib/listings/uploads/snapshot";
import type { Pet } from "@/lib/pets/schemas/pet";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import type { Stay } from "@/lib/stays/schemas";
import { attemptDeliveries } from "@/lib/webhooks/delivery";
import { dispatchEvents } from "@/lib/webhooks/dispatch";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { confirmedAlert } from "./alerts-helpers";
import { ORIGIN, allowPrivateWebhooks, call, createPet, expectApiError, expectJson, newKey, newOrganization, staffSession } from "./helpers";
import { allRoutes } from "./route-list";

// Who sees what of an animal and its records (docs/decisions/027), held over
// every reader: each caller below is walked through each reader, and what it
// is shown is compared with what the one policy (lib/visibility/policy.ts)
// allows it. A shelter's animal leaves care with a euthanasia whose subtype is
// an address, and is edited while out of care; another leaves and comes back;
// a third is sold. Readers of the organisation's records see all of it;
// everyone else sees the first only until it leaves, then one neutral
// `pet.unlisted`, and the second `pet.unlisted` then `pet.listed`.
// Every GET route, every event type and every listing site must have a row
// here: one added later fails the first test until it is put in the table.

allowPrivateWebhooks();

/** Words only a records reader may ever be shown. */
const SECRET_SUBTYPE = "Behind 12 Elm Street, back door";
const EDITED_OUT_OF_CARE = "Edited while it was out of care";
const RECORD_MARKERS = [SECRET_SUBTYPE, EDITED_OUT_OF_CARE, "shelterEuthanasia"];

type CallerName =
  | "anonymous visitor"
  | "adopter"
  | "staff"
  | "another organisation's staff"
  | "platform admin"
  | "key"
  | "key with records:read"
  | "another organisation's key with records:read"
  | "platform key"
  | "platform key with records:read";

interface As {
  key?: string;
  headers?: Record<string, string>;
}

/** Those who read the shelter's records (the policy's rule, written out for the test). */
const RECORDS_READERS: CallerName[] = ["staff", "platform admin", "key with records:read", "platform key with records:read"];
const KEY_CALLERS: CallerName[] = [
  "key",
  "key with records:read",
  "another organisation's key with records:read",
  "platform key",
  "platform key with records:read",
];

let org: number;
let writer: string;
const as = {} as Record<CallerName, As>;
const receivers = {} as Partial<Record<CallerName, Receiver>>;
let gone: Pet;
let back: Pet;
let sold: Pet;
let goneStay: number;

const adopterHeaders = () => ({ cookie: `petstore_session=${mintAnonymousToken(new Date()).token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: "198.51.100.77" });

async function firstStay(petId: number): Promise<Stay> {
  return (await expectJson<Stay[]>(await call(staysRoute, `/v1/pets/${petId}/stays`, { key: writer, params: { petId: String(petId) } })))[0]!;
}

async function endStay(petId: number, stayId: number, json: Record<string, unknown>) {
  await expectJson(
    await call(outcomeRoute, `/v1/pets/${petId}/stays/${stayId}/outcome`, {
      method: "POST",
      key: writer,
      params: { petId: String(petId), stayId: String(stayId) },
      json,
    }),
  );
}

beforeAll(async () => {
  org = await newOrganization({ name: "Visibility Shelter", lat: 41.8781, lng: -87.6298 });
  const other = await newOrganization({ name: "Another Shelter" });
  writer = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter system", { plan: "pro" }, org)).key;
  const key = async (scopes: Scope[], organizationId: number | null) => ({ key: (await newKey(scopes, "caller", { plan: "pro" }, organizationId)).key });
  as["anonymous visitor"] = {};
  as["adopter"] = { headers: adopterHeaders() };
  as["staff"] = { headers: (await staffSession(undefined, { organizationId: org })).headers };
  as["another organisation's staff"] = { headers: (await staffSession(undefined, { organizationId: other })).headers };
  as["platform admin"] = { headers: (await staffSession(undefined, { platformAdmin: true })).headers };
  as["key"] = await key(["pets:read", "webhooks:manage"], org);
  as["key with records:read"] = await key(["pets:read", "records:read", "webhooks:manage"], org);
  as["another organisation's key with records:read"] = await key(["pets:read", "records:read", "webhooks:manage"], other);
  as["platform key"] = await key(["pets:read", "webhooks:manage"], null);
  as["platform key with records:read"] = await key(["pets:read", "records:read", "webhooks:manage"], null);

  // Each key's endpoint, subscribed to every type it may be sent.
  for (const name of KEY_CALLERS) {
    const receiver = await startReceiver();
    receivers[name] = receiver;
    const events =
      RECORDS_READERS.includes(name) || name === "another organisation's key with records:read"
        ? [...PET_EVENT_TYPES]
        : PET_EVENT_TYPES.filter((t) => !t.startsWith("pet.stay."));
    await expectJson(await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key: as[name].key, json: { url: receiver.url, events } }), 201);
  }
  // An alert that would match every animal, to show none of it reaches alert mail.
  await confirmedAlert((await newKey(["pets:read", "applications:write"], "alerts site")).key, "everything.visibility@example.org");
  await matchAlerts();

  const create = (name: string) => createPet({ name, externalId: `VIS-${name}`, description: "A friend." }, { key: writer });
  gone = await create("Gone");
  back = await create("Back");
  sold = await create("Sold");

  goneStay = (await firstStay(gone.id)).id;
  await endStay(gone.id, goneStay, { type: "shelterEuthanasia", subtype: SECRET_SUBTYPE });
  const edited = await call(patchPetRoute, `/v1/pets/${gone.id}`, {
    method: "PATCH",
    key: writer,
    params: { petId: String(gone.id) },
    json: { description: EDITED_OUT_OF_CARE },
  });
  expect(edited.status).toBe(200);

  await endStay(back.id, (await firstStay(back.id)).id, { type: "transferredOut", subtype: "To the county" });
  await expectJson(
    await call(newStayRoute, `/v1/pets/${back.id}/stays`, {
      method: "POST",
      key: writer,
      params: { petId: String(back.id) },
      json: { intake: { type: "transferredIn" } },
    }),
    201,
  );

  expect(
    (await call(patchPetRoute, `/v1/pets/${sold.id}`, { method: "PATCH", key: writer, params: { petId: String(sold.id) }, json: { status: "sold" } })).status,
  ).toBe(200);

  // Deliveries made and attempted, as the worker would.
  await dispatchEvents();
  const pending = await db().webhookDelivery.findMany({ where: { status: "pending" }, select: { id: true } });
  await attemptDeliveries(
    pending.map((d) => d.id),
    { owner: "visibility-test" },
  );
  await matchAlerts();
});

afterAll(async () => {
  for (const r of Object.values(receivers)) await r?.close();
});

/** A foster of the shelter (docs/decisions/028): their name is what only readers of its people may be shown. */
const FOSTER_NAME = "Visible Only To People Readers";
let foster: number;
beforeAll(async () => {
  const row = await db().person.create({
    data: { organizationId: BigInt(org), name: FOSTER_NAME, email: "foster.visibility@example.org", fosterStatus: "active", fosterCapacity: 2 },
    select: { id: true },
  });
  foster = Number(row.id);
});

const ours = () => new Set([gone.id, back.id, sold.id]);

/** [type, animal's name] of the events about our three animals, in order. */
function story(events: PetEvent[]): [string, string][] {
  const names = new Map([
    [gone.id, "Gone"],
    [back.id, "Back"],
    [sold.id, "Sold"],
  ]);
  return events.filter((e) => ours().has(e.data.pet.id)).map((e) => [e.type, names.get(e.data.pet.id)!]);
}

/** What a records reader is told, and what everyone else is told. */
const RECORDS_STORY: [string, string][] = [
  ["pet.created", "Gone"],
  ["pet.created", "Back"],
  ["pet.created", "Sold"],
  ["pet.stay.ended", "Gone"],
  ["pet.updated", "Gone"],
  ["pet.stay.ended", "Back"],
  ["pet.stay.started", "Back"],
  ["pet.updated", "Sold"],
  ["pet.stay.ended", "Sold"],
];
const PUBLIC_STORY: [string, string][] = [
  ["pet.created", "Gone"],
  ["pet.created", "Back"],
  ["pet.created", "Sold"],
  ["pet.unlisted", "Gone"],
  ["pet.unlisted", "Back"],
  ["pet.listed", "Back"],
  ["pet.updated", "Sold"],
];

async function feedOf(who: As): Promise<{ status: number; events: PetEvent[] }> {
  const events: PetEvent[] = [];
  let after = "";
  for (;;) {
    const res = await call(feedRoute, `/v1/events?limit=100${after}`, who);
    if (res.status !== 200) return { status: res.status, events };
    const page = (await res.json()) as PetEvent[];
    events.push(...page);
    if (page.length < 100) return { status: 200, events };
    after = `&after=${page.at(-1)!.id}`;
  }
}

const reveals = (text: string) => RECORD_MARKERS.some((marker) => text.includes(marker));

/** What a reader shows one caller: whether anything of the records (the animal out of care, its stays, its changes out of care) is in it. */
type Reader = (who: As, name: CallerName) => Promise<boolean>;

const text = async (res: Response) => (res.ok ? await res.text() : "");
const listShows =
  (path: () => string): Reader =>
  async (who) => {
    const res = await call(listPetsRoute, path(), who);
    return res.ok && ((await res.json()) as Pet[]).some((p) => p.id === gone.id);
  };

interface Row {
  read: Reader;
  /** Who may be shown records here (default: the records readers). */
  who?: CallerName[];
}

const NOBODY: CallerName[] = [];
const STAFF_OF_IT: CallerName[] = ["staff", "platform admin"];
/** Webhook endpoints belong to keys: of the records readers, only the keys have one. */
const RECORDS_KEYS: CallerName[] = ["key with records:read", "platform key with records:read"];
const PLATFORM_RECORDS: CallerName[] = ["platform admin", "platform key with records:read"];

/** Every reader of an animal or a record, by route (GET) or by what it is. */
const READERS: Record<string, Row> = {
  "GET /v1/pets": { read: listShows(() => "/v1/pets?limit=100"), who: NOBODY },
  "GET /v1/pets?q=": { read: listShows(() => "/v1/pets?q=Gone"), who: NOBODY },
  "GET /v1/pets?near=": { read: listShows(() => "/v1/pets?near=41.88,-87.63&within=5km&limit=100"), who: NOBODY },
  "GET /v1/pets?organizationId=": { read: listShows(() => `/v1/pets?organizationId=${org}&limit=100`), who: NOBODY },
  "GET /v1/pets?id=": { read: listShows(() => `/v1/pets?id=${gone.id}`) },
  "GET /v1/pets?inCare=false": { read: listShows(() => "/v1/pets?inCare=false&limit=100") },
  "GET /v1/pets/{petId}": {
    read: async (who) => reveals(await text(await call(getPetRoute, `/v1/pets/${gone.id}`, { ...who, params: { petId: String(gone.id) } }))),
  },
  "GET /v1/pets/{petId}/stays": {
    read: async (who) => reveals(await text(await call(staysRoute, `/v1/pets/${gone.id}/stays`, { ...who, params: { petId: String(gone.id) } }))),
  },
  // An animal's placements and the custody list are the organisation's records (who fostered it: by person id).
  "GET /v1/pets/{petId}/placements": {
    read: async (who) => (await call(placementsRoute, `/v1/pets/${gone.id}/placements`, { ...who, params: { petId: String(gone.id) } })).ok,
  },
  "GET /v1/organizations/{organizationId}/custody": {
    read: async (who) => (await call(custodyRoute, `/v1/organizations/${org}/custody`, { ...who, params: { organizationId: String(org) } })).ok,
  },
  // The audit trail is staff's (audit:read, which no key holds).
  "GET /v1/pets/{petId}/history": {
    read: async (who) => reveals(await text(await call(historyRoute, `/v1/pets/${gone.id}/history`, { ...who, params: { petId: String(gone.id) } }))),
    who: STAFF_OF_IT,
  },
  "GET /v1/events": {
    read: async (who) => {
      const { events } = await feedOf(who);
      return reveals(JSON.stringify(events)) || events.some((e) => e.type.startsWith("pet.stay."));
    },
  },
  "GET /v1/organizations/{organizationId}/reports/monthly": {
    read: async (who) => (await call(orgReportRoute, `/v1/organizations/${org}/reports/monthly`, { ...who, params: { organizationId: String(org) } })).ok,
  },
  "GET /v1/organizations/{organizationId}/reports/monthly.csv": {
    read: async (who) =>
      (await call(orgReportCsvRoute, `/v1/organizations/${org}/reports/monthly.csv`, { ...who, params: { organizationId: String(org) } })).ok,
  },
  // The organisation's people (personal data): its staff, and keys with people:read (none of the callers here holds it: see below).
  "GET /v1/organizations/{organizationId}/people": {
    read: async (who) =>
      (await text(await call(peopleRoute, `/v1/organizations/${org}/people`, { ...who, params: { organizationId: String(org) } }))).includes(FOSTER_NAME),
    who: STAFF_OF_IT,
  },
  "GET /v1/organizations/{organizationId}/people/{personId}": {
    read: async (who) =>
      (
        await text(
          await call(personRoute, `/v1/organizations/${org}/people/${foster}`, {
            ...who,
            params: { organizationId: String(org), personId: String(foster) },
          }),
        )
      ).includes(FOSTER_NAME),
    who: STAFF_OF_IT,
  },
  "GET /v1/reports/monthly": { read: async (who) => (await call(networkReportRoute, "/v1/reports/monthly", who)).ok, who: PLATFORM_RECORDS },
  "GET /v1/reports/monthly.csv": { read: async (who) => (await call(networkReportCsvRoute, "/v1/reports/monthly.csv", who)).ok, who: PLATFORM_RECORDS },
  // Counts of the animals listed, by status: nothing of the one out of care (the staff's count: below).
  "GET /v1/dashboard": { read: async (who) => reveals(await text(await call(dashboardRoute, "/v1/dashboard", who))), who: NOBODY },
  "GET /v1/organizations/{organizationId}/listings/{file}": {
    read: async (who) => {
      for (const site of LISTING_SITES) {
        const res = await call(listingFileRoute, `/v1/organizations/${org}/listings/${site}.csv`, {
          ...who,
          params: { organizationId: String(org), file: `${site}.csv` },
        });
        if (res.ok && (await res.text()).includes("VIS-Gone")) return true;
      }
      return false;
    },
    who: NOBODY,
  },
  "POST /v1/pets/{petId}/applications": {
    read: async (who) => {
      const res = await call(applyRoute, `/v1/pets/${gone.id}/applications`, {
        method: "POST",
        ...who,
        headers: { ...who.headers, ...(who.key ? {} : adopterHeaders()) },
        params: { petId: String(gone.id) },
        json: { name: "Sam", email: `sam.${Math.random().toString(36).slice(2)}@example.org`, home: "house", message: "Hello", consent: true },
      });
      return res.status !== 404 && res.status !== 401 && res.status !== 403 && res.status !== 400;
    },
    who: NOBODY,
  },
};

/** The GET routes that return no animal and no record, and why. */
const READS_NO_ANIMAL: Record<string, string> = {
  "GET /v1/alerts/{token}": "an alert's own filters (its token is the credential)",
  "GET /v1/application-links/{token}": "an applicant's own application, by its private link",
  "GET /v1/applications": "the organisation's inbox of applications (tenancy-isolation.test.ts); only the animal's name",
  "GET /v1/applications/{applicationId}": "one application of the organisation's inbox (tenancy-isolation.test.ts)",
  "GET /v1/foster-links/{token}": "a foster's own animals, by their private link (foster-links.test.ts: never another foster's)",
  "GET /v1/organizations/{organizationId}/foster-applications": "foster applicants (people): the people's readers, below",
  "GET /v1/organizations/{organizationId}/people/{personId}/foster-page": "a foster's notes and link (people): the people's readers, below",
  "GET /v1/categories": "categories",
  "GET /v1/categories/{categoryId}/breeds": "breed names",
  "GET /v1/imports": "the organisation's imports (their counts); what a report quotes of stays: imports-records.test.ts",
  "GET /v1/imports/{importId}": "one import's report; its quotes of recorded stays need records:read (imports-records.test.ts)",
  "GET /v1/imports/{importId}/issues": "one import's refused rows; quotes of recorded stays need records:read (imports-records.test.ts)",
  "GET /v1/keys": "API keys",
  "GET /v1/keys/{keyId}/webhooks": "a key's webhook endpoints",
  "GET /v1/listing-sites": "listing-site accounts",
  "GET /v1/listing-sites/{siteId}": "a listing-site account",
  "GET /v1/listing-sites/{siteId}/uploads": "uploads' outcomes (counts, never animals); the files' contents are the uploads row below",
  "GET /v1/listing-sites/history": "changes to listing-site accounts",
  "GET /v1/openapi.json": "the contract",
  "GET /v1/organizations": "organisations' profiles",
  "GET /v1/organizations/{organizationId}": "an organisation's profile",
  "GET /v1/session": "the caller's own session",
  "GET /v1/webhooks": "a key's endpoints",
  "GET /v1/webhooks/{webhookId}": "one endpoint",
  "GET /v1/webhooks/{webhookId}/deliveries": "its deliveries' outcomes: the event's id and type as delivered, never its body",
  "GET /v1/{path}": "404 for paths that do not exist",
};

/** What a webhook endpoint of the caller's key received of this type about our animals. */
const webhookReceived =
  (type: string): Reader =>
  async (_who, name) => {
    const receiver = receivers[name];
    if (!receiver) return false;
    return receiver.requests.some((r) => {
      const event = JSON.parse(r.body) as PetEvent;
      return event.type === type && ours().has(event.data.pet.id) && (type.startsWith("pet.stay.") || reveals(r.body));
    });
  };

/** Per event type: whether a delivery of it showed the caller anything of the records (a stay's event, or anything about the animal that left). */
const WEBHOOK_ROWS: Record<string, Row> = {
  "webhook pet.created": { read: webhookReceived("pet.created"), who: NOBODY },
  "webhook pet.updated": { read: webhookReceived("pet.updated"), who: RECORDS_KEYS },
  "webhook pet.stay.started": { read: webhookReceived("pet.stay.started"), who: RECORDS_KEYS },
  "webhook pet.stay.ended": { read: webhookReceived("pet.stay.ended"), who: RECORDS_KEYS },
  "webhook pet.listed": { read: webhookReceived("pet.listed"), who: NOBODY },
  "webhook pet.unlisted": { read: webhookReceived("pet.unlisted"), who: NOBODY },
};

/** Readers with no caller: what they show is the public's. */
const PUBLIC_READERS: Record<string, () => Promise<boolean>> = {
  ...Object.fromEntries(
    LISTING_SITES.map((site) => [`listing upload ${site}`, async () => (await listedAnimals(org, site, new Date())).animals.some((a) => a.id === gone.id)]),
  ),
  "alert matches": async () => (await db().alertMatch.count({ where: { petId: BigInt(gone.id) } })) > 0,
};

describe("who sees what: every reader is in the table", () => {
  it("every GET route, the applying route, every event type and every listing site has its row", async () => {
    const routes = (await allRoutes()).filter((r) => r.method === "GET").map((r) => `GET ${r.route}`);
    const tabled = new Set([...Object.keys(READERS).map((k) => k.replace(/\?.*$/, "")), ...Object.keys(READS_NO_ANIMAL)]);
    expect(
      routes.filter((r) => !tabled.has(r)),
      "GET routes with no row in READERS or READS_NO_ANIMAL",
    ).toEqual([]);
    expect(
      PET_EVENT_TYPES.filter((t) => !WEBHOOK_ROWS[`webhook ${t}`]),
      "event types with no webhook row",
    ).toEqual([]);
    expect(
      LISTING_SITES.filter((s) => !PUBLIC_READERS[`listing upload ${s}`]),
      "listing sites with no upload row",
    ).toEqual([]);
  });
});

describe("who sees what: callers × readers", () => {
  const rows = { ...READERS, ...WEBHOOK_ROWS };
  for (const [reader, row] of Object.entries(rows)) {
    it(reader, async () => {
      const shown: Record<string, boolean> = {};
      const allowed: Record<string, boolean> = {};
      for (const name of Object.keys(as) as CallerName[]) {
        shown[name] = await row.read(as[name], name);
        allowed[name] = (row.who ?? RECORDS_READERS).includes(name);
      }
      expect(shown).toEqual(allowed);
    });
  }
  for (const [reader, read] of Object.entries(PUBLIC_READERS)) {
    it(`${reader} (the public's)`, async () => expect(await read()).toBe(false));
  }
  it("the staff's dashboard counts the animals listed: the one out of care is not among them", async () => {
    const body = await expectJson<{ animals: { total: number; sold: number } }>(await call(dashboardRoute, "/v1/dashboard", as["staff"]));
    expect(body.animals).toMatchObject({ total: 2, sold: 1 });
  });
});

describe("the change feed and webhooks, event by event", () => {
  it("records readers are told everything; everyone else one neutral pet.unlisted, nothing while out of care, pet.listed when back", async () => {
    for (const name of ["staff", "platform admin", "key with records:read", "platform key with records:read"] as const) {
      expect(story((await feedOf(as[name])).events), name).toEqual(RECORDS_STORY);
    }
    for (const name of ["key", "platform key"] as const) {
      const { events } = await feedOf(as[name]);
      expect(story(events), name).toEqual(PUBLIC_STORY);
      const unlisted = events.find((e) => e.type === "pet.unlisted" && e.data.pet.id === gone.id)!;
      // No reason, no subtype, no record times: the animal's id and where it was listed.
      expect(unlisted.data).toEqual({ pet: { id: gone.id, organizationId: org } });
      const listed = events.find((e) => e.type === "pet.listed")!;
      expect(listed.data).toEqual({ pet: expect.objectContaining({ id: back.id, status: "available" }) });
      expect(JSON.stringify(events)).not.toContain("stay");
    }
    // Another organisation's key reads nothing of this one.
    expect(story((await feedOf(as["another organisation's key with records:read"])).events)).toEqual([]);
  });

  it("an adopter's session and an anonymous visitor get 403 / 401 from the feed; no page reads it", async () => {
    await expectApiError(await call(feedRoute, "/v1/events", { headers: adopterHeaders() }), 403, "forbidden");
    expect((await call(feedRoute, "/v1/events", {})).status).toBe(401);
  });

  it("webhooks deliver each key what the feed shows it, body for body", async () => {
    for (const name of KEY_CALLERS) {
      const received = receivers[name]!.requests.map((r) => JSON.parse(r.body) as PetEvent);
      const expected = name === "another organisation's key with records:read" ? [] : RECORDS_READERS.includes(name) ? RECORDS_STORY : PUBLIC_STORY;
      expect(story(received.sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4)))), name).toEqual(expected);
    }
  });

  it("subscribing to the stays' events needs records:read", async () => {
    const res = await call(createWebhookRoute, "/v1/webhooks", {
      method: "POST",
      key: as["key"].key,
      json: { url: "https://hooks.example/in", events: ["pet.created", "pet.stay.ended"] },
    });
    await expectApiError(res, 403, "forbidden");
  });

  it("what a delivery carries is decided when it is sent: a key that lost records:read since is sent the public form, or nothing", async () => {
    const receiver = await startReceiver();
    const { key, id } = await newKey(["pets:read", "records:read", "webhooks:manage"], "changing scopes", { plan: "pro" }, org);
    await expectJson(
      await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: receiver.url, events: ["pet.stay.ended", "pet.unlisted"] } }),
      201,
    );
    const pet = await expectJson<Pet>(await call(createPetRoute, "/v1/pets", { method: "POST", key: writer, json: { name: "Late", categoryId: 1 } }), 201);
    await endStay(pet.id, (await firstStay(pet.id)).id, { type: "diedInCare", subtype: SECRET_SUBTYPE });
    await dispatchEvents();
    // Dispatched as a record; the key loses records:read before the attempt.
    await db().apiKey.update({ where: { id: BigInt(id) }, data: { scopes: ["pets:read", "webhooks:manage"] } });
    const pending = await db().webhookDelivery.findMany({ where: { status: "pending", endpoint: { apiKeyId: BigInt(id) } }, select: { id: true } });
    expect(pending).toHaveLength(1);
    const results = await attemptDeliveries(
      pending.map((d) => d.id),
      { owner: "visibility-test" },
    );
    expect([...results.values()]).toEqual(["succeeded"]);
    expect(receiver.requests.map((r) => JSON.parse(r.body) as PetEvent)).toEqual([
      expect.objectContaining({ type: "pet.unlisted", data: { pet: { id: pet.id, organizationId: org } } }),
    ]);
    expect(receiver.requests[0]!.body).not.toContain(SECRET_SUBTYPE);
    await receiver.close();
  });
});

describe("the organisation's people: keys given people:read", () => {
  it("its own key and a platform key with people:read read them; another organisation's key with it, and keys without it, are refused", async () => {
    const other = await newOrganization({ name: "People Elsewhere" });
    const read = async (scopes: Scope[], organizationId: number | null) => {
      const { key } = await newKey(scopes, "people reader", { plan: "pro" }, organizationId);
      const res = await call(personRoute, `/v1/organizations/${org}/people/${foster}`, {
        key,
        params: { organizationId: String(org), personId: String(foster) },
      });
      return { status: res.status, shown: (await res.text()).includes(FOSTER_NAME) };
    };
    expect(await read(["people:read"], org)).toEqual({ status: 200, shown: true });
    expect(await read(["people:read"], null)).toEqual({ status: 200, shown: true });
    expect(await read(["people:read"], other)).toEqual({ status: 403, shown: false });
    expect(await read(["pets:read", "records:read", "people:write"], org)).toEqual({ status: 403, shown: false });
    expect(await read(["pets:read", "records:read"], null)).toEqual({ status: 403, shown: false });
  });

  it("no event and no webhook delivery carries a person's data", async () => {
    const events = await db().event.findMany({ select: { data: true } });
    const deliveries = Object.values(receivers).flatMap((r) => r!.requests.map((q) => q.body));
    const text = JSON.stringify(events) + deliveries.join("\n");
    expect(text).not.toContain(FOSTER_NAME);
    expect(text).not.toContain("foster.visibility@example.org");
  });
});

describe("who sees what: the organisation's people (docs/decisions/028)", () => {
  /** Those who read the shelter's people (mayReadPeopleOf, written out for the test): its staff and a platform admin; none of these keys holds people:read. */
  const PEOPLE_READING: CallerName[] = ["staff", "platform admin"];
  const PEOPLE_SECRET = "people-secret@example.org";
  let personId: number;
  beforeAll(async () => {
    const person = await db().person.create({
      data: { organizationId: BigInt(org), name: "Private Person", email: PEOPLE_SECRET, fosterStatus: "applicant", fosterCapacity: 1 },
      select: { id: true },
    });
    personId = Number(person.id);
    await db().fosterApplication.create({ data: { organizationId: BigInt(org), personId: person.id, message: "Private message", consentAt: new Date() } });
  });
  const PEOPLE_READERS: Record<string, (who: As) => Promise<Response>> = {
    "GET /v1/organizations/{organizationId}/foster-applications": (who) =>
      call(fosterApplicantsRoute, `/v1/organizations/${org}/foster-applications`, { ...who, params: { organizationId: String(org) } }),
    "GET /v1/organizations/{organizationId}/people/{personId}/foster-page": (who) =>
      call(fosterPageRoute, `/v1/organizations/${org}/people/${personId}/foster-page`, {
        ...who,
        params: { organizationId: String(org), personId: String(personId) },
      }),
  };
  for (const [reader, read] of Object.entries(PEOPLE_READERS)) {
    it(reader, async () => {
      const shown: Record<string, boolean> = {};
      const allowed: Record<string, boolean> = {};
      for (const name of Object.keys(as) as CallerName[]) {
        const res = await read(as[name]);
        shown[name] = res.ok;
        allowed[name] = PEOPLE_READING.includes(name);
        if (!res.ok) expect(await res.text()).not.toContain(PEOPLE_SECRET);
      }
      expect(shown).toEqual(allowed);
    });
  }
});
