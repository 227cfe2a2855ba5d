import { expect, test } from "@playwright/test";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { eventOf, startReceiver, type ReceivedRequest, type Receiver } from "../../tests/webhook-receiver";
import { freshDatabase, startInstance, stopInstance, type Instance } from "../deploy/topology";
import { bearer, runCli } from "../helpers";

// Webhook delivery by real server processes (scripts/server.ts, as
// `npm run serve` and `npm start` run it) on a database of their own, to a
// real receiver on 127.0.0.1: a process killed right after its 201 still
// delivers once restarted, and two instances deliver each event once.

test.describe.configure({ mode: "serial", timeout: 120_000 });

let databaseUrl: string;
let receiver: Receiver;
const running: Instance[] = [];

function cli(...args: string[]): string {
  const result = runCli(args, { env: { DATABASE_URL: databaseUrl } });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const createKey = (name: string, scopes: string) =>
  cli("keys", "create", "--name", name, "--org", "1", "--plan", "enterprise", "--per-minute", "100000", "--per-day", "1000000", "--scopes", scopes)
    .trim()
    .split("\n")
    .at(-1)!;

async function start(): Promise<Instance> {
  // The test's receiver listens on 127.0.0.1: private targets are allowed only when asked for.
  const instance = await startInstance({
    env: { DATABASE_URL: databaseUrl, WEBHOOK_RETRY_SCHEDULE: "1,1,1", LOG_LEVEL: "warn", WEBHOOK_ALLOW_PRIVATE: "true" },
  });
  running.push(instance);
  return instance;
}

const origin = (instance: Instance) => `http://127.0.0.1:${instance.port}`;

test.beforeAll(async () => {
  databaseUrl = await freshDatabase(`${process.env.E2E_DATABASE ?? "petstore_e2e"}_webhooks`);
  receiver = await startReceiver();
});

test.afterAll(async () => {
  for (const instance of running) if (instance.process.exitCode === null && instance.process.signalCode === null) await stopInstance(instance);
  await receiver?.close();
});

async function register(instance: Instance, partnerKey: string, url = receiver.url): Promise<{ id: number; secret: string }> {
  const res = await fetch(`${origin(instance)}/v1/webhooks`, {
    method: "POST",
    headers: { ...bearer(partnerKey), "content-type": "application/json" },
    body: JSON.stringify({ url, events: ["pet.created", "pet.updated"] }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function createPet(instance: Instance, key: string, name: string): Promise<{ id: number }> {
  const res = await fetch(`${origin(instance)}/v1/pets`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

const forPet = (id: number) => (r: ReceivedRequest) => (eventOf(r).data.pet as { id: number } | undefined)?.id === id;

test("keys are issued with webhooks:manage by the CLI; an instance delivers a create and a status change, signed", async () => {
  const instance = await start();
  const key = createKey("e2e shelter", "pets:read,pets:write");
  const partner = createKey("e2e mirror", "pets:read,webhooks:manage");
  const endpoint = await register(instance, partner);

  const pet = await createPet(instance, key, "Delivered by a server");
  const patched = await fetch(`${origin(instance)}/v1/pets/${pet.id}`, {
    method: "PATCH",
    headers: { ...bearer(key), "content-type": "application/merge-patch+json" },
    body: JSON.stringify({ status: "sold" }),
  });
  expect(patched.status).toBe(200);
  // Two deliveries, each attempted on its own: they may arrive in either order (the feed is the ordered record).
  const received = await receiver.waitForCount(forPet(pet.id), 2);
  const verifier = new Webhook(endpoint.secret);
  const verified = received.map((r) => ({ request: r, event: verifier.verify(r.body, r.headers as Record<string, string>) as { type: string } }));
  const created = verified.find((v) => v.event.type === "pet.created")?.request;
  const updated = verified.find((v) => v.event.type === "pet.updated")?.request;
  expect(created, "the pet.created delivery").toBeDefined();
  expect(verifier.verify(updated!.body, updated!.headers as Record<string, string>)).toMatchObject({
    type: "pet.updated",
    data: { previous: { status: "available" } },
  });

  // The feed serves the very bodies that were delivered.
  const feed = await (await fetch(`${origin(instance)}/v1/events?limit=100`, { headers: bearer(partner) })).json();
  const delivered = [created!, updated!].map((r) => r.body);
  expect(feed.map((e: unknown) => JSON.stringify(e))).toEqual(expect.arrayContaining(delivered));

  // Operators see the endpoint and its last delivery.
  const listed = cli("webhooks", "list");
  expect(listed).toContain(receiver.url);
  expect(listed).toMatch(/enabled\tlast delivery \S+ ok \(200\)/);
  await stopInstance(instance);
});

test("killed with SIGKILL right after answering 201, an instance delivers the event once it is back", async () => {
  const instance = await start();
  const key = createKey("e2e crash writer", "pets:write");
  const partner = createKey("e2e crash partner", "webhooks:manage");
  const own = await startReceiver();
  try {
    const endpoint = await register(instance, partner, own.url);
    // If the attempt starts before the kill, the receiver holds it unanswered.
    own.script("hang");
    const pet = await createPet(instance, key, "Survives a crash");
    process.kill(instance.pid, "SIGKILL");
    await instance.exited;

    const restarted = await start();
    // Whether or not the killed process had begun an attempt (the receiver
    // leaves the first one unanswered), the event arrives again after the
    // restart, and that request is answered.
    const [, answered] = (await own.waitForCount(forPet(pet.id), 2, 60_000)) as [ReceivedRequest, ReceivedRequest];
    const event = new Webhook(endpoint.secret).verify(answered.body, answered.headers as Record<string, string>) as { id: string; type: string };
    expect(event.type).toBe("pet.created");
    // Every request for it carried the same webhook-id.
    expect(new Set(own.requests.filter(forPet(pet.id)).map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));

    const log = () => fetch(`${origin(restarted)}/v1/webhooks/${endpoint.id}/deliveries`, { headers: bearer(partner) }).then((r) => r.json());
    await expect.poll(async () => (await log())[0]).toMatchObject({ eventId: event.id, status: "succeeded" });
    await stopInstance(restarted);
  } finally {
    await own.close();
  }
});

test("killed with SIGKILL in the middle of an attempt, the delivery is taken over as soon as the instance is back, without waiting for its lease", async () => {
  const instance = await start();
  const key = createKey("e2e mid-attempt writer", "pets:write");
  const partner = createKey("e2e mid-attempt partner", "webhooks:manage");
  const own = await startReceiver();
  try {
    const endpoint = await register(instance, partner, own.url);
    own.script("hang");
    const pet = await createPet(instance, key, "Cut mid-flight");
    // The attempt is in flight: the receiver holds it.
    const first = await own.waitFor(forPet(pet.id));
    process.kill(instance.pid, "SIGKILL");
    await instance.exited;
    // The dead process's lease is made to last an hour: only its connections' being gone can free the
    // delivery within the wait below, so the test says "without waiting for its lease" on any machine,
    // where a bound in seconds on the restart failed on a loaded one.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const held = await db.query(
        "UPDATE webhook_deliveries SET lease_until = now() + interval '1 hour' WHERE endpoint_id = $1 AND lease_owner IS NOT NULL AND status = 'pending' RETURNING id",
        [endpoint.id],
      );
      expect(held.rowCount).toBe(1);
    } finally {
      await db.end();
    }

    const restarted = await start();
    const [, again] = (await own.waitForCount(forPet(pet.id), 2, 60_000)) as [ReceivedRequest, ReceivedRequest];
    expect(again.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    new Webhook(endpoint.secret).verify(again.body, again.headers as Record<string, string>);
    await stopInstance(restarted);
  } finally {
    await own.close();
  }
});

test("two instances: each event reaches the endpoint once", async () => {
  const [a, b] = await Promise.all([start(), start()]);
  const key = createKey("e2e busy shelter", "pets:write");
  const partner = createKey("e2e once partner", "webhooks:manage");
  const own = await startReceiver();
  try {
    await register(a, partner, own.url);
    const pets = await Promise.all(Array.from({ length: 30 }, (_, i) => createPet(i % 2 ? a : b, key, `Once ${i}`)));
    await own.waitForCount(() => true, 30, 60_000);
    // A deliberate sleep: time for any duplicate to arrive (an absence cannot be awaited).
    await new Promise((r) => setTimeout(r, 3_000));
    const ids = own.requests.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(new Set(own.requests.map((r) => (eventOf(r).data.pet as { id: number }).id))).toEqual(new Set(pets.map((p) => p.id)));
    await Promise.all([stopInstance(a), stopInstance(b)]);
  } finally {
    await own.close();
  }
});
