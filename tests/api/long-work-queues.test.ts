import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createSiteRoute } from "@/app/v1/listing-sites/route";
import { POST as startUploadRoute } from "@/app/v1/listing-sites/[siteId]/uploads/route";
import { PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { db } from "@/lib/db";
import type { Import } from "@/lib/imports/schemas";
import { longWorkQueue } from "@/lib/jobs/queue";
import { queueDailyUploads, scheduleListingUploads } from "@/lib/listings/uploads/schedule";
import { allowPrivateWebhooks, call, clearJobs, expectJson, newKey, newOrganization } from "./helpers";
import { fixture, postImport } from "./imports-helpers";

// Where long work is queued (no worker runs in this file): every import and
// listing upload, however it was asked for (a file posted, "upload now", a
// change to a listed animal, the daily run, a retry), goes in its
// organisation's named queue of long work, which graphile-worker runs one job
// at a time across all instances (docs/decisions/021). Two organisations'
// jobs are never in the same queue.

allowPrivateWebhooks();

interface Org {
  id: number;
  key: string;
  site: number;
  pet: number;
}
const orgs: Org[] = [];

async function jobs(task: string) {
  return db().$queryRaw<{ queue: string | null; payload: Record<string, string> }[]>`
    SELECT q.queue_name AS queue, j.payload FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id
     WHERE t.identifier = ${task} ORDER BY j.id`;
}

beforeAll(async () => {
  for (const name of ["First Queue Shelter", "Second Queue Shelter"]) {
    const id = await newOrganization({ name });
    const { key } = await newKey(["pets:read", "pets:write", "listings:manage"], name, { plan: "pro" }, id);
    const site = await expectJson<{ id: number }>(
      await call(createSiteRoute, "/v1/listing-sites", {
        method: "POST",
        key,
        json: { site: "adoptapet", host: "127.0.0.1", port: 2121, username: "shelter", password: "secret" },
      }),
      201,
    );
    const pet = await db().pet.create({ data: { name: `${name} pet`, categoryId: 1n, organizationId: BigInt(id) } });
    orgs.push({ id, key, site: site.id, pet: Number(pet.id) });
  }
  // Everything before the tests is seen by the change schedule.
  await scheduleListingUploads();
  await clearJobs();
});

afterAll(async () => {
  await clearJobs();
});

describe("each organisation's imports and uploads share its one queue of long work", () => {
  it("an import's job", async () => {
    const [first, second] = orgs as [Org, Org];
    const one = await expectJson<Import>(await postImport({ key: first.key }, fixture("petfinder.csv")), 202);
    const two = await expectJson<Import>(await postImport({ key: second.key }, fixture("petfinder.csv")), 202);
    expect(await jobs("run-import")).toEqual([
      { queue: longWorkQueue(first.id), payload: { importId: String(one.id) } },
      { queue: longWorkQueue(second.id), payload: { importId: String(two.id) } },
    ]);
    await clearJobs();
  });

  it("an upload asked for now, one a change calls for, and the daily run's", async () => {
    const [first, second] = orgs as [Org, Org];
    for (const org of orgs) {
      expect(
        (await call(startUploadRoute, `/v1/listing-sites/${org.site}/uploads`, { method: "POST", key: org.key, params: { siteId: String(org.site) } })).status,
      ).toBe(202);
    }
    const queues = async () => (await jobs("listing-upload")).map((j) => [j.payload.siteId, j.payload.reason, j.queue]);
    expect(await queues()).toEqual([
      [String(first.site), "manual", longWorkQueue(first.id)],
      [String(second.site), "manual", longWorkQueue(second.id)],
    ]);
    await clearJobs();

    for (const org of orgs) {
      const res = await call(patchPetRoute, `/v1/pets/${org.pet}`, {
        method: "PATCH",
        key: org.key,
        params: { petId: String(org.pet) },
        json: { name: "Renamed" },
      });
      expect(res.status).toBe(200);
    }
    expect((await scheduleListingUploads()).uploads).toBe(2);
    expect((await queues()).sort()).toEqual(
      [
        [String(first.site), "change", longWorkQueue(first.id)],
        [String(second.site), "change", longWorkQueue(second.id)],
      ].sort(),
    );
    await clearJobs();

    // One statement over every enabled site: each job still names its own site's organisation.
    expect(await queueDailyUploads()).toBe(2);
    expect((await queues()).sort()).toEqual(
      [
        [String(first.site), "daily", longWorkQueue(first.id)],
        [String(second.site), "daily", longWorkQueue(second.id)],
      ].sort(),
    );
    await clearJobs();
  });
});
