/**
 * A partner's client made by orval 8 from /v1/openapi.json: its `fetch`
 * client calls the API, and its `zod` schemas validate every request body
 * and query before it is sent and every answer as it arrives
 * (e2e/api/generated-clients.spec.ts generates both into ./orval next to this
 * file, type-checks this file against them with --strict, and runs it).
 * Every public operation, the photo upload and the import's JSON mapping
 * field included, as orval builds them from the document alone.
 */
import * as sdk from "./orval/client";
import * as schemas from "./orval/zod";
import { day, eventually, key, listingFile, photo, platformKey, receiver, report, step, unique } from "./shared";

const auth = (bearer = key, headers: Record<string, string> = {}): RequestInit => ({ headers: { Authorization: `Bearer ${bearer}`, ...headers } });

/** A 2xx answer's body, validated by orval's zod schema for it; anything else ends the run. */
async function ok<T>(answer: Promise<{ status: number; data: unknown }>, schema: { parse: (value: unknown) => T }): Promise<T> {
  const res = await answer;
  if (res.status < 200 || res.status >= 300) throw new Error(`answered ${res.status}: ${JSON.stringify(res.data).slice(0, 800)}`);
  // orval's fetch client answers {} for a body-less 204; its schema for one is z.void().
  return schema.parse(res.status === 204 ? undefined : res.data);
}
/** What orval's schema for a request takes, as it will be sent: a partner's validator before the call. */
const valid = <T>(schema: { parse: (value: unknown) => unknown }, value: T): T => (schema.parse(value), value);

await step("listOrganizations", () =>
  ok(sdk.listOrganizations(valid(schemas.ListOrganizationsQueryParams, { limit: 5 }), auth()), schemas.ListOrganizationsResponse),
);
const organization = await step("createOrganization", () =>
  ok(
    sdk.createOrganization(
      // Far from every demo shelter: the /shelters tests expect exactly the demo shelters near Chicago.
      valid(schemas.CreateOrganizationBody, {
        name: `Orval rescue ${unique}`,
        address: { city: "Nome", region: "AK", postcode: "99762", country: "US" },
        location: { lat: 64.5011, lng: -165.4064 },
      }),
      auth(platformKey),
    ),
    schemas.CreateOrganizationResponse,
  ),
);
await step("getOrganization", () => ok(sdk.getOrganization(organization.id, auth()), schemas.GetOrganizationResponse));
await step("updateOrganization", () =>
  ok(
    sdk.updateOrganization(organization.id, valid(schemas.UpdateOrganizationBody, { phone: "+1 312 555 0143" }), auth(platformKey)),
    schemas.UpdateOrganizationResponse,
  ),
);

const categories = await step("listCategories", () => ok(sdk.listCategories(auth()), schemas.ListCategoriesResponse));
const categoryId = categories[0]!.id;
await step("listCategoryBreeds", () => ok(sdk.listCategoryBreeds(categoryId, auth()), schemas.ListCategoryBreedsResponse));
const pet = await step("createPet", () =>
  ok(
    sdk.createPet(valid(schemas.CreatePetBody, { name: `Orval ${unique}`, categoryId }), auth(key, { "Idempotency-Key": `orval-${unique}` })),
    schemas.CreatePetResponse,
  ),
);
const other = await ok(
  sdk.createPet(
    valid(schemas.CreatePetBody, {
      name: `Orval other ${unique}`,
      categoryId,
      sex: "female",
      externalId: `orval-${unique}`,
      houseTrained: true,
      colors: ["Black", "White"],
      coatLength: "short",
      adoptionFee: { amountCents: 15000 },
      videoUrl: "https://youtu.be/dQw4w9WgXcQ",
      tags: ["Playful"],
    }),
    auth(),
  ),
  schemas.CreatePetResponse,
);
await step("getPet", () => ok(sdk.getPet(pet.id, auth()), schemas.GetPetResponse));
const listed = await step("listPets", () =>
  ok(sdk.listPets(valid(schemas.ListPetsQueryParams, { id: [pet.id, other.id], limit: 5 }), auth()), schemas.ListPetsResponse),
);
if (listed.length !== 2) throw new Error(`listPets with two ids answered ${listed.length} animals`);
await step("updatePet", () =>
  ok(
    sdk.updatePet(
      pet.id,
      valid(schemas.UpdatePetBody, { description: "Made through orval's client.", adoptionFee: { amountCents: 5000, waived: true } }),
      auth(key, { "If-Match": `"${pet.version}"` }),
    ),
    schemas.UpdatePetResponse,
  ),
);

// The photo as orval sends it: the documented multipart form, the file a Blob.
const added = await step("addPetPhoto", () =>
  ok(sdk.addPetPhoto(pet.id, valid(schemas.AddPetPhotoBody, { file: photo(), alt: "A test card" }), undefined, auth()), schemas.AddPetPhotoResponse),
);
await step("updatePetPhoto", () =>
  ok(sdk.updatePetPhoto(pet.id, added.id, valid(schemas.UpdatePetPhotoBody, { alt: "The same card" }), auth()), schemas.UpdatePetPhotoResponse),
);
await step("deletePetPhoto", () => ok(sdk.deletePetPhoto(pet.id, added.id, auth()), schemas.DeletePetPhotoResponse));

await step("applyForPet", () =>
  ok(
    sdk.applyForPet(
      other.id,
      valid(schemas.ApplyForPetBody, { name: "Orval", email: `orval-${unique}@example.org`, home: "house", message: "Through a partner.", consent: true }),
      auth(),
    ),
    schemas.ApplyForPetResponse,
  ),
);
await step("createAlert", () =>
  ok(
    sdk.createAlert(
      valid(schemas.CreateAlertBody, {
        email: `orval-alert-${unique}@example.org`,
        frequency: "daily",
        timeZone: "America/Chicago",
        filters: { categoryId, sex: "female", near: "60601", within: "25mi" },
        consent: true,
      }),
      auth(),
    ),
    schemas.CreateAlertResponse,
  ),
);
await step("listEvents", () => ok(sdk.listEvents(valid(schemas.ListEventsQueryParams, { limit: 10 }), auth()), schemas.ListEventsResponse));

const webhook = await step("createWebhook", () =>
  ok(
    sdk.createWebhook(valid(schemas.CreateWebhookBody, { url: receiver, events: ["pet.updated"], description: "orval" }), auth()),
    schemas.CreateWebhookResponse,
  ),
);
await step("listWebhooks", () => ok(sdk.listWebhooks(auth()), schemas.ListWebhooksResponse));
await step("getWebhook", () => ok(sdk.getWebhook(webhook.id, auth()), schemas.GetWebhookResponse));
await step("updateWebhook", () =>
  ok(sdk.updateWebhook(webhook.id, valid(schemas.UpdateWebhookBody, { description: "orval, changed" }), auth()), schemas.UpdateWebhookResponse),
);
await step("rotateWebhookSecret", () => ok(sdk.rotateWebhookSecret(webhook.id, auth()), schemas.RotateWebhookSecretResponse));
await step("testWebhook", () => ok(sdk.testWebhook(webhook.id, auth()), schemas.TestWebhookResponse));
// A change for the endpoint to be sent, then its delivery in the log (done, so that it can be retried).
await ok(sdk.updatePet(pet.id, { name: `Orval ${unique}, renamed` }, auth()), schemas.UpdatePetResponse);
const delivery = await step("listWebhookDeliveries", () =>
  eventually(
    "the delivery of the change",
    () => ok(sdk.listWebhookDeliveries(webhook.id, { limit: 10 }, auth()), schemas.ListWebhookDeliveriesResponse),
    (deliveries) => deliveries.find((d) => d.status === "succeeded"),
  ),
);
await step("retryWebhookDelivery", () => ok(sdk.retryWebhookDelivery(webhook.id, delivery.id, auth()), schemas.RetryWebhookDeliveryResponse));
await step("deleteWebhook", () => ok(sdk.deleteWebhook(webhook.id, auth()), schemas.DeleteWebhookResponse));

const imported = await step("createImport", () =>
  ok(sdk.createImport(valid(schemas.CreateImportBody, { file: listingFile(), dryRun: true }), auth()), schemas.CreateImportResponse),
);
await step("listImports", () => ok(sdk.listImports(valid(schemas.ListImportsQueryParams, { limit: 5 }), auth()), schemas.ListImportsResponse));
// An organisation runs one import at a time: the dry run runs to its end.
await step("getImport", () =>
  eventually(
    "the dry run to finish",
    () => ok(sdk.getImport(imported.id, auth()), schemas.GetImportResponse),
    (found) => (found.status === "done" || found.status === "failed" ? found : undefined),
  ),
);
await step("listImportIssues", () =>
  ok(sdk.listImportIssues(imported.id, valid(schemas.ListImportIssuesQueryParams, { limit: 10 }), auth()), schemas.ListImportIssuesResponse),
);
// A generic CSV with its mapping: orval sends the ImportMapping as the form's JSON field, as the document's
// encoding says (after the dry run above has finished: an organisation runs one import at a time).
const generic = new Blob([`Animal ID,Name,Species\norval-${unique},Mapped,Dog\n`], { type: "text/csv" });
await ok(
  sdk.createImport(
    valid(schemas.CreateImportBody, { file: generic, dryRun: true, mapping: { externalId: "Animal ID", name: "Name", species: "Species" } }),
    auth(),
  ),
  schemas.CreateImportResponse,
);

// A listing site on a port where nothing listens (the suite's server allows 127.0.0.1): the test says so, the upload is queued.
const ftp = { site: "adoptapet", host: "127.0.0.1", port: 9, username: `orval-${unique}`, password: "not a real password" } as const;
const tested = await step("testListingSiteConnection", () =>
  ok(sdk.testListingSiteConnection(valid(schemas.TestListingSiteConnectionBody, ftp), auth()), schemas.TestListingSiteConnectionResponse),
);
if (tested.ok) throw new Error("a connection to a closed port was reported as working");
const listingSite = await step("createListingSite", () =>
  ok(sdk.createListingSite(valid(schemas.CreateListingSiteBody, { ...ftp, enabled: false }), auth()), schemas.CreateListingSiteResponse),
);
await step("listListingSites", () => ok(sdk.listListingSites(auth()), schemas.ListListingSitesResponse));
await step("getListingSite", () => ok(sdk.getListingSite(listingSite.id, auth()), schemas.GetListingSiteResponse));
await step("updateListingSite", () =>
  ok(sdk.updateListingSite(listingSite.id, valid(schemas.UpdateListingSiteBody, { enabled: true }), auth()), schemas.UpdateListingSiteResponse),
);
await step("startListingUpload", () => ok(sdk.startListingUpload(listingSite.id, auth()), schemas.StartListingUploadResponse));
await step("listListingUploads", () => ok(sdk.listListingUploads(listingSite.id, auth()), schemas.ListListingUploadsResponse));
await step("deleteListingSite", () => ok(sdk.deleteListingSite(listingSite.id, auth()), schemas.DeleteListingSiteResponse));
const feed = await step("getListingFeed", () => ok(sdk.getListingFeed(pet.organizationId, "petfinder.csv", auth()), schemas.GetListingFeedResponse));
if (!String(feed).startsWith("ID,Internal,AnimalName")) throw new Error("the Petfinder feed lacks its header row");

// An animal's stays (records:read / records:write): taken in as a stray, transferred out, corrected, back in.
const stayer = await ok(
  sdk.createPet(valid(schemas.CreatePetBody, { name: `Orval stayer ${unique}`, categoryId, intake: { type: "stray", subtype: "Found" } }), auth()),
  schemas.CreatePetResponse,
);
const stays = await step("listStays", () =>
  ok(sdk.listStays(stayer.id, valid(schemas.ListStaysQueryParams, { limit: 10 }), auth()), schemas.ListStaysResponse),
);
const ended = await step("endStay", () =>
  ok(sdk.endStay(stayer.id, stays[0]!.id, valid(schemas.EndStayBody, { type: "transferredOut" }), auth()), schemas.EndStayResponse),
);
if (ended.outcome?.type !== "transferredOut") throw new Error(`endStay answered ${JSON.stringify(ended)}`);
await step("correctStay", () =>
  ok(
    sdk.correctStay(stayer.id, stays[0]!.id, valid(schemas.CorrectStayBody, { outcome: { subtype: "To County Humane" } }), auth()),
    schemas.CorrectStayResponse,
  ),
);
await step("createStay", () =>
  ok(sdk.createStay(stayer.id, valid(schemas.CreateStayBody, { intake: { type: "relinquishedByOwner" } }), auth()), schemas.CreateStayResponse),
);
// The month's numbers: the organisation's (its key) and the network's (a platform key), as JSON and as CSV.
const month = new Date().toISOString().slice(0, 7);
const range = { from: month, to: month };
const monthly = await step("getMonthlyReport", () =>
  ok(sdk.getMonthlyReport(stayer.organizationId, valid(schemas.GetMonthlyReportQueryParams, range), auth()), schemas.GetMonthlyReportResponse),
);
if (monthly.months.length !== 1) throw new Error(`getMonthlyReport answered ${monthly.months.length} months`);
const csv = await step("getMonthlyReportCsv", () =>
  ok(sdk.getMonthlyReportCsv(stayer.organizationId, valid(schemas.GetMonthlyReportCsvQueryParams, range), auth()), schemas.GetMonthlyReportCsvResponse),
);
if (!String(csv).includes(`Month ${month}`)) throw new Error("the report's CSV lacks its month");
await step("getNetworkMonthlyReport", () =>
  ok(sdk.getNetworkMonthlyReport(valid(schemas.GetNetworkMonthlyReportQueryParams, range), auth(platformKey)), schemas.GetNetworkMonthlyReportResponse),
);
await step("getNetworkMonthlyReportCsv", () =>
  ok(
    sdk.getNetworkMonthlyReportCsv(valid(schemas.GetNetworkMonthlyReportCsvQueryParams, range), auth(platformKey)),
    schemas.GetNetworkMonthlyReportCsvResponse,
  ),
);

// Foster homes (issue 50): a foster of the key's organisation (people:read / people:write), an animal placed with
// them, corrected and back (records:read / records:write), where it was meanwhile, the foster's link and page,
// two applications to foster (one approved, one declined), and the foster paused, then erased.
const organizationId = stayer.organizationId;
const fosterEmail = `orval-foster-${unique}@example.org`;
const person = await step("createPerson", () =>
  ok(
    sdk.createPerson(
      organizationId,
      valid(schemas.CreatePersonBody, {
        name: `Orval foster ${unique}`,
        email: fosterEmail,
        phone: "+1 312 555 0151",
        address: { street: "1 N State St", city: "Chicago", region: "IL", postcode: "60602", country: "US" },
        foster: { status: "active", capacity: 1, species: ["dog", "cat", "other"], blackouts: [{ from: "2099-12-24", to: "2099-12-31" }] },
      }),
      auth(),
    ),
    schemas.CreatePersonResponse,
  ),
);
if (person.foster?.status !== "active" || person.foster.room !== 1) throw new Error(`createPerson answered ${JSON.stringify(person)}`);
const withRoom = await step("listPeople", () =>
  ok(
    sdk.listPeople(organizationId, valid(schemas.ListPeopleQueryParams, { role: "foster", status: ["active"], hasRoom: true, q: fosterEmail }), auth()),
    schemas.ListPeopleResponse,
  ),
);
if (withRoom.length !== 1 || withRoom[0]!.id !== person.id) throw new Error(`listPeople answered ${JSON.stringify(withRoom)}`);
const fostered = await ok(sdk.createPet(valid(schemas.CreatePetBody, { name: `Orval fostered ${unique}`, categoryId }), auth()), schemas.CreatePetResponse);
const placement = await step("createPlacement", () =>
  ok(
    sdk.createPlacement(fostered.id, valid(schemas.CreatePlacementBody, { personId: person.id, expectedEndOn: day(14), note: "Through orval." }), auth()),
    schemas.CreatePlacementResponse,
  ),
);
if (placement.personId !== person.id || placement.endAt !== null) throw new Error(`createPlacement answered ${JSON.stringify(placement)}`);
const placements = await step("listPlacements", () =>
  ok(sdk.listPlacements(fostered.id, valid(schemas.ListPlacementsQueryParams, { limit: 10 }), auth()), schemas.ListPlacementsResponse),
);
if (placements.length !== 1 || placements[0]!.id !== placement.id) throw new Error(`listPlacements answered ${JSON.stringify(placements)}`);
// The foster meant to bring it back two days ago: the animal is overdue.
const corrected = await step("correctPlacement", () =>
  ok(
    sdk.correctPlacement(fostered.id, placement.id, valid(schemas.CorrectPlacementBody, { expectedEndOn: day(-2), note: null }), auth()),
    schemas.CorrectPlacementResponse,
  ),
);
if (corrected.expectedEndOn !== day(-2) || corrected.note !== null) throw new Error(`correctPlacement answered ${JSON.stringify(corrected)}`);
const custody = await step("listCustody", () =>
  ok(
    sdk.listCustody(organizationId, valid(schemas.ListCustodyQueryParams, { where: "foster", personId: person.id, overdue: true }), auth()),
    schemas.ListCustodyResponse,
  ),
);
const where = custody.find((entry) => entry.petId === fostered.id)?.custody;
if (where?.kind !== "foster" || where.personName !== person.name || !where.overdue) throw new Error(`listCustody answered ${JSON.stringify(custody)}`);
const back = await step("endPlacement", () =>
  ok(sdk.endPlacement(fostered.id, placement.id, valid(schemas.EndPlacementBody, { reason: "returnedToShelter" }), auth()), schemas.EndPlacementResponse),
);
if (back.endReason !== "returnedToShelter" || back.endAt === null) throw new Error(`endPlacement answered ${JSON.stringify(back)}`);
const link = await step("sendFosterLink", () => ok(sdk.sendFosterLink(organizationId, person.id, auth()), schemas.SendFosterLinkResponse));
if (!link.sent) throw new Error(`sendFosterLink answered ${JSON.stringify(link)}`);
const page = await step("getFosterPage", () => ok(sdk.getFosterPage(organizationId, person.id, auth()), schemas.GetFosterPageResponse));
if (page.link === null || page.link.expired) throw new Error(`getFosterPage answered ${JSON.stringify(page)}`);
// Two people apply to foster (a partner forwarding the shelter's form); staff approve one and decline the other.
const application = (who: string) =>
  valid(schemas.ApplyToFosterBody, {
    name: `Orval ${who}`,
    email: `orval-${who}-${unique}@example.org`,
    address: { city: "Evanston", postcode: "60201", country: "US" },
    species: ["dog" as const],
    capacity: 1,
    message: "A fenced yard.",
    consent: true as const,
  });
const applied = await step("applyToFoster", () => ok(sdk.applyToFoster(organizationId, application("approved"), auth()), schemas.ApplyToFosterResponse));
if (!applied.received) throw new Error(`applyToFoster answered ${JSON.stringify(applied)}`);
await ok(sdk.applyToFoster(organizationId, application("declined"), auth()), schemas.ApplyToFosterResponse);
const applicants = await step("listFosterApplicants", () =>
  ok(sdk.listFosterApplicants(organizationId, valid(schemas.ListFosterApplicantsQueryParams, { limit: 50 }), auth()), schemas.ListFosterApplicantsResponse),
);
const applicant = (who: string) => {
  const found = applicants.find((a) => a.email === `orval-${who}-${unique}@example.org`);
  if (!found) throw new Error(`listFosterApplicants lacks the ${who} applicant: ${JSON.stringify(applicants)}`);
  return found.id;
};
const approved = await step("approveFosterApplicant", () =>
  ok(sdk.approveFosterApplicant(organizationId, applicant("approved"), auth()), schemas.ApproveFosterApplicantResponse),
);
if (approved.status !== "active" || approved.decision !== "approved") throw new Error(`approveFosterApplicant answered ${JSON.stringify(approved)}`);
const declined = await step("declineFosterApplicant", () =>
  ok(
    sdk.declineFosterApplicant(
      organizationId,
      applicant("declined"),
      valid(schemas.DeclineFosterApplicantBody, { message: "We have enough homes for now." }),
      auth(),
    ),
    schemas.DeclineFosterApplicantResponse,
  ),
);
if (declined.status !== "inactive" || declined.decision !== "declined") throw new Error(`declineFosterApplicant answered ${JSON.stringify(declined)}`);
// The foster, with the animal back (none placed), paused through the ETag read (orval's answer carries the headers): then erased.
const read = await step("getPerson", async () => {
  const answer = await sdk.getPerson(organizationId, person.id, auth());
  return { person: await ok(Promise.resolve(answer), schemas.GetPersonResponse), etag: answer.headers.get("ETag") };
});
if (read.person.foster?.placedCount !== 0 || read.person.email !== fosterEmail || !read.etag) throw new Error(`getPerson answered ${JSON.stringify(read)}`);
const paused = await step("updatePerson", () =>
  ok(
    sdk.updatePerson(
      organizationId,
      person.id,
      valid(schemas.UpdatePersonBody, { foster: { status: "paused", capacity: 3 } }),
      auth(key, { "If-Match": read.etag! }),
    ),
    schemas.UpdatePersonResponse,
  ),
);
if (paused.foster?.status !== "paused" || paused.foster.capacity !== 3) throw new Error(`updatePerson answered ${JSON.stringify(paused)}`);
await step("erasePerson", () => ok(sdk.erasePerson(organizationId, person.id, auth()), schemas.ErasePersonResponse));
const erased = await ok(sdk.getPerson(organizationId, person.id, auth()), schemas.GetPersonResponse);
if (!erased.erased || erased.name !== null || erased.email !== null) throw new Error(`the erased person answers ${JSON.stringify(erased)}`);

report();
