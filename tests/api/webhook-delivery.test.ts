import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { GET as feedRoute } from "@/app/v1/events/route";
import { PATCH as patchRoute } from "@/app/v1/pets/[petId]/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { GET as getWebhookRoute, PATCH as patchWebhookRoute } from "@/app/v1/webhooks/[webhookId]/route";
import { GET as deliveriesRoute } from "@/app/v1/webhooks/[webhookId]/deliveries/route";
import { POST as retryRoute } from "@/app/v1/webhooks/[webhookId]/deliveries/[deliveryId]/retry/route";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { encryptSecret, generateSecret } from "@/lib/core/secrets";
import type { PetEvent } from "@/lib/events/schemas";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { Delivery, WebhookEndpoint } from "@/lib/webhooks/schemas";
import { eventOf, startReceiver, type ReceivedRequest, type Receiver } from "@/tests/webhook-receiver";
import { until } from "@/tests/wait";
import { call, createPet as createAnimal, expectApiError, expectJson, newKey, parseLink, allowPrivateWebhooks } from "./helpers";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// Deliveries end to end, in this process: the API writes a change, the
// background work (the same startBackgroundWork() every server runs, on
// graphile-worker) dispatches it and a real HTTP receiver on 127.0.0.1 gets
// it, signed, retried on failure with a short schedule.

vi.stubEnv("WEBHOOK_RETRY_SCHEDULE", "1,1,1");
resetEnvCache();

let key: string;
let partner: string;
let work: BackgroundWork;
let receiver: Receiver;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "shelter app"));
  ({ key: partner } = await newKey(["pets:read", "webhooks:manage"], "mirroring partner"));
  work = startBackgroundWork();
  receiver = await startReceiver();
});

afterAll(async () => {
  await work?.stop();
  await receiver?.close();
  vi.unstubAllEnvs();
  resetEnvCache();
});

type Endpoint = WebhookEndpoint & { secret: string };

async function register(url: string, events = ["pet.created", "pet.updated"]): Promise<Endpoint> {
  return expectJson<Endpoint>(await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key: partner, json: { url, events } }), 201);
}

const createPet = (name: string) => createAnimal({ name }, { key });

async function patchPet(id: number, json: unknown): Promise<Pet> {
  return expectJson<Pet>(await call(patchRoute, `/v1/pets/${id}`, { method: "PATCH", key, json, params: { petId: String(id) } }));
}

async function feedEvent(id: string): Promise<PetEvent> {
  const before = `evt_${BigInt(id.slice(4)) - 1n}`;
  const url = `/v1/events?limit=1${before === "evt_0" ? "" : `&after=${before}`}`;
  const [event] = await expectJson<PetEvent[]>(await call(feedRoute, url, { key }));
  return event!;
}

async function deliveriesOf(endpoint: Endpoint): Promise<Delivery[]> {
  return expectJson<Delivery[]>(
    await call(deliveriesRoute, `/v1/webhooks/${endpoint.id}/deliveries`, { key: partner, params: { webhookId: String(endpoint.id) } }),
  );
}

const forPet = (pet: Pet, type?: string) => (r: ReceivedRequest) => {
  const event = eventOf(r);
  return (event.data.pet as Pet | undefined)?.id === pet.id && (!type || event.type === type);
};

function verify(endpoint: Endpoint, request: ReceivedRequest): unknown {
  return new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>);
}

/** What `read` answers once `ok` holds of it, asked again until then (at most `timeoutMs`). */
async function eventually<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const found = await until(
    what,
    async () => {
      const value = await read();
      return ok(value) && { value };
    },
    timeoutMs,
  );
  return found.value;
}

describe("deliveries", () => {
  it("a create and a status change reach the receiver, signed (Standard Webhooks), the body exactly the feed's event", async () => {
    const endpoint = await register(receiver.url);
    const pet = await createPet("Signed Sam");
    const created = await receiver.waitFor(forPet(pet, "pet.created"));
    const adopted = await patchPet(pet.id, { status: "sold" });
    const updated = await receiver.waitFor(forPet(pet, "pet.updated"));

    for (const request of [created, updated]) {
      const event = verify(endpoint, request) as PetEvent;
      expect(request.headers["webhook-id"]).toBe(event.id);
      expect(Math.abs(Number(request.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
      expect(String(request.headers["webhook-signature"])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(request.headers["content-type"]).toBe("application/json");
      // Byte for byte what the feed serves.
      expect(request.body).toBe(JSON.stringify(await feedEvent(event.id)));
    }
    expect(eventOf(created)).toMatchObject({ type: "pet.created", data: { pet } });
    expect(eventOf(updated)).toMatchObject({ type: "pet.updated", data: { pet: adopted, previous: { status: "available" } } });
    // A tampered body does not verify.
    expect(() => new Webhook(endpoint.secret).verify(created.body.replace("Signed Sam", "Forged"), created.headers as Record<string, string>)).toThrow();

    // The log says so too.
    const log = await eventually(
      "both deliveries to be logged as succeeded",
      () => deliveriesOf(endpoint),
      (d) => d.every((x) => x.status === "succeeded") && d.length === 2,
    );
    expect(log.map((d) => [d.eventType, d.status, d.attempts.length, d.attempts[0]!.statusCode])).toEqual([
      ["pet.updated", "succeeded", 1, 200],
      ["pet.created", "succeeded", 1, 200],
    ]);
    const endpointNow = await expectJson<WebhookEndpoint>(await call(getWebhookRoute, "/x", { key: partner, params: { webhookId: String(endpoint.id) } }));
    expect(endpointNow.lastAttempt).toMatchObject({ ok: true, statusCode: 200 });
  });

  it("only the subscribed types, only events committed after registration, each event once", async () => {
    const early = await createPet("Before the endpoint");
    const own = await startReceiver();
    try {
      const endpoint = await register(own.url, ["pet.updated"]);
      const pet = await createPet("After the endpoint");
      await patchPet(pet.id, { status: "pending" });
      await patchPet(early.id, { name: "Renamed early" });
      const received = await own.waitForCount(() => true, 2);
      expect(received.map((r) => eventOf(r).type)).toEqual(["pet.updated", "pet.updated"]);
      // A deliberate sleep: time for a third request, which must not come (an absence cannot be awaited).
      await new Promise((r) => setTimeout(r, 1_500));
      expect(own.requests).toHaveLength(2);
      expect(new Set(own.requests.map((r) => r.headers["webhook-id"])).size).toBe(2);
      expect(await deliveriesOf(endpoint)).toHaveLength(2);
    } finally {
      await own.close();
    }
  });

  it("a receiver that answers 500 twice gets the event on the third attempt, with the same webhook-id; the log shows all three", async () => {
    const own = await startReceiver();
    try {
      own.script({ status: 500, body: "down" }, { status: 500, body: "still down" });
      const endpoint = await register(own.url);
      const pet = await createPet("Third time lucky");
      const attempts = await own.waitForCount(forPet(pet), 3);
      expect(new Set(attempts.map((r) => r.headers["webhook-id"])).size).toBe(1);
      for (const request of attempts) verify(endpoint, request);
      // Backoff: the retries came after the schedule's 1 s (±10 %).
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(850);

      const [delivery] = await eventually(
        "the delivery to be logged as succeeded",
        () => deliveriesOf(endpoint),
        (d) => d[0]?.status === "succeeded",
      );
      expect(delivery).toMatchObject({ eventId: attempts[0]!.headers["webhook-id"], status: "succeeded", nextAttemptAt: null });
      expect(delivery!.attempts.map((a) => [a.statusCode, a.error, a.responseBody])).toEqual([
        [500, null, "down"],
        [500, null, "still down"],
        [200, null, "ok"],
      ]);
      for (const a of delivery!.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(0);
      // A failure recorded, then cleared by the success.
      expect(
        (await expectJson<WebhookEndpoint>(await call(getWebhookRoute, "/x", { key: partner, params: { webhookId: String(endpoint.id) } }))).failingSince,
      ).toBeNull();
    } finally {
      await own.close();
    }
  });

  it("a receiver that never succeeds: retries per the schedule, then failed; retry through the API sends it again now", async () => {
    const own = await startReceiver();
    try {
      own.fallback = { status: 502 };
      const endpoint = await register(own.url, ["pet.created"]);
      const pet = await createPet("Never delivered");
      // 1 attempt + 3 retries (WEBHOOK_RETRY_SCHEDULE=1,1,1).
      await own.waitForCount(forPet(pet), 4);
      const [failed] = await eventually(
        "the delivery to be logged as failed",
        () => deliveriesOf(endpoint),
        (d) => d[0]?.status === "failed",
      );
      expect(failed).toMatchObject({ status: "failed", nextAttemptAt: null });
      expect(failed!.attempts).toHaveLength(4);
      const withFailure = await expectJson<WebhookEndpoint>(await call(getWebhookRoute, "/x", { key: partner, params: { webhookId: String(endpoint.id) } }));
      expect(withFailure.failingSince).not.toBeNull();
      expect(withFailure.enabled).toBe(true);

      own.fallback = { status: 200 };
      const params = { webhookId: String(endpoint.id), deliveryId: String(failed!.id) };
      const retried = await expectJson<Delivery>(await call(retryRoute, "/x", { method: "POST", key: partner, params }));
      expect(retried).toMatchObject({ id: failed!.id, status: "succeeded" });
      expect(retried.attempts).toHaveLength(5);
      expect(own.requests.filter(forPet(pet))).toHaveLength(5);
      await expectApiError(await call(retryRoute, "/x", { method: "POST", key: partner, params: { ...params, deliveryId: "999999" } }), 404, "not_found");
    } finally {
      await own.close();
    }
  });

  it("a 410 from the receiver disables the endpoint (staff and owner see why); nothing more is sent", async () => {
    const own = await startReceiver();
    try {
      own.fallback = { status: 410 };
      const endpoint = await register(own.url);
      const pet = await createPet("Gone receiver");
      await own.waitFor(forPet(pet));
      const state = await eventually(
        "the endpoint to be disabled after the 410",
        async () => expectJson<WebhookEndpoint>(await call(getWebhookRoute, "/x", { key: partner, params: { webhookId: String(endpoint.id) } })),
        (e) => !e.enabled,
      );
      expect(state).toMatchObject({ enabled: false, disabledReason: "The receiver answered 410 Gone." });
      await patchPet(pet.id, { status: "sold" });
      // A deliberate sleep: time for a delivery to the disabled endpoint, which must not come.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(own.requests).toHaveLength(1);
      expect((await deliveriesOf(endpoint)).map((d) => d.status)).toEqual(["failed"]);
    } finally {
      await own.close();
    }
  });

  it("three days of nothing but failures disable the endpoint; its pending deliveries are cancelled", async () => {
    const own = await startReceiver();
    try {
      own.fallback = { status: 500 };
      const endpoint = await register(own.url, ["pet.created"]);
      await db().webhookEndpoint.update({ where: { id: BigInt(endpoint.id) }, data: { failingSince: new Date(Date.now() - 3 * 86_400_000 - 60_000) } });
      const pet = await createPet("Abandoned receiver");
      await own.waitFor(forPet(pet));
      const state = await eventually(
        "the endpoint to be disabled after 3 days of failures",
        async () => expectJson<WebhookEndpoint>(await call(getWebhookRoute, "/x", { key: partner, params: { webhookId: String(endpoint.id) } })),
        (e) => !e.enabled,
      );
      expect(state.disabledReason).toMatch(/^Every delivery attempt failed for 3 days/);
      expect(own.requests).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it("an endpoint the owner paused receives nothing; resumed, it gets the events from then on", async () => {
    const own = await startReceiver();
    try {
      const endpoint = await register(own.url, ["pet.created"]);
      const params = { webhookId: String(endpoint.id) };
      await expectJson(await call(patchWebhookRoute, "/x", { method: "PATCH", key: partner, params, json: { enabled: false } }));
      await createPet("While paused");
      // A deliberate sleep: time for a delivery to the paused endpoint, which must not come.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(own.requests).toHaveLength(0);
      await expectJson(await call(patchWebhookRoute, "/x", { method: "PATCH", key: partner, params, json: { enabled: true } }));
      const pet = await createPet("After resuming");
      await own.waitFor(forPet(pet));
      expect(own.requests).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it("SSRF at delivery time: an endpoint whose address is no longer allowed gets a failed attempt, not a request", async () => {
    const own = await startReceiver();
    try {
      const endpoint = await register(own.url, ["pet.created"]);
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
      resetEnvCache();
      try {
        await createPet("Not for loopback");
        const [delivery] = await eventually(
          "the refused attempt to be logged",
          () => deliveriesOf(endpoint),
          (d) => (d[0]?.attempts.length ?? 0) > 0,
        );
        expect(delivery!.attempts[0]).toMatchObject({ statusCode: null, error: "address_not_allowed" });
        expect(own.requests).toHaveLength(0);
      } finally {
        vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
        resetEnvCache();
      }
    } finally {
      await own.close();
    }
  });

  it("an endpoint whose secret can no longer be read gets a signing_error attempt, never an unsigned request", async () => {
    const own = await startReceiver();
    const original = process.env.SESSION_SECRET!;
    try {
      const endpoint = await register(own.url, ["pet.created"]);
      // Sealed under an app secret this server does not have (replaced without SESSION_SECRET_PREVIOUS).
      vi.stubEnv("SESSION_SECRET", "a-session-secret-this-server-never-had");
      resetEnvCache();
      const unreadable = encryptSecret(generateSecret());
      vi.stubEnv("SESSION_SECRET", original);
      resetEnvCache();
      await db().webhookEndpoint.update({ where: { id: BigInt(endpoint.id) }, data: { secret: unreadable } });
      await createPet("Cannot be signed");
      const [delivery] = await eventually(
        "the unsigned attempt to be logged",
        () => deliveriesOf(endpoint),
        (d) => (d[0]?.attempts.length ?? 0) > 0,
      );
      expect(delivery!.attempts[0]).toMatchObject({ statusCode: null, error: "signing_error" });
      expect(own.requests).toHaveLength(0);
    } finally {
      vi.stubEnv("SESSION_SECRET", original);
      resetEnvCache();
      await own.close();
    }
  });

  it('the deliveries log pages newest first through Link rel="next"', async () => {
    const own = await startReceiver();
    try {
      const endpoint = await register(own.url, ["pet.created"]);
      for (let i = 0; i < 3; i++) await createPet(`Paged delivery ${i}`);
      await own.waitForCount(() => true, 3);
      const first = await call(deliveriesRoute, `/v1/webhooks/${endpoint.id}/deliveries?limit=2`, { key: partner, params: { webhookId: String(endpoint.id) } });
      const page = await expectJson<Delivery[]>(first);
      expect(page).toHaveLength(2);
      expect(page[0]!.id).toBeGreaterThan(page[1]!.id);
      const next = parseLink(first.headers.get("link")).next!;
      const rest = await expectJson<Delivery[]>(await call(deliveriesRoute, next, { key: partner, params: { webhookId: String(endpoint.id) } }));
      expect(rest).toHaveLength(1);
      expect(rest[0]!.id).toBeLessThan(page[1]!.id);
      await expectApiError(await call(deliveriesRoute, "/x?cursor=nope!", { key: partner, params: { webhookId: String(endpoint.id) } }), 400, "invalid_cursor");
      await expectApiError(await call(deliveriesRoute, "/x?limit=0", { key: partner, params: { webhookId: String(endpoint.id) } }), 400, "invalid_query");
    } finally {
      await own.close();
    }
  });
});
