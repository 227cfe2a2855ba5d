import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createSiteRoute } from "@/app/v1/listing-sites/route";
import { POST as startUploadRoute } from "@/app/v1/listing-sites/[siteId]/uploads/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { db } from "@/lib/db";
import type { Import } from "@/lib/imports/schemas";
import { LONG_WORK_CONCURRENCY, startBackgroundWork, WORKER_CONCURRENCY, type BackgroundWork } from "@/lib/worker/runner";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { metrics } from "@/lib/metrics";
import type { Pet } from "@/lib/pets/schemas/pet";
import { startSilentFtpServer, type SilentFtpServer } from "@/tests/silent-ftp-server";
import { mailingInstance } from "@/tests/mail-server";
import { eventOf, startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { postImport } from "./imports-helpers";
import { allowPrivateWebhooks, call, createPet, expectJson, newKey, newOrganization } from "./helpers";
import { until as waitUntil } from "@/tests/wait";

// One organisation's long work (imports, listing uploads) never takes the
// job worker's slots from everyone else (issue 40). Two instances' background
// work (startBackgroundWork, as every server runs it) against:
// - a busy shelter: 10 listing-site accounts (its most) on an FTP server that accepts
//   connections and never answers, each asked to upload now, and an import
//   whose photo addresses never answer either: far more long jobs than an
//   instance has slots, each holding its slot for minutes;
// - seven more shelters, each with one such account: more long work at once
//   than the instances give long work;
// - a quiet shelter: its webhook and an adopter's email must arrive while all
//   of that still hangs.
// Then: the quiet shelter's webhook and mail arrived; the busy shelter never
// held more than one slot across both instances; long work never held more
// than its share of each instance's slots; and none of the hanging work had
// ended (it was all still busy when the webhook arrived).

allowPrivateWebhooks();

const INSTANCES = 2;
// At most 10 accounts per organisation: the busy shelter has them all.
const BUSY_SITES = 10;
const OTHER_BUSY_SHELTERS = 7;

let ftp: SilentFtpServer;
let photos: Receiver;
let receiver: Receiver;
// The silent server holds each upload until the test ends (far longer than the test waits for anything).
const mail = mailingInstance({ LISTINGS_FTP_TIMEOUT_SECONDS: "600", LISTINGS_UPLOAD_TIMEOUT_SECONDS: "3600" });
const works: BackgroundWork[] = [];
let busyOrg: number;
const busySites: number[] = [];
let busyImport: number;
let quietKey: string;
let partnerKey: string;

const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>) => waitUntil(what, probe, 30_000);

/** A Petfinder file of `rows` animals, each with four photo addresses on `base` (which never answers). */
function fileWithHangingPhotos(rows: number, base: string): Buffer {
  const lines = [PETFINDER_COLUMNS.join(",")];
  for (let i = 0; i < rows; i++) {
    const cells: Record<string, string> = {
      ID: `SLOW-${i}`,
      AnimalName: `Slow ${i}`,
      Type: "Dog",
      PrimaryBreed: "Labrador Retriever",
      Sex: "M",
      Size: "M",
      Age: "Adult",
      Status: "A",
    };
    for (let n = 1; n <= 4; n++) cells[`photo${n}`] = `${base}/slow-${i}-${n}.jpg`;
    lines.push(PETFINDER_COLUMNS.map((c) => `"${cells[c] ?? ""}"`).join(","));
  }
  return Buffer.from(lines.join("\r\n") + "\r\n");
}

/** Adds an Adopt-a-Pet account on the silent server for the key's organisation and asks for an upload now. */
async function hangingUpload(key: string): Promise<number> {
  const site = await expectJson<{ id: number }>(
    await call(createSiteRoute, "/v1/listing-sites", {
      method: "POST",
      key,
      json: { site: "adoptapet", host: ftp.host, port: ftp.port, username: "shelter", password: "never checked" },
    }),
    201,
  );
  expect((await call(startUploadRoute, `/v1/listing-sites/${site.id}/uploads`, { method: "POST", key, params: { siteId: String(site.id) } })).status).toBe(202);
  return site.id;
}

interface Sample {
  /** The busy shelter's long jobs held by a worker right now (any instance). */
  busyHeld: number;
  /** Long jobs (imports, uploads) held right now, whoever's. */
  longHeld: number;
}

async function sample(): Promise<Sample> {
  const [row] = await db().$queryRaw<Sample[]>`
    SELECT count(*) FILTER (WHERE (t.identifier = 'listing-upload' AND j.payload->>'siteId' = ANY(${busySites.map(String)}::text[]))
                               OR (t.identifier = 'run-import' AND j.payload->>'importId' = ${String(busyImport)}))::int AS "busyHeld",
           count(*)::int AS "longHeld"
      FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE j.locked_at IS NOT NULL AND t.identifier IN ('listing-upload', 'run-import')`;
  return row!;
}

beforeAll(async () => {
  ftp = await startSilentFtpServer();
  photos = await startReceiver("/photos");
  photos.fallback = "hang";
  receiver = await startReceiver();

  busyOrg = await newOrganization({ name: "Busy Shelter" });
  const { key: busyKey } = await newKey(["pets:read", "pets:write", "listings:manage"], "busy shelter", { plan: "pro" }, busyOrg);
  for (let i = 0; i < BUSY_SITES; i++) busySites.push(await hangingUpload(busyKey));
  const queued = await expectJson<Import>(await postImport({ key: busyKey }, fileWithHangingPhotos(15, `http://127.0.0.1:${photos.port}/photos`)), 202);
  busyImport = queued.id;
  for (let i = 0; i < OTHER_BUSY_SHELTERS; i++) {
    const org = await newOrganization({ name: `Also Busy ${i}` });
    await hangingUpload((await newKey(["listings:manage"], `also busy ${i}`, { plan: "pro" }, org)).key);
  }

  const quietOrg = await newOrganization({ name: "Quiet Shelter" });
  ({ key: quietKey } = await newKey(["pets:read", "pets:write", "webhooks:manage"], "quiet shelter", { plan: "pro" }, quietOrg));
  ({ key: partnerKey } = await newKey(["pets:read", "applications:write"], "listing site", { plan: "pro" }, null));
  await expectJson(
    await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key: quietKey, json: { url: receiver.url, events: ["pet.created"] } }),
    201,
  );

  for (let i = 0; i < INSTANCES; i++) works.push(startBackgroundWork());
}, 120_000);

afterAll(async () => {
  // The hanging servers go first: the work still waiting on them fails at once, so the instances stop promptly.
  await ftp?.close();
  await photos?.close();
  await Promise.all(works.map((w) => w.stop()));
  await receiver?.close();
}, 120_000);

describe("long work while one shelter's uploads and import hang", () => {
  it("another shelter's webhook and email arrive; the busy shelter holds one slot across the cluster; long work holds its share of each instance", async () => {
    const samples: Sample[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(await sample());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      // The hanging work has the slots it can get before the quiet shelter does anything.
      await until(
        "the busy shelter's work to start",
        async () => ftp.open() > 0 || (await db().import.count({ where: { id: BigInt(busyImport), status: "running" } })) > 0,
      );
      // Workers take jobs one fetch at a time: wait until long work holds all it is going to (the count unchanged for 3 s).
      let held = -1;
      let since = Date.now();
      await until("long work to take every slot it may", async () => {
        const now = (await sample()).longHeld;
        if (now !== held) [held, since] = [now, Date.now()];
        return held > 0 && Date.now() - since >= 3_000;
      });

      const pet = await createPet({ name: "Not Kept Waiting" }, { key: quietKey });
      const delivered = await receiver.waitFor((r) => (eventOf(r).data.pet as Pet | undefined)?.id === pet.id, 30_000);
      expect(eventOf(delivered).type).toBe("pet.created");
      const applied = await call(applyRoute, `/v1/pets/${pet.id}/applications`, {
        method: "POST",
        key: partnerKey,
        params: { petId: String(pet.id) },
        json: { name: "Sam Quiet", email: "sam@example.org", home: "house", message: "Hello.", consent: true },
      });
      expect(applied.status).toBe(201);
      await mail.waitFor("sam@example.org", /We received your application for Not Kept Waiting/, 30_000);

      // All of it while the long work still hung: no upload of the silent server has ended, and it still holds connections.
      const ended = await db().listingUpload.count({ where: { finishedAt: { not: null } } });
      expect(ended).toBe(0);
      expect(ftp.open()).toBeGreaterThan(0);
      expect(ftp.open()).toBe(ftp.accepted());

      // The metric says the same: each instance's slots, and long work busy in its own.
      const slots = Object.fromEntries((await metrics().jobSlots.get()).values.map((v) => [`${v.labels.pool}/${v.labels.state}`, v.value]));
      expect(slots).toMatchObject({ "general/size": INSTANCES * WORKER_CONCURRENCY, "long/size": INSTANCES * LONG_WORK_CONCURRENCY });
      expect(slots["long/busy"]).toBeGreaterThan(0);
      expect(slots["long/busy"]).toBeLessThanOrEqual(INSTANCES * LONG_WORK_CONCURRENCY);
    } finally {
      sampling = false;
      await sampler;
    }
    samples.push(await sample());
    // The busy shelter's 11 jobs ran one at a time across both instances (its named queue), and long work as a whole
    // never had more than its slots on each instance, though eight shelters had long work waiting.
    expect(Math.max(...samples.map((s) => s.busyHeld))).toBe(1);
    expect(Math.max(...samples.map((s) => s.longHeld))).toBeLessThanOrEqual(INSTANCES * LONG_WORK_CONCURRENCY);
    // ...and the other shelters' long work went on beside the busy one's.
    expect(Math.max(...samples.map((s) => s.longHeld - s.busyHeld))).toBeGreaterThan(0);
  }, 120_000);
});
