import { spawn, type ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { until } from "@/tests/wait";
import { db } from "@/lib/db";
import { recoverStalledImports } from "@/lib/imports/recovery";
import { recoverStalledUploads } from "@/lib/listings/uploads/recovery";
import type { Import } from "@/lib/imports/schemas";
import { expectJson, newKey, newOrganization } from "./helpers";
import { postImport, readIssues } from "./imports-helpers";

// After a crash (issue 48): a process killed while it runs an import left the
// import "running" and its job, with the organisation's queue of long work,
// locked by a worker that no longer exists, for the queue's four hours. The
// run's lease (IMPORT_LEASE_SECONDS, 60 s; a few here) says nobody runs it
// any more; the recovery pass (every minute, lib/imports/recovery.ts) then
// hands the job back, or marks the import failed when nothing will run it.

/** The lease of the killed worker's run: short, so that the test is quick. */
const LEASE_SECONDS = 4;

function worker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/worker-process.ts"], {
    env: { ...process.env, IMPORT_LEASE_SECONDS: String(LEASE_SECONDS), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

const importRow = (id: number) =>
  db()
    .import.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { status: true, counts: true, leaseExpiresAt: true } })
    .then((r) => ({ ...r, counts: r.counts as { created: number; unchanged: number } }));
const jobOf = async (id: number) =>
  (
    await db().$queryRaw<{ id: bigint; locked_by: string | null; queue_locked_by: string | null }[]>`
      SELECT j.id, j.locked_by, q.locked_by AS queue_locked_by FROM graphile_worker._private_jobs j
        LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id WHERE j.key = ${`import-${id}`}`
  )[0];

const MAPPING = JSON.stringify({ externalId: "ID", name: "Name", species: "Kind" });

describe("a process killed during long work", () => {
  it("its import runs again in another worker once the lease is out and the recovery has passed, and finishes: each animal once", async () => {
    const org = await newOrganization({ name: "Crash Rescue" });
    const { key } = await newKey(["pets:read", "pets:write"], "crash", { plan: "pro" }, org);
    const rows = 2_000;
    const file = ["ID,Name,Kind", ...Array.from({ length: rows }, (_, i) => `K-${i},Kit ${i},CAT`), ""].join("\r\n");
    const queued = await expectJson<Import>(await postImport({ key }, file, { mapping: MAPPING }), 202);

    const first = worker();
    try {
      // Some chunks saved, not all: then the process dies, without a word.
      await until(
        "the first worker to have saved some chunks",
        async () => {
          const row = await importRow(queued.id);
          return row.status === "running" && row.counts.created > 0;
        },
        60_000,
      );
      first.kill("SIGKILL");
      await exited(first);
    } finally {
      first.kill("SIGKILL");
    }
    const left = await importRow(queued.id);
    expect(left.status).toBe("running");
    expect(left.counts.created).toBeLessThan(rows);
    const held = await jobOf(queued.id);
    expect(held?.locked_by).toBeTruthy();
    expect(held?.queue_locked_by).toBe(held?.locked_by);

    // While the lease holds, the run may only be slow: nothing is taken from it.
    expect(await recoverStalledImports()).toEqual({ resumed: [], failed: [] });
    expect((await jobOf(queued.id))?.locked_by).toBe(held!.locked_by);

    await until("the first run's lease to run out", async () => (await importRow(queued.id)).leaseExpiresAt! < new Date(), 60_000);
    expect(await recoverStalledImports()).toEqual({ resumed: [queued.id], failed: [] });
    expect(await jobOf(queued.id)).toMatchObject({ locked_by: null, queue_locked_by: null });

    const second = worker();
    try {
      await until("the second worker to finish the import", async () => (await importRow(queued.id)).status === "done", 60_000);
    } finally {
      second.kill("SIGTERM");
      await exited(second);
    }
    const done = await importRow(queued.id);
    // The second run started over: what the first made is found unchanged.
    expect(done.counts.created + done.counts.unchanged).toBe(rows);
    expect(done.counts.unchanged).toBe(left.counts.created);
    const [animals] = await db().$queryRaw<{ n: number; ids: number }[]>`
      SELECT count(*)::int AS n, count(DISTINCT external_id)::int AS ids FROM pets WHERE organization_id = ${BigInt(org)}`;
    expect(animals).toEqual({ n: rows, ids: rows });
  }, 120_000);

  it("an import nothing will run again (its job out of attempts) is marked failed, saying so; the organisation can import again", async () => {
    const org = await newOrganization({ name: "Stuck Rescue" });
    const { key } = await newKey(["pets:read", "pets:write"], "stuck", { plan: "pro" }, org);
    const queued = await expectJson<Import>(await postImport({ key }, "ID,Name,Kind\r\nX-1,Ash,DOG\r\n", { mapping: MAPPING }), 202);
    // As the job's last attempt leaves it: failed for good, the import still "running" under an expired lease.
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET attempts = max_attempts WHERE key = ${`import-${queued.id}`}`;
    await db()
      .$executeRaw`UPDATE imports SET status = 'running', lease_owner = 'gone#1', lease_expires_at = now() - interval '1 second' WHERE id = ${BigInt(queued.id)}`;

    expect(await recoverStalledImports()).toEqual({ resumed: [], failed: [queued.id] });
    expect((await importRow(queued.id)).status).toBe("failed");
    expect(await readIssues({ key }, queued.id)).toEqual([
      { line: 0, field: null, message: expect.stringContaining("The import stopped without finishing"), result: "refused" },
    ]);
    expect((await postImport({ key }, "ID,Name,Kind\r\nX-2,Bay,DOG\r\n", { mapping: MAPPING })).status).toBe(202);
  });

  it("a listing upload left running past its deadline: its dead worker's job is let go, and an upload nothing will run again is marked failed", async () => {
    const org = await newOrganization({ name: "Upload Rescue" });
    const site = await db().listingSite.create({
      data: { organizationId: BigInt(org), site: "petfinder", host: "ftp.example.org", username: "shelter", password: "sealed" },
      select: { id: true },
    });
    const longAgo = new Date(Date.now() - 2 * 3_600_000);
    const orphan = await db().listingUpload.create({ data: { siteId: site.id, reason: "change", startedAt: longAgo }, select: { id: true } });
    const waiting = await db().listingUpload.create({ data: { siteId: site.id, reason: "manual", startedAt: longAgo }, select: { id: true } });
    const recent = await db().listingUpload.create({ data: { siteId: site.id, reason: "change" }, select: { id: true } });
    // The manual upload's job, taken two hours ago by a worker whose process is gone.
    await db()
      .$executeRaw`SELECT graphile_worker.add_job('listing-upload', json_build_object('siteId', ${String(site.id)}::text, 'reason', 'manual', 'uploadId', ${String(waiting.id)}::text),
                                  queue_name := ${`long-work-org-${org}`}, job_key := ${`listing-manual-${site.id}`})`;
    await db()
      .$executeRaw`UPDATE graphile_worker._private_jobs SET locked_at = ${longAgo}, locked_by = 'worker-gone' WHERE key = ${`listing-manual-${site.id}`}`;
    await db()
      .$executeRaw`UPDATE graphile_worker._private_job_queues SET locked_at = ${longAgo}, locked_by = 'worker-gone' WHERE queue_name = ${`long-work-org-${org}`}`;

    expect(await recoverStalledUploads()).toEqual({ unlocked: 1, failed: 1 });
    const outcomes = await db().listingUpload.findMany({
      where: { siteId: site.id },
      orderBy: { id: "asc" },
      select: { id: true, outcome: true, error: true },
    });
    expect(outcomes).toEqual([
      { id: orphan.id, outcome: "failed", error: expect.stringContaining("The upload stopped without an outcome") },
      // Its job runs it again, now that the dead worker's lock is gone.
      { id: waiting.id, outcome: "running", error: null },
      { id: recent.id, outcome: "running", error: null },
    ]);
    const [job] = await db().$queryRaw<{ locked_by: string | null; queue_locked_by: string | null }[]>`
      SELECT j.locked_by, q.locked_by AS queue_locked_by FROM graphile_worker._private_jobs j JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id
       WHERE j.key = ${`listing-manual-${site.id}`}`;
    expect(job).toEqual({ locked_by: null, queue_locked_by: null });
  });
});
