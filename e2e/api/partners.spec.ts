import fs from "node:fs";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { addAnimal } from "../../docs/partners/create-animal";
import { listAvailableAnimals } from "../../docs/partners/list-animals";
import { catchUp, type PetstoreEvent } from "../../docs/partners/read-feed";
import { webhookReceiver } from "../../docs/partners/verify-webhook";
import { bearer, createKey } from "../helpers";

// docs/partners.md's snippets, run as they are printed (it quotes
// docs/partners/*.ts, checked below) against the running server.

let api: string;
let key: string;

test.beforeAll(({ baseURL }) => {
  api = `${baseURL}/v1`;
  key = createKey("e2e partner snippets", "--plan", "business", "--scopes", "pets:read,pets:write,webhooks:manage");
});

test("docs/partners.md quotes every snippet exactly", () => {
  const guide = fs.readFileSync("docs/partners.md", "utf8");
  for (const file of fs.readdirSync("docs/partners")) {
    const code = fs.readFileSync(`docs/partners/${file}`, "utf8").trimEnd();
    expect(guide, `docs/partners.md quotes docs/partners/${file}`).toContain(`\`\`\`ts\n${code}\n\`\`\``);
  }
});

test("add an animal with an Idempotency-Key, list with the cursor, read the feed from where you stopped", async ({ request }) => {
  // Where we stood before.
  const start = await catchUp(api, key, undefined, async () => {});

  const added = await addAnimal(api, key, { name: "Snippet Sally", categoryId: 2 });
  expect(added).toMatchObject({ name: "Snippet Sally", status: "available", version: 1 });

  // The list follows Link rel="next" to the end: with 150 more, more than one page of 100.
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    await db.query(
      "INSERT INTO pets (name, organization_id, category_id, status) SELECT 'Snippet filler ' || g, 1, 1, 'available' FROM generate_series(1, 150) AS g",
    );
    const animals = await listAvailableAnimals(api, key);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pets WHERE status = 'available'");
    expect(animals).toHaveLength(rows[0]!.n);
    expect(animals.length).toBeGreaterThan(150);
    expect(animals.map((a) => a.id)).toContain(added.id);
    expect(new Set(animals.map((a) => a.id)).size).toBe(animals.length);
  } finally {
    // Other specs browse the same database: leave it as it was.
    await db.query("DELETE FROM pets WHERE name LIKE 'Snippet filler %'");
    await db.end();
  }

  const adopted = await request.patch(`${api}/pets/${added.id}`, { headers: bearer(key), data: { status: "sold" } });
  expect(adopted.status()).toBe(200);

  const seen: PetstoreEvent[] = [];
  const last = await catchUp(api, key, start, async (event) => void seen.push(event));
  // A sale ends the animal's stay with its adoption: that record is the shelter's (records:read); a partner is told the sale.
  expect(seen.filter((e) => e.data.pet.id === added.id).map((e) => e.type)).toEqual(["pet.created", "pet.updated"]);
  expect(seen.at(-1)!.id).toBe(last);
  // Caught up: nothing more, and the same id again next time.
  const again: PetstoreEvent[] = [];
  expect(await catchUp(api, key, last, async (event) => void again.push(event))).toBe(last);
  expect(again).toEqual([]);
});

test("verify a delivery with the standardwebhooks package; forged or replayed requests are not handled", async ({ request }) => {
  const received: { id: string; type: string; data: unknown }[] = [];
  let server: ReturnType<typeof webhookReceiver> | undefined;
  const listening = (secret: string) =>
    new Promise<string>((resolve) => {
      server = webhookReceiver(secret, async (event) => void received.push(event));
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/petstore`));
    });
  try {
    // Register first to learn the secret, then point the endpoint at a receiver holding it.
    const registered = await (
      await request.post(`${api}/webhooks`, { headers: bearer(key), data: { url: "http://127.0.0.1:9/placeholder", events: ["pet.created"] } })
    ).json();
    const url = await listening(registered.secret);
    expect((await request.patch(`${api}/webhooks/${registered.id}`, { headers: bearer(key), data: { url } })).status()).toBe(200);

    const pet = await addAnimal(api, key, { name: "Webhook Wally", categoryId: 3 });
    await expect.poll(() => received.find((e) => (e.data as { pet: { id: number } }).pet.id === pet.id)?.type, { timeout: 15_000 }).toBe("pet.created");

    // A retry of the same delivery carries the same webhook-id: handled once.
    const [delivery] = await (await request.get(`${api}/webhooks/${registered.id}/deliveries`, { headers: bearer(key) })).json();
    const retried = await request.post(`${api}/webhooks/${registered.id}/deliveries/${delivery.id}/retry`, { headers: bearer(key) });
    expect((await retried.json()).attempts.at(-1).statusCode).toBe(204);
    expect(received.filter((e) => e.id === delivery.eventId)).toHaveLength(1);

    // Anyone else posting to it is refused.
    const forged = await fetch(url, {
      method: "POST",
      headers: { "webhook-id": "evt_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,Zm9yZ2Vk" },
      body: JSON.stringify({ id: "evt_1", type: "pet.created", data: {} }),
    });
    expect(forged.status).toBe(400);
    expect(received.some((e) => e.id === "evt_1" && !(e.data as { pet?: unknown }).pet)).toBe(false);
  } finally {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  }
});
