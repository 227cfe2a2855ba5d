/**
 * A partner's client typed by openapi-typescript from /v1/openapi.json (with
 * its documented recipe for files: format binary is a Blob), calling through
 * openapi-fetch, as the site's own client does (e2e/api/generated-clients.spec.ts
 * generates ./openapi-typescript.ts next to this file, type-checks this file
 * against it, and runs it). Every public operation; the photo both as the
 * multipart form's file (the documented body) and as the body itself.
 */
import createClient from "openapi-fetch";
import type { paths } from "./openapi-typescript";
import { api, day, eventually, key, listingFile, photo, platformKey, receiver, report, step, unique } from "./shared";

// Lists as the document describes them (style form, explode false: `id=12,15`), as the site's client
// does: openapi-fetch repeats the parameter unless told, which the API refuses.
const querySerializer = { array: { style: "form", explode: false } } as const;
const client = createClient<paths>({ baseUrl: api, headers: { Authorization: `Bearer ${key}` }, querySerializer });
const platform = createClient<paths>({ baseUrl: api, headers: { Authorization: `Bearer ${platformKey}` }, querySerializer });

/** The answer's data, or the error it carried (thrown). */
function ok<D>(result: { data?: D; error?: unknown; response: Response }): D {
  if (result.error !== undefined || !result.response.ok) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data as D;
}

/** The multipart form's parts (the operation's one documented body). */
const photoBody = (body: { file: Blob; alt?: string }) => {
  const data = new FormData();
  data.append("file", body.file, "card.png");
  if (body.alt) data.append("alt", body.alt);
  return data;
};

await step("listOrganizations", async () => ok(await client.GET("/organizations", { params: { query: { limit: 5 } } })));
const organization = await step("createOrganization", async () =>
  ok(
    await platform.POST("/organizations", {
      // Far from every demo shelter: the /shelters tests expect exactly the demo shelters near Chicago.
      body: {
        name: `openapi-fetch rescue ${unique}`,
        address: { city: "Nome", region: "AK", postcode: "99762", country: "US" },
        location: { lat: 64.5011, lng: -165.4064 },
      },
    }),
  ),
);
await step("getOrganization", async () => ok(await client.GET("/organizations/{organizationId}", { params: { path: { organizationId: organization.id } } })));
await step("updateOrganization", async () =>
  ok(await platform.PATCH("/organizations/{organizationId}", { params: { path: { organizationId: organization.id } }, body: { phone: "+1 312 555 0142" } })),
);

const categories = await step("listCategories", async () => ok(await client.GET("/categories")));
const categoryId = categories[0]!.id;
await step("listCategoryBreeds", async () => ok(await client.GET("/categories/{categoryId}/breeds", { params: { path: { categoryId } } })));
const pet = await step("createPet", async () =>
  ok(
    await client.POST("/pets", { body: { name: `openapi-fetch ${unique}`, categoryId }, params: { header: { "Idempotency-Key": `openapi-fetch-${unique}` } } }),
  ),
);
const other = ok(
  await client.POST("/pets", {
    body: {
      name: `openapi-fetch other ${unique}`,
      categoryId,
      externalId: `openapi-fetch-${unique}`,
      specialNeeds: false,
      spayedNeutered: true,
      intakeDate: "2026-01-15",
      adoptionFee: { amountCents: 9000, currency: "cad" },
    },
  }),
);
if (other.adoptionFee?.currency !== "CAD" || other.specialNeeds !== false) throw new Error(`createPet answered ${JSON.stringify(other)}`);
await step("getPet", async () => ok(await client.GET("/pets/{petId}", { params: { path: { petId: pet.id } } })));
const listed = await step("listPets", async () => ok(await client.GET("/pets", { params: { query: { id: [pet.id, other.id], limit: 5 } } })));
if (listed.length !== 2) throw new Error(`listPets with two ids answered ${listed.length} animals`);
const byExternalId = ok(
  await client.GET("/pets", { params: { query: { externalId: [`openapi-fetch-${unique}`], specialNeeds: false, spayedNeutered: true } } }),
);
if (byExternalId.length !== 1 || byExternalId[0]!.id !== other.id) throw new Error(`listPets by externalId answered ${JSON.stringify(byExternalId)}`);
await step("updatePet", async () =>
  ok(
    await client.PATCH("/pets/{petId}", {
      params: { path: { petId: pet.id }, header: { "If-Match": `"${pet.version}"` } },
      body: { description: "Made through a generated client." },
    }),
  ),
);

const added = await step("addPetPhoto", async () =>
  ok(
    await client.POST("/pets/{petId}/photos", {
      params: { path: { petId: pet.id }, query: {} },
      body: { file: photo(), alt: "A test card" },
      bodySerializer: photoBody,
    }),
  ),
);
// The image itself as the body, with its Content-Type: not the documented body (the form is), but taken as
// the operation's description and its `x-raw-image-body` say; plain fetch, as curl --data-binary would.
const rawResponse = await fetch(`${api}/pets/${pet.id}/photos?alt=${encodeURIComponent("Sent as the body")}`, {
  method: "POST",
  headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/png" },
  body: photo(),
});
if (rawResponse.status !== 201) throw new Error(`the raw upload answered ${rawResponse.status}: ${await rawResponse.text()}`);
const raw = (await rawResponse.json()) as { alt: string | null };
if (raw.alt !== "Sent as the body") throw new Error(`the raw upload's alt is ${JSON.stringify(raw.alt)}`);
await step("updatePetPhoto", async () =>
  ok(await client.PATCH("/pets/{petId}/photos/{photoId}", { params: { path: { petId: pet.id, photoId: added.id } }, body: { alt: "The same card" } })),
);
await step("deletePetPhoto", async () => ok(await client.DELETE("/pets/{petId}/photos/{photoId}", { params: { path: { petId: pet.id, photoId: added.id } } })));

await step("applyForPet", async () =>
  ok(
    await client.POST("/pets/{petId}/applications", {
      params: { path: { petId: other.id } },
      body: { name: "Open Api", email: `openapi-fetch-${unique}@example.org`, home: "flat", message: "Through a partner.", consent: true },
    }),
  ),
);
await step("createAlert", async () =>
  ok(
    await client.POST("/alerts", {
      body: {
        email: `openapi-fetch-alert-${unique}@example.org`,
        frequency: "hourly",
        timeZone: "Europe/London",
        filters: { categoryId, size: "small" },
        consent: true,
      },
    }),
  ),
);
await step("listEvents", async () => ok(await client.GET("/events", { params: { query: { limit: 10 } } })));

const webhook = await step("createWebhook", async () =>
  ok(await client.POST("/webhooks", { body: { url: receiver, events: ["pet.updated"], description: "openapi-fetch" } })),
);
const byId = { params: { path: { webhookId: webhook.id } } };
await step("listWebhooks", async () => ok(await client.GET("/webhooks")));
await step("getWebhook", async () => ok(await client.GET("/webhooks/{webhookId}", byId)));
await step("updateWebhook", async () => ok(await client.PATCH("/webhooks/{webhookId}", { ...byId, body: { description: "openapi-fetch, changed" } })));
await step("rotateWebhookSecret", async () => ok(await client.POST("/webhooks/{webhookId}/rotate-secret", byId)));
await step("testWebhook", async () => ok(await client.POST("/webhooks/{webhookId}/test", byId)));
ok(await client.PATCH("/pets/{petId}", { params: { path: { petId: pet.id } }, body: { name: `openapi-fetch ${unique}, renamed` } }));
const delivery = await step("listWebhookDeliveries", () =>
  eventually(
    "the delivery of the change",
    async () => ok(await client.GET("/webhooks/{webhookId}/deliveries", { params: { path: { webhookId: webhook.id }, query: { limit: 10 } } })),
    (deliveries) => deliveries.find((d) => d.status === "succeeded"),
  ),
);
await step("retryWebhookDelivery", async () =>
  ok(await client.POST("/webhooks/{webhookId}/deliveries/{deliveryId}/retry", { params: { path: { webhookId: webhook.id, deliveryId: delivery.id } } })),
);
await step("deleteWebhook", async () => ok(await client.DELETE("/webhooks/{webhookId}", byId)));

const importForm = (body: { file: Blob; dryRun?: boolean }) => {
  const data = new FormData();
  data.append("file", body.file, "pets.csv");
  if (body.dryRun !== undefined) data.append("dryRun", String(body.dryRun));
  return data;
};
const imported = await step("createImport", async () =>
  ok(await client.POST("/imports", { body: { file: listingFile(), dryRun: true }, bodySerializer: importForm })),
);
await step("listImports", async () => ok(await client.GET("/imports", { params: { query: { limit: 5 } } })));
// An organisation runs one import at a time: the dry run runs to its end (the next caller's would be 409 meanwhile).
await step("getImport", () =>
  eventually(
    "the dry run to finish",
    async () => ok(await client.GET("/imports/{importId}", { params: { path: { importId: imported.id } } })),
    (found) => (found.status === "done" || found.status === "failed" ? found : undefined),
  ),
);
await step("listImportIssues", async () =>
  ok(await client.GET("/imports/{importId}/issues", { params: { path: { importId: imported.id }, query: { limit: 10 } } })),
);

// A listing site on a port where nothing listens (the suite's server allows 127.0.0.1): the test says so, the upload is queued.
const ftp = { site: "rescuegroups", host: "127.0.0.1", port: 9, username: `openapi-fetch-${unique}`, password: "not a real password" } as const;
const tested = await step("testListingSiteConnection", async () => ok(await client.POST("/listing-sites/test", { body: ftp })));
if (tested.ok) throw new Error("a connection to a closed port was reported as working");
const listingSite = await step("createListingSite", async () =>
  ok(await client.POST("/listing-sites", { body: { ...ftp, accountId: "1234", enabled: false } })),
);
const bySite = { params: { path: { siteId: listingSite.id } } };
await step("listListingSites", async () => ok(await client.GET("/listing-sites")));
await step("getListingSite", async () => ok(await client.GET("/listing-sites/{siteId}", bySite)));
await step("updateListingSite", async () => ok(await client.PATCH("/listing-sites/{siteId}", { ...bySite, body: { enabled: true } })));
await step("startListingUpload", async () => ok(await client.POST("/listing-sites/{siteId}/uploads", bySite)));
await step("listListingUploads", async () => ok(await client.GET("/listing-sites/{siteId}/uploads", bySite)));
await step("deleteListingSite", async () => ok(await client.DELETE("/listing-sites/{siteId}", bySite)));
const feed = await step("getListingFeed", async () =>
  ok(
    await client.GET("/organizations/{organizationId}/listings/{file}", {
      params: { path: { organizationId: pet.organizationId, file: "rescuegroups.csv" } },
      parseAs: "text",
    }),
  ),
);
if (!feed.startsWith("orgID, animalID")) throw new Error("the RescueGroups feed lacks its header row");

// An animal's stays (records:read / records:write): taken in as a stray, transferred out, corrected, back in.
const stayer = ok(await client.POST("/pets", { body: { name: `openapi-fetch stayer ${unique}`, categoryId, intake: { type: "stray", subtype: "Found" } } }));
const stays = await step("listStays", async () =>
  ok(await client.GET("/pets/{petId}/stays", { params: { path: { petId: stayer.id }, query: { limit: 10 } } })),
);
const byStay = { params: { path: { petId: stayer.id, stayId: stays[0]!.id } } };
const ended = await step("endStay", async () => ok(await client.POST("/pets/{petId}/stays/{stayId}/outcome", { ...byStay, body: { type: "transferredOut" } })));
if (ended.outcome?.type !== "transferredOut") throw new Error(`endStay answered ${JSON.stringify(ended)}`);
await step("correctStay", async () =>
  ok(await client.PATCH("/pets/{petId}/stays/{stayId}", { ...byStay, body: { outcome: { subtype: "To County Humane" } } })),
);
await step("createStay", async () =>
  ok(await client.POST("/pets/{petId}/stays", { params: { path: { petId: stayer.id } }, body: { intake: { type: "relinquishedByOwner" } } })),
);
// The month's numbers: the organisation's (its key) and the network's (a platform key), as JSON and as CSV.
const month = new Date().toISOString().slice(0, 7);
const byOrganization = { params: { path: { organizationId: stayer.organizationId }, query: { from: month, to: month } } };
const monthly = await step("getMonthlyReport", async () => ok(await client.GET("/organizations/{organizationId}/reports/monthly", byOrganization)));
if (monthly.months.length !== 1) throw new Error(`getMonthlyReport answered ${monthly.months.length} months`);
const csv = await step("getMonthlyReportCsv", async () =>
  ok(await client.GET("/organizations/{organizationId}/reports/monthly.csv", { ...byOrganization, parseAs: "text" })),
);
if (!csv.includes(`Month ${month}`)) throw new Error("the report's CSV lacks its month");
await step("getNetworkMonthlyReport", async () => ok(await platform.GET("/reports/monthly", { params: { query: { from: month, to: month } } })));
await step("getNetworkMonthlyReportCsv", async () =>
  ok(await platform.GET("/reports/monthly.csv", { params: { query: { from: month, to: month } }, parseAs: "text" })),
);

// Foster homes (issue 50): a foster of the key's organisation (people:read / people:write), an animal placed with
// them, corrected and back (records:read / records:write), where it was meanwhile, the foster's link and page,
// two applications to foster (one approved, one declined), and the foster paused, then erased.
const organizationId = stayer.organizationId;
const inOrganization = { params: { path: { organizationId } } };
const fosterEmail = `openapi-fetch-foster-${unique}@example.org`;
const person = await step("createPerson", async () =>
  ok(
    await client.POST("/organizations/{organizationId}/people", {
      ...inOrganization,
      body: {
        name: `openapi-fetch foster ${unique}`,
        email: fosterEmail,
        address: { city: "Chicago", postcode: "60602", country: "US" },
        foster: { status: "active", capacity: 2, species: ["dog", "cat", "other"] },
      },
    }),
  ),
);
if (person.foster?.status !== "active" || person.foster.room !== 2) throw new Error(`createPerson answered ${JSON.stringify(person)}`);
const byPerson = { params: { path: { organizationId, personId: person.id } } };
const withRoom = await step("listPeople", async () =>
  ok(
    await client.GET("/organizations/{organizationId}/people", {
      params: { path: { organizationId }, query: { role: "foster", status: ["active", "paused"], hasRoom: true, q: fosterEmail } },
    }),
  ),
);
if (withRoom.length !== 1 || withRoom[0]!.id !== person.id) throw new Error(`listPeople answered ${JSON.stringify(withRoom)}`);
const fostered = ok(await client.POST("/pets", { body: { name: `openapi-fetch fostered ${unique}`, categoryId } }));
const byPet = { params: { path: { petId: fostered.id } } };
const placement = await step("createPlacement", async () =>
  ok(await client.POST("/pets/{petId}/placements", { ...byPet, body: { personId: person.id, expectedEndOn: day(14) } })),
);
if (placement.personId !== person.id || placement.endAt !== null) throw new Error(`createPlacement answered ${JSON.stringify(placement)}`);
const placements = await step("listPlacements", async () =>
  ok(await client.GET("/pets/{petId}/placements", { params: { path: { petId: fostered.id }, query: { limit: 10 } } })),
);
if (placements.length !== 1 || placements[0]!.id !== placement.id) throw new Error(`listPlacements answered ${JSON.stringify(placements)}`);
const byPlacement = { params: { path: { petId: fostered.id, placementId: placement.id } } };
// The foster meant to bring it back two days ago: the animal is overdue.
const corrected = await step("correctPlacement", async () =>
  ok(await client.PATCH("/pets/{petId}/placements/{placementId}", { ...byPlacement, body: { expectedEndOn: day(-2), note: "Back sooner than planned." } })),
);
if (corrected.expectedEndOn !== day(-2) || corrected.note !== "Back sooner than planned.")
  throw new Error(`correctPlacement answered ${JSON.stringify(corrected)}`);
const custody = await step("listCustody", async () =>
  ok(
    await client.GET("/organizations/{organizationId}/custody", {
      params: { path: { organizationId }, query: { where: "foster", personId: person.id, overdue: true } },
    }),
  ),
);
const where = custody.find((entry) => entry.petId === fostered.id)?.custody;
if (where?.kind !== "foster" || where.personName !== person.name || !where.overdue) throw new Error(`listCustody answered ${JSON.stringify(custody)}`);
const back = await step("endPlacement", async () =>
  ok(await client.POST("/pets/{petId}/placements/{placementId}/end", { ...byPlacement, body: { reason: "returnedToShelter" } })),
);
if (back.endReason !== "returnedToShelter" || back.endAt === null) throw new Error(`endPlacement answered ${JSON.stringify(back)}`);
const link = await step("sendFosterLink", async () => ok(await client.POST("/organizations/{organizationId}/people/{personId}/link", byPerson)));
if (!link.sent) throw new Error(`sendFosterLink answered ${JSON.stringify(link)}`);
const page = await step("getFosterPage", async () => ok(await client.GET("/organizations/{organizationId}/people/{personId}/foster-page", byPerson)));
if (page.link === null || page.link.expired) throw new Error(`getFosterPage answered ${JSON.stringify(page)}`);
// Two people apply to foster (a partner forwarding the shelter's form); staff approve one and decline the other.
const application = (who: string) => ({
  name: `openapi-fetch ${who}`,
  email: `openapi-fetch-${who}-${unique}@example.org`,
  phone: "+1 847 555 0100",
  address: { street: "1 Elm St", city: "Evanston", region: "IL", postcode: "60201", country: "US" },
  capacity: 2,
  consent: true as const,
  locale: "es" as const,
});
const applied = await step("applyToFoster", async () =>
  ok(await client.POST("/organizations/{organizationId}/foster-applications", { ...inOrganization, body: application("approved") })),
);
if (!applied.received) throw new Error(`applyToFoster answered ${JSON.stringify(applied)}`);
ok(await client.POST("/organizations/{organizationId}/foster-applications", { ...inOrganization, body: application("declined") }));
const applicants = await step("listFosterApplicants", async () =>
  ok(await client.GET("/organizations/{organizationId}/foster-applications", { params: { path: { organizationId }, query: { limit: 50 } } })),
);
const applicant = (who: string) => {
  const found = applicants.find((a) => a.email === `openapi-fetch-${who}-${unique}@example.org`);
  if (!found) throw new Error(`listFosterApplicants lacks the ${who} applicant: ${JSON.stringify(applicants)}`);
  return { params: { path: { organizationId, personId: found.id } } };
};
const approved = await step("approveFosterApplicant", async () =>
  ok(await client.POST("/organizations/{organizationId}/foster-applications/{personId}/approve", applicant("approved"))),
);
if (approved.status !== "active" || approved.decision !== "approved") throw new Error(`approveFosterApplicant answered ${JSON.stringify(approved)}`);
const declined = await step("declineFosterApplicant", async () =>
  ok(await client.POST("/organizations/{organizationId}/foster-applications/{personId}/decline", { ...applicant("declined"), body: {} })),
);
if (declined.status !== "inactive" || declined.decision !== "declined") throw new Error(`declineFosterApplicant answered ${JSON.stringify(declined)}`);
// The foster, with the animal back (none placed), paused through the ETag read: then erased.
const read = await step("getPerson", async () => {
  const result = await client.GET("/organizations/{organizationId}/people/{personId}", byPerson);
  return { person: ok(result), etag: result.response.headers.get("ETag") };
});
if (read.person.foster?.placedCount !== 0 || read.person.email !== fosterEmail || !read.etag) throw new Error(`getPerson answered ${JSON.stringify(read)}`);
const paused = await step("updatePerson", async () =>
  ok(
    await client.PATCH("/organizations/{organizationId}/people/{personId}", {
      params: { path: { organizationId, personId: person.id }, header: { "If-Match": read.etag! } },
      body: { foster: { status: "paused" }, notes: "Away until spring." },
    }),
  ),
);
if (paused.foster?.status !== "paused" || paused.notes !== "Away until spring.") throw new Error(`updatePerson answered ${JSON.stringify(paused)}`);
await step("erasePerson", async () => ok(await client.DELETE("/organizations/{organizationId}/people/{personId}", byPerson)));
const erased = ok(await client.GET("/organizations/{organizationId}/people/{personId}", byPerson));
if (!erased.erased || erased.name !== null || erased.email !== null) throw new Error(`the erased person answers ${JSON.stringify(erased)}`);

report();
