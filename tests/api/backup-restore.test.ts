import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as feedRoute } from "@/app/v1/events/route";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { db, disconnectDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { setCounterStore } from "@/lib/http/rate-limit";
import type { Pet } from "@/lib/pets/schemas";
import { attemptDeliveries } from "@/lib/webhooks/delivery";
import { dispatchEvents, requeueDueDeliveries } from "@/lib/webhooks/dispatch";
import { createDatabaseIfMissing, dropDatabase, withDatabaseName } from "@/scripts/database";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { call, expectJson, newKey } from "./helpers";

// The restore drill of docs/deploy.md ("Backups and restore"), as an operator
// runs it: pg_dump the live database, pg_restore it into a fresh one, point
// the app at it. The change feed goes on from its last position, and no
// webhook delivered before the dump is sent again (its delivery row, and the
// jobs queue in the graphile_worker schema, came back with the dump).

const hasPgDump = spawnSync("pg_dump", ["--version"]).status === 0 && spawnSync("pg_restore", ["--version"]).status === 0;

let receiver: Receiver;
let key: string;
let original: string;
let restored: string;
let dir: string;

beforeAll(async () => {
  original = process.env.DATABASE_URL!;
  restored = withDatabaseName(original, `${new URL(original).pathname.slice(1)}_restored`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-dump-"));
  receiver = await startReceiver();
  ({ key } = await newKey(["pets:read", "pets:write", "webhooks:manage"], "mirror"));
});

afterAll(async () => {
  await disconnectDb();
  await setCounterStore(undefined);
  vi.unstubAllEnvs();
  resetEnvCache();
  await dropDatabase(restored).catch(() => undefined);
  await receiver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const create = async (name: string) => expectJson<Pet>(await call(createPetRoute, "/v1/pets", { method: "POST", key, json: { name, categoryId: 1 } }), 201);

/** Dispatches the feed to the endpoints and attempts every due delivery now, as the background work does. */
async function deliverAll(): Promise<void> {
  await dispatchEvents();
  await requeueDueDeliveries();
  const due = await db().webhookDelivery.findMany({ select: { id: true } });
  await attemptDeliveries(
    due.map((d) => d.id),
    { owner: "restore-drill" },
  );
}

const delivered = () => receiver.requests.map((r) => r.headers["webhook-id"] as string);

describe.skipIf(!hasPgDump)("a dump restored into a fresh database", () => {
  it("continues the change feed from its last position, and sends no webhook twice", async () => {
    await expectJson(await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: receiver.url, events: ["pet.created", "pet.updated"] } }), 201);
    await create("Before the dump 1");
    await create("Before the dump 2");
    await deliverAll();
    expect(delivered()).toHaveLength(2);
    const last = (await db().event.aggregate({ _max: { position: true } }))._max.position!;

    // The backup, as docs/deploy.md gives it.
    const file = path.join(dir, "petstore.dump");
    execFileSync("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, original]);
    await dropDatabase(restored);
    await createDatabaseIfMissing(restored);
    execFileSync("pg_restore", ["--no-owner", `--dbname=${restored}`, file]);

    // The app, pointed at the restored database.
    vi.stubEnv("DATABASE_URL", restored);
    resetEnvCache();
    await disconnectDb();
    await setCounterStore(undefined);

    // Everything delivered before the dump stays delivered: dispatching and
    // re-running every delivery (as restored jobs would) sends nothing.
    await deliverAll();
    expect(delivered()).toHaveLength(2);
    const pending = await db().webhookDelivery.count({ where: { status: "pending" } });
    expect(pending).toBe(0);

    // The feed goes on after the last position, and so do the deliveries.
    const after = await create("After the restore");
    const page = await expectJson<{ id: string; data: { pet: Pet } }[]>(await call(feedRoute, `/v1/events?after=evt_${last}`, { key }));
    expect(page.map((e) => e.data.pet.name)).toEqual(["After the restore"]);
    expect(BigInt(page[0]!.id.slice(4))).toBeGreaterThan(last);
    await deliverAll();
    expect(delivered()).toHaveLength(3);
    expect(new Set(delivered()).size).toBe(3);
    expect(delivered().at(-1)).toBe(page[0]!.id);
    expect(after.name).toBe("After the restore");
  });
});
