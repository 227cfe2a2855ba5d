import fs from "node:fs";
import { createServer, type Socket } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listSitesRoute, POST as createSiteRoute } from "@/app/v1/listing-sites/route";
import { GET as getSiteRoute, PATCH as patchSiteRoute } from "@/app/v1/listing-sites/[siteId]/route";
import { GET as listUploadsRoute, POST as startUploadRoute } from "@/app/v1/listing-sites/[siteId]/uploads/route";
import { POST as testRoute } from "@/app/v1/listing-sites/test/route";
import { GET as feedRoute } from "@/app/v1/organizations/[organizationId]/listings/[file]/route";
import { PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { db, query } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { parseListingFile } from "@/lib/listings/formats/registry";
import { runUpload } from "@/lib/listings/uploads/run";
import { localExposition } from "@/lib/metrics";
import { queueDailyUploads, scheduleListingUploads } from "@/lib/listings/uploads/schedule";
import type { ListingSiteView, ListingUpload } from "@/lib/listings/uploads/schemas";
import { startFtpServer, type TestFtpServer } from "@/tests/ftp-server";
import { captureLogLines } from "@/tests/log-capture";
import {
  allowPrivateWebhooks,
  call,
  clearJobs,
  expectApiError,
  expectJson,
  FIRST_ORG,
  newKey,
  newOrganization,
  staffSession,
  type StaffSession,
} from "./helpers";

// Listing uploads against a real FTP server (ftp-srv, in this process):
// each site's files byte for byte against tests/fixtures/listings/uploaded/,
// photos as JPEG files sent once, the pull feed equal to the upload, the
// file read back by the import's parser, a refused login without retries,
// retries after 1, 5 and 15 minutes, batching of changes, and the password
// never leaving the database.

const logs = captureLogLines();
allowPrivateWebhooks();

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/listings/uploaded");
/** Set WRITE_LISTING_FIXTURES=1 to write the files again (then read every changed byte before committing). */
const rewrite = process.env.WRITE_LISTING_FIXTURES === "1";
function expectFixture(name: string, bytes: Buffer | null) {
  expect(bytes, `${name} on the server`).not.toBeNull();
  if (rewrite) fs.writeFileSync(path.join(FIXTURES, name), bytes!);
  expect(bytes!.toString("utf8")).toBe(fs.readFileSync(path.join(FIXTURES, name), "utf8"));
}

const PASSWORD = "correct horse battery";
let ftp: TestFtpServer;
let staff: StaffSession;
let reader: string;
let dogId: number;
let catId: number;

async function webp(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
    .webp()
    .toBuffer();
}

async function addPhoto(petId: bigint, position: number, key: string, colour: string) {
  await db().photoFile.create({ data: { key, contentType: "image/webp", bytes: new Uint8Array(await webp(colour)) } });
  await db().petPhoto.create({
    data: { petId, position, width: 40, height: 30, placeholder: "data:,", files: { "320": `small-${key}`, "1280": key }, fileKeys: [key] },
  });
}

beforeAll(async () => {
  vi.stubEnv("PUBLIC_BASE_URL", "https://adopt.shelter.example/v1");
  vi.stubEnv("LISTINGS_FTP_TIMEOUT_SECONDS", "5");
  resetEnvCache();
  ftp = await startFtpServer("shelter", PASSWORD);
  staff = await staffSession();
  ({ key: reader } = await newKey(["pets:read"], "partner", { plan: "pro" }, null));
  const org = BigInt(FIRST_ORG);
  const dog = await db().pet.create({
    data: {
      name: "Zoë",
      categoryId: 1n,
      organizationId: org,
      externalId: "A-101",
      sex: "female",
      size: "large",
      birthDate: new Date("2021-06-15T00:00:00Z"),
      breed: "Labrador Retriever",
      secondaryBreed: "Border Collie",
      mixedBreed: true,
      description: 'Loves tennis balls & naps.\nShy with men at first; "zoomies" at 6pm.',
      goodWithChildren: true,
      goodWithDogs: false,
      colors: ["Black"],
      coatLength: "short",
      spayedNeutered: true,
      houseTrained: true,
      shotsCurrent: true,
      adoptionFeeCents: 15000,
      adoptionFeeCurrency: "USD",
      adoptionFeeWaived: false,
      intakeDate: new Date("2026-03-02T00:00:00Z"),
      tags: ["friendly"],
    },
  });
  dogId = Number(dog.id);
  await addPhoto(dog.id, 0, "dog-cover.webp", "#884422");
  await addPhoto(dog.id, 1, "dog-second.webp", "#224488");
  const cat = await db().pet.create({
    data: { name: "Mr. Pickles", categoryId: 2n, organizationId: org, sex: "male", size: "medium", breed: "Domestic Short Hair" },
  });
  catId = Number(cat.id);
  // Pending: Petfinder only (as H). Sold, and switched off: nowhere. Another organisation's: never.
  await db().pet.create({ data: { name: "Thumper", categoryId: 3n, organizationId: org, status: "pending", externalId: "R-7", sex: "male" } });
  await db().pet.create({ data: { name: "Gone Home", categoryId: 1n, organizationId: org, status: "sold", externalId: "A-1" } });
  await db().pet.create({ data: { name: "Not Listed", categoryId: 1n, organizationId: org, listOnOtherSites: false } });
  await db().pet.create({ data: { name: "Dorgi Dan", categoryId: 1n, organizationId: org, externalId: "A-102", breed: "Dorgi", sex: "male", size: "small" } });
  const other = await newOrganization({ name: "Other Rescue" });
  await db().pet.create({ data: { name: "Elsewhere", categoryId: 1n, organizationId: BigInt(other) } });
});

afterAll(async () => {
  await ftp.close();
  vi.unstubAllEnvs();
  resetEnvCache();
});

async function addSite(json: Record<string, unknown>, headers = staff.headers): Promise<ListingSiteView> {
  const res = await call(createSiteRoute, "/v1/listing-sites", {
    method: "POST",
    headers,
    json: { host: ftp.host, port: ftp.port, username: ftp.username, password: PASSWORD, ...json },
  });
  return expectJson<ListingSiteView>(res, 201);
}

async function uploadNow(site: ListingSiteView): Promise<ListingUpload> {
  const res = await call(startUploadRoute, `/v1/listing-sites/${site.id}/uploads`, {
    method: "POST",
    headers: staff.headers,
    params: { siteId: String(site.id) },
  });
  const queued = await expectJson<ListingUpload>(res, 202);
  expect(queued).toMatchObject({ reason: "manual", outcome: "running", finishedAt: null });
  // The job the request queued, taken off the queue and run here (no worker runs in this file).
  const taken = await query<{ payload: Record<string, unknown> }>(
    Prisma.sql`DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'listing-upload') AND payload->>'uploadId' = ${String(queued.id)} RETURNING payload`,
  );
  expect(taken.map((t) => t.payload)).toEqual([{ siteId: String(site.id), reason: "manual", retry: 0, uploadId: String(queued.id) }]);
  await runUpload({ siteId: String(site.id), reason: "manual", uploadId: String(queued.id) });
  const list = await expectJson<ListingUpload[]>(
    await call(listUploadsRoute, `/v1/listing-sites/${site.id}/uploads`, { headers: staff.headers, params: { siteId: String(site.id) } }),
  );
  expect(list[0]!.id).toBe(queued.id);
  return list[0]!;
}

/** The site's upload jobs, each in its organisation's queue of long work (one of its imports or uploads at a time: lib/jobs/queue.ts). */
async function jobsOf(siteId: number) {
  return query<{ key: string; run_at: Date; payload: Record<string, unknown> }>(
    Prisma.sql`SELECT j.key, j.run_at, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id
                WHERE q.queue_name = (SELECT 'long-work-org-' || organization_id FROM listing_sites WHERE id = ${BigInt(siteId)})
                  AND j.payload->>'siteId' = ${String(siteId)} ORDER BY j.id`,
  );
}

let petfinder: ListingSiteView;
let adoptapet: ListingSiteView;
let rescuegroups: ListingSiteView;

describe("listing sites", () => {
  it("adds a site: 201 without the password, which is stored sealed", async () => {
    petfinder = await addSite({ site: "petfinder", accountId: "CA1234" });
    expect(petfinder).toMatchObject({
      site: "petfinder",
      host: "127.0.0.1",
      port: ftp.port,
      secure: false,
      username: "shelter",
      accountId: "CA1234",
      enabled: true,
      lastUpload: null,
    });
    expect(petfinder).not.toHaveProperty("password");
    const stored = await db().listingSite.findUniqueOrThrow({ where: { id: BigInt(petfinder.id) } });
    expect(stored.password).not.toContain(PASSWORD);
    expect(stored.password).toMatch(/^ftp1\./);
    const list = await call(listSitesRoute, "/v1/listing-sites", { headers: staff.headers });
    const text = await list.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(stored.password);
    adoptapet = await addSite({ site: "adoptapet" });
    rescuegroups = await addSite({ site: "rescuegroups", accountId: "5678" });
  });

  it("refuses what cannot work: no account id for Petfinder, one for Adopt-a-Pet, a private host without WEBHOOK_ALLOW_PRIVATE, unknown fields", async () => {
    const post = (json: unknown) => call(createSiteRoute, "/v1/listing-sites", { method: "POST", headers: staff.headers, json });
    await expectApiError(await post({ site: "petfinder", username: "u", password: "p" }), 400, "invalid_body");
    await expectApiError(await post({ site: "adoptapet", username: "u", password: "p", accountId: "X" }), 400, "invalid_body");
    await expectApiError(await post({ site: "adoptapet", username: "u", password: "p", colour: "red" }), 400, "invalid_body");
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
    resetEnvCache();
    try {
      await expectApiError(await post({ site: "adoptapet", host: "10.0.0.5", username: "u", password: "p" }), 400, "invalid_listing_host");
    } finally {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
      resetEnvCache();
    }
  });

  it("tests a connection: lists the folder with the right password, a refused login (in our words) with a wrong one", async () => {
    const ok = await expectJson<{ ok: boolean; entries: string[]; error: string | null }>(
      await call(testRoute, "/v1/listing-sites/test", {
        method: "POST",
        headers: staff.headers,
        json: { site: "adoptapet", host: ftp.host, port: ftp.port, username: "shelter", password: PASSWORD },
      }),
    );
    expect(ok).toEqual({ ok: true, entries: expect.any(Array), error: null });
    const wrong = await expectJson<{ ok: boolean; error: string }>(
      await call(testRoute, "/v1/listing-sites/test", {
        method: "POST",
        headers: staff.headers,
        json: { site: "adoptapet", host: ftp.host, port: ftp.port, username: "shelter", password: "nope" },
      }),
    );
    expect(wrong.ok).toBe(false);
    expect(wrong.error).toBe("Login refused: check the user name and password.");
  });

  it("uploads each site's files, byte for byte as each site documents them, photos as JPEG files", async () => {
    const sent = await uploadNow(petfinder);
    expect(sent).toMatchObject({ outcome: "sent", animals: 4, photos: 0, error: null });
    // Dorgi is no breed Petfinder knows: sent as its mixed breed, and said.
    expect(sent.warnings).toContainEqual(expect.objectContaining({ rowId: "A-102", field: "breed", message: expect.stringMatching(/Dorgi/) }));
    expectFixture("petfinder-import-CA1234", ftp.read("import/CA1234"));
    const text = ftp.read("import/CA1234")!.toString();
    expect(text).toContain("https://adopt.shelter.example/photos/dog-cover.webp");
    expect(text).not.toContain("Gone Home");
    expect(text).not.toContain("Not Listed");
    expect(text).not.toContain("Elsewhere");

    const aap = await uploadNow(adoptapet);
    expect(aap).toMatchObject({ outcome: "sent", animals: 3, photos: 2 });
    expectFixture("adoptapet-pets.csv", ftp.read("pets.csv"));
    expectFixture("adoptapet-import.cfg", ftp.read("import.cfg"));
    const jpeg = ftp.read("photos/A-101-1.jpg")!;
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect((await sharp(jpeg).metadata()).format).toBe("jpeg");
    expect(ftp.read("photos/A-101-2.jpg")).not.toBeNull();

    const rg = await uploadNow(rescuegroups);
    expect(rg).toMatchObject({ outcome: "sent", animals: 3, photos: 2 });
    expectFixture("rescuegroups-import-pets.csv", ftp.read("import/pets.csv"));
    expect(ftp.read("import/pictures/A-101-1.jpg")).not.toBeNull();
    // Nothing left under a temporary name.
    expect(ftp.files().filter((f) => f.endsWith(".uploading"))).toEqual([]);
  });

  it("does not send an unchanged photo again", async () => {
    const again = await uploadNow(adoptapet);
    expect(again).toMatchObject({ outcome: "sent", photos: 0 });
    const site = await expectJson<ListingSiteView>(
      await call(getSiteRoute, `/v1/listing-sites/${adoptapet.id}`, { headers: staff.headers, params: { siteId: String(adoptapet.id) } }),
    );
    expect(site.lastUpload?.id).toBe(again.id);
    expect(site.lastSentAt).not.toBeNull();
  });

  it("serves the same bytes as the pull feed, with an ETag and 304", async () => {
    for (const [site, remote] of [
      ["petfinder", "import/CA1234"],
      ["adoptapet", "pets.csv"],
      ["rescuegroups", "import/pets.csv"],
    ] as const) {
      const params = { organizationId: String(FIRST_ORG), file: `${site}.csv` };
      const res = await call(feedRoute, `/v1/organizations/${FIRST_ORG}/listings/${site}.csv`, { key: reader, params });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(Buffer.from(await res.arrayBuffer()).equals(ftp.read(remote)!)).toBe(true);
      const etag = res.headers.get("etag")!;
      const again = await call(feedRoute, `/v1/organizations/${FIRST_ORG}/listings/${site}.csv`, { key: reader, params, headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
    await expectApiError(
      await call(feedRoute, "/v1/organizations/1/listings/x.csv", { key: reader, params: { organizationId: "1", file: "x.csv" } }),
      400,
      "invalid_path",
    );
  });

  it("reads back through the import with nothing lost that each format carries", async () => {
    const categories = (await db().category.findMany()).map((c) => ({ id: Number(c.id), name: c.name }));
    const dogOf = async (bytes: Buffer) => (await parseListingFile(bytes, { categories })).rows.find((r) => r.externalId === "A-101")!;
    const pf = await dogOf(ftp.read("import/CA1234")!);
    expect(pf.errors).toEqual([]);
    expect(pf.fields).toMatchObject({
      name: "Zoë",
      categoryId: 1,
      status: "available",
      sex: "female",
      size: "large",
      birthDate: "2021-06-15",
      breed: "Labrador Retriever",
      secondaryBreed: "Border Collie",
      mixedBreed: true,
      description: 'Loves tennis balls & naps.\nShy with men at first; "zoomies" at 6pm.',
      goodWith: { children: true, dogs: false, cats: null },
      colors: ["Black"],
      coatLength: "short",
      spayedNeutered: true,
      houseTrained: true,
      shotsCurrent: true,
      adoptionFee: { amountCents: 15000, currency: "USD", waived: false },
      intakeDate: "2026-03-02",
      tags: ["friendly"],
    });
    expect(pf.photoUrls).toEqual(["https://adopt.shelter.example/photos/dog-cover.webp", "https://adopt.shelter.example/photos/dog-second.webp"]);
    const aap = await dogOf(ftp.read("pets.csv")!);
    expect(aap.fields).toMatchObject({
      name: "Zoë",
      categoryId: 1,
      sex: "female",
      size: "large",
      mixedBreed: true,
      colors: ["Black"],
      spayedNeutered: true,
      houseTrained: true,
    });
    const rg = await dogOf(ftp.read("import/pets.csv")!);
    expect(rg.fields).toMatchObject({
      name: "Zoë",
      categoryId: 1,
      sex: "female",
      size: "large",
      breed: "Labrador Retriever",
      colors: ["Black"],
      coatLength: "short",
    });
  });

  it("a wrong password fails with the server's answer, is not retried, and appears in no answer or log line", async () => {
    await clearJobs();
    const from = logs.lines.length;
    const wrongPassword = "hunter2-wrong-password";
    const site = await addSite({ site: "adoptapet", password: wrongPassword });
    const failed = await uploadNow(site);
    expect(failed.outcome).toBe("failed");
    expect(failed.error).toMatch(/^530 Login incorrect/);
    expect(await jobsOf(site.id)).toEqual([]);
    const answers = JSON.stringify([
      failed,
      await (await call(getSiteRoute, `/v1/listing-sites/${site.id}`, { headers: staff.headers, params: { siteId: String(site.id) } })).json(),
    ]);
    expect(answers).not.toContain(wrongPassword);
    const lines = logs.since(from);
    expect(lines.some((l) => l.includes("listing upload failed"))).toBe(true);
    expect(lines.join("\n")).not.toContain(wrongPassword);
    // A new password (PATCH) makes the next upload work.
    await expectJson(
      await call(patchSiteRoute, `/v1/listing-sites/${site.id}`, {
        method: "PATCH",
        headers: staff.headers,
        params: { siteId: String(site.id) },
        json: { password: PASSWORD },
      }),
    );
    expect((await uploadNow(site)).outcome).toBe("sent");
    await db().listingSite.delete({ where: { id: BigInt(site.id) } });
  });

  it("retries a failed upload after 1, 5 and 15 minutes, then waits for the next change", async () => {
    await clearJobs();
    const closed = await startFtpServer();
    await closed.close();
    const site = await addSite({ site: "adoptapet", port: closed.port });
    const first = await uploadNow(site);
    expect(first.outcome).toBe("failed");
    expect(first.error).toMatch(/ECONNREFUSED/);
    for (const [i, seconds] of [60, 300, 900].entries()) {
      const [job] = await jobsOf(site.id);
      expect(job, `retry ${i + 1}`).toBeDefined();
      expect(job!.key).toBe(`listing-retry-${site.id}`);
      const wait = (job!.run_at.getTime() - Date.now()) / 1000;
      expect(wait).toBeGreaterThan(seconds - 10);
      expect(wait).toBeLessThanOrEqual(seconds + 1);
      expect(job!.payload).toMatchObject({ retry: i + 1 });
      await clearJobs();
      await runUpload(job!.payload as never);
    }
    expect(await jobsOf(site.id)).toEqual([]);
    const uploads = await db().listingUpload.count({ where: { siteId: BigInt(site.id) } });
    expect(uploads).toBe(4);
    await db().listingSite.delete({ where: { id: BigInt(site.id) } });
  });

  it("gives up on a server that never answers after LISTINGS_FTP_TIMEOUT_SECONDS, and retries later", async () => {
    await clearJobs();
    const sockets: Socket[] = [];
    // Accepts connections and says nothing: no greeting, so no login ever.
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    vi.stubEnv("LISTINGS_FTP_TIMEOUT_SECONDS", "1");
    resetEnvCache();
    try {
      const site = await addSite({ site: "adoptapet", port: (silent.address() as { port: number }).port });
      const began = Date.now();
      const failed = await uploadNow(site);
      expect(Date.now() - began).toBeLessThan(5_000);
      expect(failed.outcome).toBe("failed");
      expect(failed.error).toMatch(/[Tt]imeout|took longer than 1 s/);
      expect((await jobsOf(site.id)).map((j) => j.key)).toEqual([`listing-retry-${site.id}`]);
      await db().listingSite.delete({ where: { id: BigInt(site.id) } });
    } finally {
      vi.stubEnv("LISTINGS_FTP_TIMEOUT_SECONDS", "5");
      resetEnvCache();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await clearJobs();
    }
  });

  it("a change to a listed animal queues one upload per enabled site after the delay; changes join it; others queue nothing", async () => {
    await clearJobs();
    vi.stubEnv("LISTINGS_DELAY_SECONDS", "60");
    resetEnvCache();
    await scheduleListingUploads(); // Everything before this test is seen.
    const off = await addSite({ site: "rescuegroups", accountId: "9", enabled: false });
    // An unlisted animal's change concerns no site.
    const unlisted = await db().pet.findFirstOrThrow({ where: { name: "Not Listed" } });
    const patch = (id: number | bigint, json: unknown) =>
      call(patchPetRoute, `/v1/pets/${id}`, { method: "PATCH", headers: staff.headers, params: { petId: String(id) }, json });
    expect((await patch(unlisted.id, { name: "Still Not Listed" })).status).toBe(200);
    expect((await scheduleListingUploads()).uploads).toBe(0);
    expect((await patch(catId, { name: "Mr. Pickles II" })).status).toBe(200);
    expect((await scheduleListingUploads()).uploads).toBe(3);
    const [job] = await jobsOf(petfinder.id);
    const wait = (job!.run_at.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(50);
    // A second change within the quiet period joins the same upload: same job, same time.
    expect((await patch(dogId, { name: "Zoë B." })).status).toBe(200);
    await scheduleListingUploads();
    const jobs = await jobsOf(petfinder.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.run_at.getTime()).toBe(job!.run_at.getTime());
    expect(await jobsOf(off.id)).toEqual([]);
    // Taking an animal off the sites concerns them too.
    await clearJobs();
    expect((await patch(dogId, { listOnOtherSites: false })).status).toBe(200);
    expect((await scheduleListingUploads()).uploads).toBe(3);
    expect((await patch(dogId, { listOnOtherSites: true, name: "Zoë" })).status).toBe(200);
    await scheduleListingUploads();
    await clearJobs();
    // The daily run queues every enabled site.
    expect(await queueDailyUploads()).toBe(3);
    expect((await jobsOf(adoptapet.id)).map((j) => j.key)).toEqual([`listing-daily-${adoptapet.id}`]);
    await clearJobs();
    await db().listingSite.delete({ where: { id: BigInt(off.id) } });
  });

  it("counts uploads by site kind and outcome, and the oldest success per kind, with no organisation, account or password in a label", async () => {
    const text = await localExposition();
    const sent = /^petstore_listing_uploads_total\{site="petfinder",outcome="sent"\} (\d+)/m.exec(text);
    expect(Number(sent?.[1])).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^petstore_listing_uploads_total\{site="adoptapet",outcome="failed"\} [1-9]/m);
    expect(text).toMatch(/^petstore_listing_oldest_success_age_seconds\{site="adoptapet"\} \d/m);
    const lines = text.split("\n").filter((l) => l.startsWith("petstore_listing_"));
    expect(lines.join("\n")).not.toMatch(/organization|CA1234|shelter"|correct horse|hunter2/);
  });
});
