import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/v1/events/route";
import * as petRoute from "@/app/v1/pets/[petId]/route";
import * as petsRoute from "@/app/v1/pets/route";
import * as webhooksRoute from "@/app/v1/webhooks/route";
import * as webhookRoute from "@/app/v1/webhooks/[webhookId]/route";
import * as rotateRoute from "@/app/v1/webhooks/[webhookId]/rotate-secret/route";
import * as testRoute from "@/app/v1/webhooks/[webhookId]/test/route";
import * as deliveriesRoute from "@/app/v1/webhooks/[webhookId]/deliveries/route";
import * as retryRoute from "@/app/v1/webhooks/[webhookId]/deliveries/[deliveryId]/retry/route";
import { db } from "@/lib/db";
import type { PetEvent } from "@/lib/events/schemas";
import { sweepEvents } from "@/lib/events/service";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import type { Pet } from "@/lib/pets/schemas/pet";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { call, enableRateLimit, expectJson, newKey, UNKNOWN_KEY, allowPrivateWebhooks } from "./helpers";
import { conformance, rewriteRefs, type Document } from "./openapi-conformance";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// The change feed and the webhook endpoints against the OpenAPI document:
// every real answer conforms to what is declared, and the events a webhook
// carries validate against the document's `webhooks` section.

enableRateLimit();
const doc = buildOpenApiDocument() as unknown as Document & {
  webhooks: Record<
    string,
    { post: { parameters: { name: string; in: string; required: boolean }[]; requestBody: { content: Record<string, { schema: unknown }> } } }
  >;
};
const { ajv, operation, expectConforms } = conformance(doc, new Set(["link /events get", "link /webhooks/{webhookId}/deliveries get"]));

let key: string;
let partner: string;
let petsOnly: string;
let receiver: Receiver;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"]));
  ({ key: partner } = await newKey(["webhooks:manage"], "contract partner"));
  ({ key: petsOnly } = await newKey(["pets:write"]));
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("the document", () => {
  it("names the new operations", () => {
    expect(operation("/events", "get").operationId).toBe("listEvents");
    expect(operation("/webhooks", "post").operationId).toBe("createWebhook");
    expect(operation("/webhooks", "get").operationId).toBe("listWebhooks");
    expect(operation("/webhooks/{webhookId}", "patch").operationId).toBe("updateWebhook");
    expect(operation("/webhooks/{webhookId}/rotate-secret", "post").operationId).toBe("rotateWebhookSecret");
    expect(operation("/webhooks/{webhookId}/test", "post").operationId).toBe("testWebhook");
    expect(operation("/webhooks/{webhookId}/deliveries", "get").operationId).toBe("listWebhookDeliveries");
    expect(operation("/webhooks/{webhookId}/deliveries/{deliveryId}/retry", "post").operationId).toBe("retryWebhookDelivery");
  });

  it("describes the events we POST in its webhooks section, with the Standard Webhooks headers", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(["pet.created", "pet.stay.ended", "pet.stay.started", "pet.updated", "webhook.test"]);
    for (const hook of Object.values(doc.webhooks)) {
      expect(hook.post.parameters.filter((p) => p.in === "header").map((p) => [p.name, p.required])).toEqual([
        ["webhook-id", true],
        ["webhook-timestamp", true],
        ["webhook-signature", true],
      ]);
    }
  });

  it("events reference Pet (and the previous values' one component) instead of copying them", () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }).components.schemas;
    const json = JSON.stringify(doc);
    // Pet's own description appears once: in Pet. A copy would carry it too.
    const petDescription = JSON.stringify((schemas.Pet as { description?: string }).description);
    expect(json.split(petDescription).length - 1).toBe(1);
    for (const name of ["PetCreatedEvent", "PetUpdatedEvent"]) {
      expect((schemas[name]!.properties!.data as { properties: Record<string, unknown> }).properties.pet).toEqual({ $ref: "#/components/schemas/Pet" });
    }
    expect((schemas.PetUpdatedEvent!.properties!.data as { properties: Record<string, unknown> }).properties.previous).toEqual({
      $ref: "#/components/schemas/PetPreviousFields",
    });
  });

  it("leaves the site's own endpoints out of the partner contract", () => {
    for (const path of ["/session", "/keys", "/keys/{keyId}/webhooks", "/pets/{petId}/history"]) expect(doc.paths[path]).toBeUndefined();
    const site = buildOpenApiDocument("site") as unknown as Document;
    for (const path of ["/session", "/keys", "/keys/{keyId}/webhooks", "/pets/{petId}/history", "/events", "/webhooks"]) expect(site.paths[path]).toBeDefined();
  });
});

describe("real answers conform", () => {
  let events: PetEvent[];

  beforeAll(async () => {
    const pet = await expectJson<Pet>(await call(petsRoute.POST, "/v1/pets", { method: "POST", key, json: { name: "Contract feed", categoryId: 1 } }), 201);
    await expectJson(await call(petRoute.PATCH, `/v1/pets/${pet.id}`, { method: "PATCH", key, json: { status: "sold" }, params: { petId: String(pet.id) } }));
    events = await expectJson<PetEvent[]>(await call(eventsRoute.GET, "/v1/events?limit=100", { key }));
  });

  it.each([
    ["200, with Link", () => call(eventsRoute.GET, "/v1/events?limit=1", { key }), 200],
    ["200, filtered", () => call(eventsRoute.GET, "/v1/events?type=pet.updated", { key }), 200],
    ["400 invalid_query", () => call(eventsRoute.GET, "/v1/events?after=nope", { key }), 400],
    ["400 invalid_cursor", () => call(eventsRoute.GET, "/v1/events?after=evt_99999999", { key }), 400],
    ["401", () => call(eventsRoute.GET, "/v1/events", { key: UNKNOWN_KEY }), 401],
    ["403", () => call(eventsRoute.GET, "/v1/events", { key: petsOnly }), 403],
  ])("GET /events: %s", async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    await expectConforms("/events", "get", res);
  });

  it("the events validate against the document's webhook payloads, each of its own type", () => {
    for (const event of events) {
      const schema = doc.webhooks[event.type]!.post.requestBody.content["application/json"]!.schema;
      const validate = ajv.compile(rewriteRefs(schema as object));
      expect(validate(event), ajv.errorsText(validate.errors)).toBe(true);
    }
  });

  it("GET /events: 410 cursor_expired", async () => {
    // The first two events are swept: a cursor at the first lost the second.
    const [first, second] = events as [PetEvent, PetEvent];
    await db().event.updateMany({ where: { position: { lte: BigInt(second.id.slice(4)) } }, data: { createdAt: new Date(Date.now() - 40 * 86_400_000) } });
    await sweepEvents(new Date());
    const res = await call(eventsRoute.GET, `/v1/events?after=${first.id}`, { key });
    expect(res.status).toBe(410);
    await expectConforms("/events", "get", res);
  });

  it("the webhook endpoints' answers", async () => {
    const created = await call(webhooksRoute.POST, "/v1/webhooks", { method: "POST", key: partner, json: { url: receiver.url, events: ["pet.created"] } });
    expect(created.status).toBe(201);
    const endpoint = (await expectConforms("/webhooks", "post", created)) as { id: number };
    const one = { key: partner, params: { webhookId: String(endpoint.id) } };

    const answers: [string, string, Promise<Response>, number][] = [
      ["/webhooks", "post", call(webhooksRoute.POST, "/v1/webhooks", { method: "POST", key: partner, json: { url: "ftp://x", events: [] } }), 400],
      [
        "/webhooks",
        "post",
        call(webhooksRoute.POST, "/v1/webhooks", { method: "POST", key: partner, json: { url: "http://169.254.169.254/", events: ["pet.created"] } }),
        400,
      ],
      ["/webhooks", "post", call(webhooksRoute.POST, "/v1/webhooks", { method: "POST", key: petsOnly, json: {} }), 403],
      ["/webhooks", "get", call(webhooksRoute.GET, "/v1/webhooks", { key: partner }), 200],
      ["/webhooks/{webhookId}", "get", call(webhookRoute.GET, "/x", one), 200],
      ["/webhooks/{webhookId}", "get", call(webhookRoute.GET, "/x", { ...one, params: { webhookId: "424242" } }), 404],
      ["/webhooks/{webhookId}", "get", call(webhookRoute.GET, "/x", { ...one, params: { webhookId: "x" } }), 400],
      ["/webhooks/{webhookId}", "patch", call(webhookRoute.PATCH, "/x", { ...one, method: "PATCH", json: { description: "changed" } }), 200],
      ["/webhooks/{webhookId}/rotate-secret", "post", call(rotateRoute.POST, "/x", { ...one, method: "POST" }), 200],
      ["/webhooks/{webhookId}/test", "post", call(testRoute.POST, "/x", { ...one, method: "POST" }), 200],
      ["/webhooks/{webhookId}/deliveries", "get", call(deliveriesRoute.GET, "/x", one), 200],
      [
        "/webhooks/{webhookId}/deliveries/{deliveryId}/retry",
        "post",
        call(retryRoute.POST, "/x", { ...one, method: "POST", params: { ...one.params, deliveryId: "777" } }),
        404,
      ],
    ];
    for (const [path, method, pending, status] of answers) {
      const res = await pending;
      expect(res.status, `${method} ${path}`).toBe(status);
      await expectConforms(path, method, res);
    }

    // 409 when the key has ten already.
    for (let i = 0; i < 9; i++)
      await call(webhooksRoute.POST, "/v1/webhooks", { method: "POST", key: partner, json: { url: receiver.url, events: ["pet.created"] } });
    const full = await call(webhooksRoute.POST, "/v1/webhooks", { method: "POST", key: partner, json: { url: receiver.url, events: ["pet.created"] } });
    expect(full.status).toBe(409);
    await expectConforms("/webhooks", "post", full);

    const deleted = await call(webhookRoute.DELETE, "/x", { ...one, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(operation("/webhooks/{webhookId}", "delete").responses["204"]).toBeDefined();
  });
});
