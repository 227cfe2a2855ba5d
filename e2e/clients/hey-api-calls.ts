/**
 * A partner's client made by @hey-api/openapi-ts from /v1/openapi.json, with
 * its zod plugin validating every request before it is sent and every answer
 * as it arrives (e2e/api/generated-clients.spec.ts generates it into
 * ./hey-api next to this file, type-checks this file against it, and runs
 * it). Every public operation, the photo upload included.
 */
import { createClient, createConfig } from "./hey-api/client";
import { client } from "./hey-api/client.gen";
import * as sdk from "./hey-api/sdk.gen";
import { api, day, eventually, key, listingFile, photo, platformKey, receiver, report, step, unique } from "./shared";

client.setConfig({ baseUrl: api, auth: () => key });
const platform = createClient(createConfig({ baseUrl: api, auth: () => platformKey }));
const t = { throwOnError: true } as const;

await step("listOrganizations", async () => (await sdk.listOrganizations({ ...t, query: { limit: 5 } })).data);
const organization = await step(
  "createOrganization",
  async () =>
    (
      await sdk.createOrganization({
        ...t,
        client: platform,
        // Far from every demo shelter: the /shelters tests expect exactly the demo shelters near Chicago.
        body: {
          name: `Hey API rescue ${unique}`,
          address: { city: "Nome", region: "AK", postcode: "99762", country: "US" },
          location: { lat: 64.5011, lng: -165.4064 },
        },
      })
    ).data,
);
await step("getOrganization", async () => (await sdk.getOrganization({ ...t, path: { organizationId: organization.id } })).data);
await step(
  "updateOrganization",
  async () => (await sdk.updateOrganization({ ...t, client: platform, path: { organizationId: organization.id }, body: { phone: "+1 312 555 0142" } })).data,
);

const categories = await step("listCategories", async () => (await sdk.listCategories(t)).data);
const categoryId = categories[0]!.id;
await step("listCategoryBreeds", async () => (await sdk.listCategoryBreeds({ ...t, path: { categoryId } })).data);
const pet = await step(
  "createPet",
  async () => (await sdk.createPet({ ...t, body: { name: `Hey API ${unique}`, categoryId }, headers: { "Idempotency-Key": `hey-api-${unique}` } })).data,
);
// With the listing sites' profile (its answer validated by hey-api's zod schemas, the fee and lists included).
const other = (
  await sdk.createPet({
    ...t,
    body: {
      name: `Hey API other ${unique}`,
      categoryId,
      sex: "female",
      externalId: `hey-api-${unique}`,
      houseTrained: true,
      colors: ["Black", "White"],
      coatLength: "short",
      adoptionFee: { amountCents: 15000 },
      videoUrl: "https://youtu.be/dQw4w9WgXcQ",
      tags: ["Playful"],
    },
  })
).data;
if (other.adoptionFee?.currency !== "USD" || other.listOnOtherSites !== true) throw new Error(`createPet answered ${JSON.stringify(other)}`);
await step("getPet", async () => (await sdk.getPet({ ...t, path: { petId: pet.id } })).data);
const listed = await step("listPets", async () => (await sdk.listPets({ ...t, query: { id: [pet.id, other.id], limit: 5 } })).data);
if (listed.length !== 2) throw new Error(`listPets with two ids answered ${listed.length} animals`);
const byExternalId = (await sdk.listPets({ ...t, query: { externalId: [`hey-api-${unique}`], houseTrained: true, coatLength: ["short", "long"] } })).data;
if (byExternalId.length !== 1 || byExternalId[0]!.id !== other.id) throw new Error(`listPets by externalId answered ${JSON.stringify(byExternalId)}`);
await step(
  "updatePet",
  async () =>
    (
      await sdk.updatePet({
        ...t,
        path: { petId: pet.id },
        body: { description: "Made through a generated client.", adoptionFee: { amountCents: 5000, waived: true } },
        headers: { "If-Match": `"${pet.version}"` },
      })
    ).data,
);

const added = await step(
  "addPetPhoto",
  async () => (await sdk.addPetPhoto({ ...t, path: { petId: pet.id }, body: { file: photo(), alt: "A test card" } })).data,
);
await step("updatePetPhoto", async () => (await sdk.updatePetPhoto({ ...t, path: { petId: pet.id, photoId: added.id }, body: { alt: "The same card" } })).data);
await step("deletePetPhoto", async () => (await sdk.deletePetPhoto({ ...t, path: { petId: pet.id, photoId: added.id } })).data);

await step(
  "applyForPet",
  async () =>
    (
      await sdk.applyForPet({
        ...t,
        path: { petId: other.id },
        body: { name: "Hey Api", email: `hey-api-${unique}@example.org`, home: "house", message: "Through a partner.", consent: true },
      })
    ).data,
);
await step(
  "createAlert",
  async () =>
    (
      await sdk.createAlert({
        ...t,
        body: {
          email: `hey-api-alert-${unique}@example.org`,
          frequency: "daily",
          timeZone: "America/Chicago",
          filters: { categoryId, sex: "female" },
          consent: true,
        },
      })
    ).data,
);
await step("listEvents", async () => (await sdk.listEvents({ ...t, query: { limit: 10 } })).data);

const webhook = await step(
  "createWebhook",
  async () => (await sdk.createWebhook({ ...t, body: { url: receiver, events: ["pet.updated"], description: "hey-api" } })).data,
);
await step("listWebhooks", async () => (await sdk.listWebhooks(t)).data);
await step("getWebhook", async () => (await sdk.getWebhook({ ...t, path: { webhookId: webhook.id } })).data);
await step("updateWebhook", async () => (await sdk.updateWebhook({ ...t, path: { webhookId: webhook.id }, body: { description: "hey-api, changed" } })).data);
await step("rotateWebhookSecret", async () => (await sdk.rotateWebhookSecret({ ...t, path: { webhookId: webhook.id } })).data);
await step("testWebhook", async () => (await sdk.testWebhook({ ...t, path: { webhookId: webhook.id } })).data);
// A change for the endpoint to be sent, then its delivery in the log (done, so that it can be retried).
await sdk.updatePet({ ...t, path: { petId: pet.id }, body: { name: `Hey API ${unique}, renamed` } });
const delivery = await step("listWebhookDeliveries", () =>
  eventually(
    "the delivery of the change",
    async () => (await sdk.listWebhookDeliveries({ ...t, path: { webhookId: webhook.id }, query: { limit: 10 } })).data,
    (deliveries) => deliveries.find((d) => d.status === "succeeded"),
  ),
);
await step("retryWebhookDelivery", async () => (await sdk.retryWebhookDelivery({ ...t, path: { webhookId: webhook.id, deliveryId: delivery.id } })).data);
await step("deleteWebhook", async () => (await sdk.deleteWebhook({ ...t, path: { webhookId: webhook.id } })).data);

const imported = await step("createImport", async () => (await sdk.createImport({ ...t, body: { file: listingFile(), dryRun: true } })).data);
await step("listImports", async () => (await sdk.listImports({ ...t, query: { limit: 5 } })).data);
// An organisation runs one import at a time: the dry run runs to its end (the next caller's would be 409 meanwhile).
await step("getImport", () =>
  eventually(
    "the dry run to finish",
    async () => (await sdk.getImport({ ...t, path: { importId: imported.id } })).data,
    (found) => (found.status === "done" || found.status === "failed" ? found : undefined),
  ),
);
await step("listImportIssues", async () => (await sdk.listImportIssues({ ...t, path: { importId: imported.id }, query: { limit: 10 } })).data);

// A listing site on a port where nothing listens (the suite's server allows 127.0.0.1): the test says so, the upload is queued.
const ftp = { site: "adoptapet", host: "127.0.0.1", port: 9, username: `hey-api-${unique}`, password: "not a real password" } as const;
const tested = await step("testListingSiteConnection", async () => (await sdk.testListingSiteConnection({ ...t, body: ftp })).data);
if (tested.ok) throw new Error("a connection to a closed port was reported as working");
const listingSite = await step("createListingSite", async () => (await sdk.createListingSite({ ...t, body: { ...ftp, enabled: false } })).data);
const bySite = { path: { siteId: listingSite.id } };
await step("listListingSites", async () => (await sdk.listListingSites(t)).data);
await step("getListingSite", async () => (await sdk.getListingSite({ ...t, ...bySite })).data);
await step("updateListingSite", async () => (await sdk.updateListingSite({ ...t, ...bySite, body: { enabled: true } })).data);
await step("startListingUpload", async () => (await sdk.startListingUpload({ ...t, ...bySite })).data);
await step("listListingUploads", async () => (await sdk.listListingUploads({ ...t, ...bySite })).data);
await step("deleteListingSite", async () => (await sdk.deleteListingSite({ ...t, ...bySite })).data);
const feed = await step(
  "getListingFeed",
  async () => (await sdk.getListingFeed({ ...t, path: { organizationId: pet.organizationId, file: "petfinder.csv" }, parseAs: "text" })).data,
);
if (!String(feed).startsWith("ID,Internal,AnimalName")) throw new Error("the Petfinder feed lacks its header row");

// An animal's stays (records:read / records:write): taken in as a stray, transferred out, corrected, back in.
const stayer = (await sdk.createPet({ ...t, body: { name: `Hey API stayer ${unique}`, categoryId, intake: { type: "stray", subtype: "Found" } } })).data;
const stays = await step("listStays", async () => (await sdk.listStays({ ...t, path: { petId: stayer.id }, query: { limit: 10 } })).data);
const byStay = { path: { petId: stayer.id, stayId: stays[0]!.id } };
const ended = await step("endStay", async () => (await sdk.endStay({ ...t, ...byStay, body: { type: "transferredOut" } })).data);
if (ended.outcome?.type !== "transferredOut") throw new Error(`endStay answered ${JSON.stringify(ended)}`);
await step("correctStay", async () => (await sdk.correctStay({ ...t, ...byStay, body: { outcome: { subtype: "To County Humane" } } })).data);
await step("createStay", async () => (await sdk.createStay({ ...t, path: { petId: stayer.id }, body: { intake: { type: "relinquishedByOwner" } } })).data);
// The month's numbers: the organisation's (its key) and the network's (a platform key), as JSON and as CSV.
const month = new Date().toISOString().slice(0, 7);
const monthly = await step(
  "getMonthlyReport",
  async () => (await sdk.getMonthlyReport({ ...t, path: { organizationId: stayer.organizationId }, query: { from: month, to: month } })).data,
);
if (monthly.months.length !== 1) throw new Error(`getMonthlyReport answered ${monthly.months.length} months`);
const csv = await step(
  "getMonthlyReportCsv",
  async () =>
    (await sdk.getMonthlyReportCsv({ ...t, path: { organizationId: stayer.organizationId }, query: { from: month, to: month }, parseAs: "text" })).data,
);
if (!String(csv).includes(`Month ${month}`)) throw new Error("the report's CSV lacks its month");
await step("getNetworkMonthlyReport", async () => (await sdk.getNetworkMonthlyReport({ ...t, client: platform, query: { from: month, to: month } })).data);
await step(
  "getNetworkMonthlyReportCsv",
  async () => (await sdk.getNetworkMonthlyReportCsv({ ...t, client: platform, query: { from: month, to: month }, parseAs: "text" })).data,
);

// Foster homes (issue 50): a foster of the key's organisation (people:read / people:write), an animal placed with
// them, corrected and back (records:read / records:write), where it was meanwhile, the foster's link and page,
// two applications to foster (one approved, one declined), and the foster paused, then erased.
const organizationId = stayer.organizationId;
const fosterEmail = `hey-api-foster-${unique}@example.org`;
const person = await step(
  "createPerson",
  async () =>
    (
      await sdk.createPerson({
        ...t,
        path: { organizationId },
        body: {
          name: `Hey API foster ${unique}`,
          email: fosterEmail,
          phone: "+1 312 555 0150",
          address: { street: "1 N State St", city: "Chicago", region: "IL", postcode: "60602", country: "US" },
          notes: "Fenced yard; works from home.",
          foster: { status: "active", capacity: 2, species: [], blackouts: [{ from: "2099-12-24", to: "2099-12-31" }] },
        },
      })
    ).data,
);
if (person.foster?.status !== "active" || person.foster.room !== 2) throw new Error(`createPerson answered ${JSON.stringify(person)}`);
const byPerson = { path: { organizationId, personId: person.id } };
const withRoom = await step(
  "listPeople",
  async () => (await sdk.listPeople({ ...t, path: { organizationId }, query: { role: "foster", status: ["active"], hasRoom: true, q: fosterEmail } })).data,
);
if (withRoom.length !== 1 || withRoom[0]!.id !== person.id) throw new Error(`listPeople answered ${JSON.stringify(withRoom)}`);
const fostered = (await sdk.createPet({ ...t, body: { name: `Hey API fostered ${unique}`, categoryId } })).data;
const byPet = { path: { petId: fostered.id } };
const placement = await step(
  "createPlacement",
  async () => (await sdk.createPlacement({ ...t, ...byPet, body: { personId: person.id, expectedEndOn: day(14), note: "Through hey-api." } })).data,
);
if (placement.personId !== person.id || placement.endAt !== null) throw new Error(`createPlacement answered ${JSON.stringify(placement)}`);
const placements = await step("listPlacements", async () => (await sdk.listPlacements({ ...t, ...byPet, query: { limit: 10 } })).data);
if (placements.length !== 1 || placements[0]!.id !== placement.id) throw new Error(`listPlacements answered ${JSON.stringify(placements)}`);
const byPlacement = { path: { petId: fostered.id, placementId: placement.id } };
// The foster meant to bring it back two days ago: the animal is overdue.
const corrected = await step(
  "correctPlacement",
  async () => (await sdk.correctPlacement({ ...t, ...byPlacement, body: { expectedEndOn: day(-2), note: "Back sooner than planned." } })).data,
);
if (corrected.expectedEndOn !== day(-2)) throw new Error(`correctPlacement answered ${JSON.stringify(corrected)}`);
const custody = await step(
  "listCustody",
  async () => (await sdk.listCustody({ ...t, path: { organizationId }, query: { where: "foster", personId: person.id, overdue: true } })).data,
);
const where = custody.find((entry) => entry.petId === fostered.id)?.custody;
if (where?.kind !== "foster" || where.personName !== person.name || !where.overdue) throw new Error(`listCustody answered ${JSON.stringify(custody)}`);
const back = await step("endPlacement", async () => (await sdk.endPlacement({ ...t, ...byPlacement, body: { reason: "returnedToShelter" } })).data);
if (back.endReason !== "returnedToShelter" || back.endAt === null) throw new Error(`endPlacement answered ${JSON.stringify(back)}`);
const link = await step("sendFosterLink", async () => (await sdk.sendFosterLink({ ...t, ...byPerson })).data);
if (!link.sent) throw new Error(`sendFosterLink answered ${JSON.stringify(link)}`);
const page = await step("getFosterPage", async () => (await sdk.getFosterPage({ ...t, ...byPerson })).data);
if (page.link === null || page.link.expired) throw new Error(`getFosterPage answered ${JSON.stringify(page)}`);
// Two people apply to foster (a partner forwarding the shelter's form); staff approve one and decline the other.
const application = (who: string) => ({
  name: `Hey API ${who}`,
  email: `hey-api-${who}-${unique}@example.org`,
  address: { city: "Evanston", postcode: "60201", country: "US" },
  species: ["cat" as const],
  capacity: 1,
  message: "A spare room and a quiet house.",
  consent: true as const,
});
const applied = await step("applyToFoster", async () => (await sdk.applyToFoster({ ...t, path: { organizationId }, body: application("approved") })).data);
if (!applied.received) throw new Error(`applyToFoster answered ${JSON.stringify(applied)}`);
await sdk.applyToFoster({ ...t, path: { organizationId }, body: application("declined") });
const applicants = await step(
  "listFosterApplicants",
  async () => (await sdk.listFosterApplicants({ ...t, path: { organizationId }, query: { limit: 50 } })).data,
);
const applicant = (who: string) => {
  const found = applicants.find((a) => a.email === `hey-api-${who}-${unique}@example.org`);
  if (!found) throw new Error(`listFosterApplicants lacks the ${who} applicant: ${JSON.stringify(applicants)}`);
  return { path: { organizationId, personId: found.id } };
};
const approved = await step("approveFosterApplicant", async () => (await sdk.approveFosterApplicant({ ...t, ...applicant("approved") })).data);
if (approved.status !== "active" || approved.decision !== "approved") throw new Error(`approveFosterApplicant answered ${JSON.stringify(approved)}`);
const declined = await step(
  "declineFosterApplicant",
  async () => (await sdk.declineFosterApplicant({ ...t, ...applicant("declined"), body: { message: "We have enough homes for now." } })).data,
);
if (declined.status !== "inactive" || declined.decision !== "declined") throw new Error(`declineFosterApplicant answered ${JSON.stringify(declined)}`);
// The foster, with the animal back (none placed), paused through the ETag read: then erased.
const read = await step("getPerson", () => sdk.getPerson({ ...t, ...byPerson }));
if (read.data.foster?.placedCount !== 0 || read.data.email !== fosterEmail) throw new Error(`getPerson answered ${JSON.stringify(read.data)}`);
const etag = read.response.headers.get("ETag");
if (!etag) throw new Error("getPerson answered no ETag");
const paused = await step(
  "updatePerson",
  async () => (await sdk.updatePerson({ ...t, ...byPerson, body: { foster: { status: "paused" } }, headers: { "If-Match": etag } })).data,
);
if (paused.foster?.status !== "paused" || paused.foster.capacity !== 2) throw new Error(`updatePerson answered ${JSON.stringify(paused)}`);
await step("erasePerson", async () => (await sdk.erasePerson({ ...t, ...byPerson })).data);
const erased = (await sdk.getPerson({ ...t, ...byPerson })).data;
if (!erased.erased || erased.name !== null || erased.email !== null) throw new Error(`the erased person answers ${JSON.stringify(erased)}`);

report();
