import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { GET as feedRoute } from "@/app/v1/organizations/[organizationId]/listings/[file]/route";
import { GET as getPetRoute, PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { sendDueAlerts } from "@/lib/alerts/mail";
import { matchAlerts } from "@/lib/alerts/matching";
import { now } from "@/lib/clock";
import { LISTING_SITES } from "@/lib/core/listing-sites";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import type { Pet } from "@/lib/pets/schemas/pet";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { mailingInstance } from "@/tests/mail-server";
import { eventOf, startReceiver, type ReceivedRequest, type Receiver } from "@/tests/webhook-receiver";
import { confirmedAlert } from "./alerts-helpers";
import { newFoster, placeInFoster } from "./foster-helpers";
import { allowPrivateWebhooks, call, createPet, expectJson, newKey, newOrganization } from "./helpers";

// Issue 50: a foster's personal data never leaves through what adopters and
// partners read. An animal is placed with a foster whose every field is a
// distinctive string; none of them may appear in any listing site's file,
// the pull feed, the change feed, a webhook delivery, the Pet answers (to a
// key and to anyone) or an alert mail. What may appear: that the animal is in
// a foster home, and the home's city and region.

allowPrivateWebhooks();

const SECRET = {
  name: "Zebediah Quillfeather",
  email: "zebediah.q7@fosters.example",
  phone: "+1 718 555 0199",
  street: "4417 Hushhush Lane",
  postcode: "11201",
};
/** Every piece of the foster that must not show (the postcode as its own value: the city is Brooklyn, its ZIP code is not shown). */
const FORBIDDEN = [
  SECRET.name,
  "Zebediah",
  "Quillfeather",
  SECRET.email,
  "fosters.example",
  SECRET.phone,
  "555 0199",
  SECRET.street,
  "Hushhush",
  SECRET.postcode,
];

const mail = mailingInstance({ ALERTS_UNSUBSCRIBE_MAILTO: "unsubscribe@shelter.example" });
let org: number;
let shelterKey: string;
let reader: string;
let partner: string;
let receiver: Receiver;
let work: BackgroundWork | undefined;
let pet: Pet;

beforeAll(async () => {
  org = await newOrganization({ name: "Manhattan Private Rescue", lat: 40.7506, lng: -73.9972 });
  shelterKey = (await newKey(["pets:read", "pets:write"], "shelter", { plan: "pro" }, org)).key;
  reader = (await newKey(["pets:read", "applications:write"], "adopters' site")).key;
  partner = (await newKey(["pets:read", "webhooks:manage"], "listing partner", { plan: "pro" }, null)).key;
  receiver = await startReceiver();
  await expectJson(
    await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key: partner, json: { url: receiver.url, events: ["pet.created", "pet.updated"] } }),
    201,
  );
  await confirmedAlert(reader, "brooklyn.adopter@example.org", { near: "11217", within: "5mi" });
  work = startBackgroundWork();
  pet = await createPet({ name: "Quiet Pickle", categoryId: 2, status: "available", externalId: "PRIV-1" }, { key: shelterKey });
  const foster = await newFoster(org, { ...SECRET });
  await placeInFoster(pet.id, foster);
  // A change after the placement: its event (and so the feed and webhooks) carries the animal as placed.
  const patched = await call(patchPetRoute, `/v1/pets/${pet.id}`, {
    method: "PATCH",
    key: shelterKey,
    params: { petId: String(pet.id) },
    headers: { "if-match": `"${pet.version}"` },
    json: { description: "Loves a sunny windowsill." },
  });
  pet = await expectJson<Pet>(patched);
});

afterAll(async () => {
  await work?.stop();
  await receiver.close();
});

function expectNothingOfTheFoster(where: string, text: string) {
  for (const value of FORBIDDEN) expect(text, `${where} carries "${value}"`).not.toContain(value);
}

describe("an animal in a foster home, as adopters and partners see it", () => {
  it("the Pet answers (a key's, anyone's, by id) say in a foster home in Brooklyn, NY, and nothing of the foster", async () => {
    expect(pet).toMatchObject({ inFosterHome: true, fosterHome: { city: "Brooklyn", region: "NY" } });
    // Anyone: an adopter's browser, with its anonymous session (no key).
    const anyone = { headers: { cookie: `petstore_session=${mintAnonymousToken(new Date()).token}` } };
    const answers = [
      await call(listPets, `/v1/pets?organizationId=${org}`, { key: reader }),
      await call(listPets, `/v1/pets?organizationId=${org}`, anyone),
      await call(listPets, `/v1/pets?near=11217&within=5km`, anyone),
      await call(getPetRoute, `/v1/pets/${pet.id}`, { key: reader, params: { petId: String(pet.id) } }),
      await call(getPetRoute, `/v1/pets/${pet.id}`, { ...anyone, params: { petId: String(pet.id) } }),
    ];
    for (const [i, res] of answers.entries()) {
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).toContain('"inFosterHome":true');
      expect(text).toContain('"fosterHome":{"city":"Brooklyn","region":"NY"}');
      expectNothingOfTheFoster(`answer ${i}`, text);
    }
  });

  it("every listing site's file (the pull feed, as the uploads send it) carries the animal and nothing of its foster home", async () => {
    for (const site of LISTING_SITES) {
      const file = `${site}.csv`;
      const res = await call(feedRoute, `/v1/organizations/${org}/listings/${file}`, { key: partner, params: { organizationId: String(org), file } });
      const text = Buffer.from(await res.arrayBuffer()).toString("utf8");
      expect(res.status, text).toBe(200);
      expect(text, site).toContain("Quiet Pickle");
      expectNothingOfTheFoster(file, text);
      expect(text, `${site}: no foster city either (the formats have no such field)`).not.toContain("Brooklyn");
    }
  });

  it("the change feed and the webhook deliveries: in a foster home, its city and region, never the foster", async () => {
    const feed = await call(listEventsRoute, "/v1/events?limit=100", { key: partner });
    const text = await feed.text();
    expect(feed.status, text).toBe(200);
    expect(text).toContain('"fosterHome":{"city":"Brooklyn","region":"NY"}');
    expectNothingOfTheFoster("GET /v1/events", text);

    const placed = (r: ReceivedRequest) => {
      const event = eventOf(r);
      return event.type === "pet.updated" && (event.data.pet as Pet).id === pet.id;
    };
    const delivery = await receiver.waitFor(placed);
    expect((eventOf(delivery).data.pet as Pet).fosterHome).toEqual({ city: "Brooklyn", region: "NY" });
    for (const request of receiver.requests) expectNothingOfTheFoster("a webhook delivery", request.body + JSON.stringify(request.headers));
  });

  it("an alert mail about it names nothing of the foster", async () => {
    await matchAlerts(new Date());
    await sendDueAlerts(now());
    await mail.waitFor("brooklyn.adopter@example.org", /Quiet Pickle/);
    const mails = mail.to("brooklyn.adopter@example.org").filter((m) => m.subject && !/^Confirm/.test(m.subject));
    expect(mails.length).toBeGreaterThan(0);
    for (const m of mails) expectNothingOfTheFoster("an alert mail", [m.subject, m.text, m.html].join("\n"));
    expect(mails.map((m) => m.text).join("\n")).toContain("Quiet Pickle");
  });
});
