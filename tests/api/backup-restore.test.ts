import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Logger, runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as feedRoute } from "@/app/v1/events/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { db, disconnectDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import type { PetChangeEvent as PetEvent } from "@/lib/events/schemas";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { taskList } from "@/lib/worker/tasks";
import { stopKeyCache } from "@/lib/keys/cache";
import { attemptDeliveries } from "@/lib/webhooks/delivery";
import { dispatchEvents, requeueDueDeliveries } from "@/lib/webhooks/dispatch";
import { createDatabaseIfMissing, dropDatabase, withDatabaseName } from "@/scripts/database";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { call, createPet, expectApiError, expectJson, newKey, allowPrivateWebhooks } from "./helpers";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// The restore drill of docs/deploy.md ("Backups and restore"), on the real
// PostgreSQL with the real pg_dump and pg_restore: dump the live database,
// let it go on for a while (an event delivered after the dump, which the
// restore loses), restore the dump into a fresh database and point the app
// at it. What it shows:
// - the feed goes on after the dump's last position (the position sequence,
//   events_position_seq, is in the dump with its value);
// - nothing delivered before the dump is sent again, by dispatch, by the
//   retry sweep, or by the job queue: graphile-worker's jobs live in the
//   graphile_worker schema of the same database, so the dump brings back the
//   jobs that were queued when it was taken, and they are run here as an
//   instance would run them;
// - the sequence restarts at the dump's value, so the next position is one a
//   partner already got from the lost event: the drill's setval step moves it
//   past, and the new event then gets a fresh id that partners' cursors reach.

// The server's own major version (15): pg_dump must be at least as new as the
// server, and /usr/bin/pg_dump is Debian's wrapper picking whichever it finds.
const BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const hasClientTools = fs.existsSync(path.join(BIN, "pg_dump")) && fs.existsSync(path.join(BIN, "pg_restore"));
const pgTool = (name: string, args: string[]) => execFileSync(path.join(BIN, name), args, { stdio: ["ignore", "pipe", "pipe"] });

let receiver: Receiver;
let key: string;
let original: string;
let restored: string;
let dir: string;

beforeAll(async () => {
  original = process.env.DATABASE_URL!;
  restored = withDatabaseName(original, `petstore_restore_${process.pid}`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-dump-"));
  receiver = await startReceiver();
  ({ key } = await newKey(["pets:read", "pets:write", "webhooks:manage"], "mirroring partner"));
});

afterAll(async () => {
  // Back to the run's database (tests/setup.ts closes that client), then the scratch one goes.
  await pointAppAt(undefined);
  await dropDatabase(restored).catch(() => undefined);
  await receiver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Points this process at another database, as restarting an instance with a
 * new DATABASE_URL does: the env is re-read, and everything holding a
 * connection to the old database (the Prisma pool, the key cache's LISTEN, the
 * counter store) is closed, to be opened again on first use.
 */
async function pointAppAt(url: string | undefined): Promise<void> {
  await disconnectDb();
  await stopKeyCache();
  await setCounterStore(undefined);
  if (url) vi.stubEnv("DATABASE_URL", url);
  else vi.unstubAllEnvs();
  resetEnvCache();
}

const create = (name: string) => createPet({ name }, { key });

const feedAfter = async (position: bigint) => expectJson<PetEvent[]>(await call(feedRoute, `/v1/events?after=evt_${position}`, { key }));

const positionOf = (id: string) => BigInt(id.replace(/^evt_/, ""));

/** What the receiver got, by `webhook-id` (the event id), as a partner deduplicating on it counts. */
const received = () => receiver.requests.map((r) => String(r.headers["webhook-id"]));

/**
 * Turns new events into deliveries (their wake-up jobs queued with them) and
 * attempts every delivery now, due or not: more than the background work
 * ever does, so that anything the database would still send, is.
 */
async function deliverAll(): Promise<void> {
  await dispatchEvents();
  await requeueDueDeliveries();
  const all = await db().webhookDelivery.findMany({ select: { id: true } });
  await attemptDeliveries(
    all.map((d) => d.id),
    { owner: "restore-drill" },
  );
}

/** Queued delivery jobs (graphile-worker's tables, in the same database). */
async function deliveryJobs(options: { runnableNow?: boolean } = {}): Promise<number> {
  // runnableNow: only jobs a worker would take at once. A job locked by a
  // worker of another test file's background work when the dump was taken
  // (or due later) stays in the restored queue until its lock expires; it is
  // not this drill's to run, and it sends nothing when it does run.
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = 'deliver-webhooks' AND j.attempts < j.max_attempts
       AND (NOT ${options.runnableNow ?? false} OR (j.locked_at IS NULL AND j.run_at <= now()))`;
  return row!.n;
}

/** Runs every queued delivery job once, with the task an instance runs (lib/worker/tasks.ts), then returns. */
async function runDeliveryJobs(url: string): Promise<void> {
  const shutdown = new AbortController();
  // Never saturated: the job does not wait for quieter CPUs (lib/jobs/yield.ts).
  const load = { current: () => 0, requests: () => 0, stop: () => {} };
  const tasks = taskList({ owner: "restore-drill", signal: shutdown.signal, load });
  await runOnce({
    connectionString: url,
    schema: QUEUE_SCHEMA,
    concurrency: 1,
    logger: new Logger(() => () => {}),
    // This task only: other files' jobs (mail, sweeps) may be in the run's database, and so in the dump.
    taskList: { "deliver-webhooks": tasks["deliver-webhooks"]! },
  });
}

describe.skipIf(!hasClientTools)("a dump restored into a fresh database", () => {
  it("continues the change feed after its last position, and sends no webhook twice", async () => {
    await expectJson(
      await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: receiver.url, events: ["pet.created", "pet.updated"] } }),
      201,
    );
    await create("Before the dump 1");
    await create("Before the dump 2");
    await deliverAll();
    expect(received()).toHaveLength(2);
    const last = (await db().event.aggregate({ _max: { position: true } }))._max.position!;
    // The deliveries were attempted directly, so their wake-up jobs are still
    // queued: as a dump taken while they were in flight would hold them.
    expect(await deliveryJobs()).toBeGreaterThan(0);

    // The backup, with the command docs/deploy.md gives.
    const file = path.join(dir, "petstore.dump");
    pgTool("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, original]);

    // The old database goes on after the dump: a change, delivered. The
    // restore loses it, but the partner has its id.
    await create("After the dump, lost");
    await deliverAll();
    expect(received()).toHaveLength(3);
    const lost = received()[2]!;
    expect(positionOf(lost)).toBe(last + 1n);

    // The restore, into a fresh database, and the app pointed at it.
    await dropDatabase(restored);
    await createDatabaseIfMissing(restored);
    pgTool("pg_restore", ["--no-owner", `--dbname=${restored}`, file]);
    await pointAppAt(restored);

    // The feed is as at the dump: nothing after its last position, and the
    // partner's cursor from the lost event names no event here.
    expect(await feedAfter(last)).toEqual([]);
    await expectApiError(await call(feedRoute, `/v1/events?after=${lost}`, { key }), 400, "invalid_cursor");
    // The sequence came back with its value: left alone, the next event
    // would get the lost event's position, an id the partner already has.
    const [seq] = await db().$queryRaw<{ last_value: bigint; is_called: boolean }[]>`SELECT last_value, is_called FROM events_position_seq`;
    expect(seq).toEqual({ last_value: last, is_called: true });

    // Everything delivered before the dump stays delivered: the restored
    // jobs run and send nothing, and neither do dispatch, the retry sweep or
    // attempting every delivery once more.
    expect(await deliveryJobs()).toBeGreaterThan(0);
    await runDeliveryJobs(restored);
    expect(await deliveryJobs({ runnableNow: true })).toBe(0);
    await deliverAll();
    expect(received()).toHaveLength(3);
    expect(await db().webhookDelivery.groupBy({ by: ["status"], _count: true })).toEqual([{ status: "succeeded", _count: 2 }]);

    // The drill's step: the sequence moved past the highest id partners may have seen.
    const highestSeen = received()
      .map(positionOf)
      .reduce((a, b) => (a > b ? a : b));
    await db().$executeRaw`SELECT setval('events_position_seq', ${highestSeen})`;

    // A new change: after the dump's last position, and after the partner's cursor.
    await create("After the restore");
    const page = await feedAfter(last);
    expect(page.map((e) => [e.type, e.data.pet.name])).toEqual([["pet.created", "After the restore"]]);
    const fresh = page[0]!.id;
    expect(positionOf(fresh)).toBeGreaterThan(last);
    expect(positionOf(fresh)).toBe(highestSeen + 1n);
    expect((await feedAfter(positionOf(lost))).map((e) => e.id)).toEqual([fresh]);

    // Delivered through the job queue as an instance would: only it arrives.
    await dispatchEvents();
    await runDeliveryJobs(restored);
    expect(received().slice(3)).toEqual([fresh]);
    await deliverAll();
    expect(received()).toHaveLength(4);
    expect(new Set(received()).size).toBe(4);
  });
});
