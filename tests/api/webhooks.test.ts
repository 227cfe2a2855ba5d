import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { GET as listRoute, POST as createRoute, PUT as putRoute } from "@/app/v1/webhooks/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/v1/webhooks/[webhookId]/route";
import { POST as rotateRoute } from "@/app/v1/webhooks/[webhookId]/rotate-secret/route";
import { POST as testRoute } from "@/app/v1/webhooks/[webhookId]/test/route";
import { GET as deliveriesRoute } from "@/app/v1/webhooks/[webhookId]/deliveries/route";
import { GET as staffListRoute } from "@/app/v1/keys/[keyId]/webhooks/route";
import { POST as staffDisableRoute } from "@/app/v1/keys/[keyId]/webhooks/[webhookId]/disable/route";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import type { WebhookEndpoint } from "@/lib/webhooks/schemas";
import { decryptSecret } from "@/lib/core/secrets";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { call, expectApiError, expectJson, newKey, staffSession, type CallOptions, type StaffSession, allowPrivateWebhooks } from "./helpers";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// Managing webhook endpoints: /v1/webhooks (API keys with webhooks:manage,
// each seeing only its own) and the staff views under /v1/keys/{id}/webhooks.

let owner: { key: string; id: number };
let other: { key: string; id: number };
let petsOnly: string;
let staff: StaffSession;
let receiver: Receiver;

beforeAll(async () => {
  owner = await newKey(["pets:read", "webhooks:manage"], "partner with webhooks");
  other = await newKey(["webhooks:manage"], "another partner");
  ({ key: petsOnly } = await newKey(["pets:read", "pets:write"], "no webhooks scope"));
  staff = await staffSession();
  receiver = await startReceiver();
});

afterAll(() => receiver.close());
afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

type Created = WebhookEndpoint & { secret: string };

function create(json: unknown, key = owner.key) {
  return call(createRoute, "/v1/webhooks", { method: "POST", key, json });
}

async function register(json: Record<string, unknown> = {}, key = owner.key): Promise<Created> {
  return expectJson<Created>(await create({ url: receiver.url, events: ["pet.created", "pet.updated"], ...json }, key), 201);
}

const one = (id: number | string, options: CallOptions = {}) => ({ params: { webhookId: String(id) }, key: owner.key, ...options });

describe("POST /v1/webhooks", () => {
  it("201 with the endpoint and its secret (whsec_ + base64 of 32 bytes), shown only here; stored encrypted", async () => {
    const res = await create({ url: receiver.url, events: ["pet.updated", "pet.created", "pet.updated"], description: "  mirror  " });
    const body = await expectJson<Created>(res, 201);
    expect(body).toEqual({
      id: expect.any(Number),
      url: receiver.url,
      events: ["pet.created", "pet.updated"],
      description: "mirror",
      enabled: true,
      disabledReason: null,
      failingSince: null,
      lastAttempt: null,
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(body.secret.slice(6), "base64")).toHaveLength(32);
    expect(res.headers.get("location")).toBe(`http://localhost/v1/webhooks/${body.id}`);

    // Never again: not in reads, not in the table as such.
    const read = await expectJson<WebhookEndpoint>(await call(getRoute, `/v1/webhooks/${body.id}`, one(body.id)));
    expect(read).not.toHaveProperty("secret");
    expect(JSON.stringify(await expectJson(await call(listRoute, "/v1/webhooks", { key: owner.key })))).not.toContain(body.secret);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: BigInt(body.id) }, select: { secret: true } });
    expect(row.secret).not.toContain(body.secret.slice(6, 20));
    expect(decryptSecret(row.secret).secret).toBe(body.secret);
  });

  it.each([
    ["no url", { events: ["pet.created"] }, "url"],
    ["a relative url", { url: "/hook", events: ["pet.created"] }, "url"],
    ["an ftp url", { url: "ftp://partner.example/hook", events: ["pet.created"] }, "url"],
    ["credentials in the url", { url: "https://user:pw@partner.example/hook", events: ["pet.created"] }, "url"],
    ["a url over 2048 characters", { url: `https://partner.example/${"a".repeat(2048)}`, events: ["pet.created"] }, "url"],
    ["no events", { url: "https://partner.example/hook" }, "events"],
    ["empty events", { url: "https://partner.example/hook", events: [] }, "events"],
    ["an unknown event type", { url: "https://partner.example/hook", events: ["pet.deleted"] }, "events.0"],
    ["a description over 500 characters", { url: "https://partner.example/hook", events: ["pet.created"], description: "d".repeat(501) }, "description"],
    ["an unknown field", { url: "https://partner.example/hook", events: ["pet.created"], secret: "mine" }, "secret"],
  ])("400 invalid_body for %s", async (_label, json, field) => {
    const body = await expectApiError(await create(json), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  it("400 invalid_json and 415 for bodies that are not JSON", async () => {
    await expectApiError(
      await call(createRoute, "/v1/webhooks", { method: "POST", key: owner.key, body: "{", headers: { "content-type": "application/json" } }),
      400,
      "invalid_json",
    );
    await expectApiError(
      await call(createRoute, "/v1/webhooks", { method: "POST", key: owner.key, body: "url=x", headers: { "content-type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
  });

  it("at most 10 endpoints per key: the 11th is 409 webhook_limit_reached, even when asked for at once", async () => {
    const crowded = await newKey(["webhooks:manage"], "crowded");
    const answers = await Promise.all(Array.from({ length: 12 }, () => create({ url: receiver.url, events: ["pet.created"] }, crowded.key)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
    for (const res of answers.filter((r) => r.status !== 201)) await expectApiError(res, 409, "webhook_limit_reached");
    expect(await db().webhookEndpoint.count({ where: { apiKeyId: BigInt(crowded.id) } })).toBe(10);
  });

  it("needs an API key with webhooks:manage: 401 without, 403 for a key without the scope or a staff session", async () => {
    await expectApiError(
      await call(createRoute, "/v1/webhooks", { method: "POST", json: { url: receiver.url, events: ["pet.created"] } }),
      401,
      "unauthorized",
    );
    await expectApiError(await create({ url: receiver.url, events: ["pet.created"] }, petsOnly), 403, "forbidden");
    await expectApiError(await call(listRoute, "/v1/webhooks", { headers: staff.headers }), 403, "forbidden");
    await expectApiError(await call(putRoute, "/v1/webhooks", { method: "PUT", key: owner.key, json: {} }), 405, "method_not_allowed");
  });
});

describe("SSRF: where endpoints may point", () => {
  function production() {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
    resetEnvCache();
  }

  it.each([
    "http://partner.example/hook",
    "https://127.0.0.1/hook",
    "https://127.0.0.1:8443/hook",
    "https://localhost/hook",
    "https://[::1]/hook",
    "https://10.0.0.5/hook",
    "https://172.16.3.4/hook",
    "https://192.168.1.10/hook",
    "https://100.64.0.1/hook",
    "https://[fd00::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://224.0.0.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/hook",
    "https://0.0.0.0/hook",
  ])("production refuses %s: 400 invalid_webhook_url", async (url) => {
    production();
    const body = await expectApiError(await create({ url, events: ["pet.created"] }), 400, "invalid_webhook_url");
    expect(body.details).toEqual([{ field: "url", issue: expect.any(String) }]);
  });

  it("production accepts https to a public address", async () => {
    production();
    await expectJson(await create({ url: "https://93.184.215.14/hook", events: ["pet.created"] }), 201);
  });

  it.each(["http://169.254.169.254/latest/meta-data", "http://[fe80::1]/hook", "http://0.0.0.0:3000/hook", "http://[::]/hook"])(
    "with WEBHOOK_ALLOW_PRIVATE=true, %s is still refused",
    async (url) => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
      resetEnvCache();
      await expectApiError(await create({ url, events: ["pet.created"] }), 400, "invalid_webhook_url");
    },
  );

  it("a URL changed by PATCH is checked the same way", async () => {
    const endpoint = await register();
    production();
    await expectApiError(
      await call(patchRoute, `/v1/webhooks/${endpoint.id}`, one(endpoint.id, { method: "PATCH", json: { url: "https://169.254.169.254/" } })),
      400,
      "invalid_webhook_url",
    );
  });
});

describe("reading, changing, deleting: each key its own endpoints", () => {
  it("GET lists the key's endpoints only; another key's id is 404 for GET, PATCH, DELETE and its sub-resources", async () => {
    const mine = await register({ description: "mine" });
    const theirs = await register({ description: "theirs" }, other.key);
    const list = await expectJson<WebhookEndpoint[]>(await call(listRoute, "/v1/webhooks", { key: owner.key }));
    expect(list.map((e) => e.id)).toContain(mine.id);
    expect(list.map((e) => e.id)).not.toContain(theirs.id);

    const foreign = one(theirs.id);
    await expectApiError(await call(getRoute, `/v1/webhooks/${theirs.id}`, foreign), 404, "not_found");
    await expectApiError(await call(patchRoute, `/v1/webhooks/${theirs.id}`, { ...foreign, method: "PATCH", json: { enabled: false } }), 404, "not_found");
    await expectApiError(await call(deleteRoute, `/v1/webhooks/${theirs.id}`, { ...foreign, method: "DELETE" }), 404, "not_found");
    await expectApiError(await call(rotateRoute, `/v1/webhooks/${theirs.id}/rotate-secret`, { ...foreign, method: "POST" }), 404, "not_found");
    await expectApiError(await call(testRoute, `/v1/webhooks/${theirs.id}/test`, { ...foreign, method: "POST" }), 404, "not_found");
    await expectApiError(await call(deliveriesRoute, `/v1/webhooks/${theirs.id}/deliveries`, foreign), 404, "not_found");
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: BigInt(theirs.id) } })).enabled).toBe(true);
  });

  it.each([["0"], ["abc"], ["1.5"], ["99999999999999999999"]])("a malformed id (%s) is 400 invalid_path", async (id) => {
    await expectApiError(await call(getRoute, `/v1/webhooks/${id}`, one(id)), 400, "invalid_path");
  });

  it("PATCH changes url, events and description; pausing and resuming", async () => {
    const endpoint = await register({ description: "before" });
    const patch = (json: unknown) => call(patchRoute, `/v1/webhooks/${endpoint.id}`, one(endpoint.id, { method: "PATCH", json }));
    const changed = await expectJson<WebhookEndpoint>(await patch({ url: `${receiver.url}/v2`, events: ["pet.updated"], description: null }));
    expect(changed).toMatchObject({ url: `${receiver.url}/v2`, events: ["pet.updated"], description: null, enabled: true });
    const paused = await expectJson<WebhookEndpoint>(await patch({ enabled: false }));
    expect(paused).toMatchObject({ enabled: false, disabledReason: "Disabled by its owner." });
    const resumed = await expectJson<WebhookEndpoint>(await patch({ enabled: true }));
    expect(resumed).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await expectApiError(await patch({}), 400, "invalid_body");
    await expectApiError(await patch({ enabled: "yes" }), 400, "invalid_body");
    await expectApiError(await patch({ url: "https://x.example", colour: "red" }), 400, "invalid_body");
  });

  it("DELETE removes it (204), then it is 404", async () => {
    const endpoint = await register();
    const res = await call(deleteRoute, `/v1/webhooks/${endpoint.id}`, one(endpoint.id, { method: "DELETE" }));
    expect(res.status).toBe(204);
    await expectApiError(await call(getRoute, `/v1/webhooks/${endpoint.id}`, one(endpoint.id)), 404, "not_found");
  });
});

describe("secrets and the test ping", () => {
  it("rotate-secret: a new secret shown once; for 24 hours deliveries are signed with both", async () => {
    const endpoint = await register();
    const res = await call(rotateRoute, `/v1/webhooks/${endpoint.id}/rotate-secret`, one(endpoint.id, { method: "POST" }));
    const rotated = await expectJson<Created & { previousSecretExpiresAt: string }>(res);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    const overlap = new Date(rotated.previousSecretExpiresAt).getTime() - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);

    const test = await call(testRoute, `/v1/webhooks/${endpoint.id}/test`, one(endpoint.id, { method: "POST" }));
    const result = await expectJson<{ eventId: string; succeeded: boolean }>(test);
    const request = await receiver.waitFor((r) => r.headers["webhook-id"] === result.eventId);
    expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    // A receiver holding either secret verifies it.
    for (const secret of [endpoint.secret, rotated.secret]) new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(request.body, request.headers as Record<string, string>)).toThrow();

    // After the overlap, only the new one.
    await db().webhookEndpoint.update({ where: { id: BigInt(endpoint.id) }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    const later = await expectJson<{ eventId: string }>(await call(testRoute, `/v1/webhooks/${endpoint.id}/test`, one(endpoint.id, { method: "POST" })));
    const again = await receiver.waitFor((r) => r.headers["webhook-id"] === later.eventId);
    expect(String(again.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    new Webhook(rotated.secret).verify(again.body, again.headers as Record<string, string>);
    expect(() => new Webhook(endpoint.secret).verify(again.body, again.headers as Record<string, string>)).toThrow();
  });

  it("test sends a signed webhook.test event at once and answers what the receiver did; not in the feed, not in the log", async () => {
    const endpoint = await register();
    receiver.script({ status: 200, body: "pong" });
    const res = await call(testRoute, `/v1/webhooks/${endpoint.id}/test`, one(endpoint.id, { method: "POST" }));
    const result = await expectJson<{ eventId: string; succeeded: boolean; attempt: { statusCode: number; responseBody: string } }>(res);
    expect(result).toMatchObject({
      eventId: expect.stringMatching(/^evt_test_[0-9a-f]{16}$/),
      succeeded: true,
      attempt: { statusCode: 200, responseBody: "pong" },
    });
    const request = receiver.requests.find((r) => r.headers["webhook-id"] === result.eventId)!;
    const event = new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>) as {
      type: string;
      data: { endpointId: number };
    };
    expect(event).toMatchObject({ id: result.eventId, type: "webhook.test", data: { endpointId: endpoint.id } });

    receiver.script({ status: 503 });
    const failed = await expectJson<{ succeeded: boolean; attempt: { statusCode: number } }>(
      await call(testRoute, `/v1/webhooks/${endpoint.id}/test`, one(endpoint.id, { method: "POST" })),
    );
    expect(failed).toMatchObject({ succeeded: false, attempt: { statusCode: 503 } });
    expect(await expectJson(await call(deliveriesRoute, `/v1/webhooks/${endpoint.id}/deliveries`, one(endpoint.id)))).toEqual([]);
  });
});

describe("staff: a key's endpoints and disabling one", () => {
  it("GET /v1/keys/{keyId}/webhooks lists them with their state; POST .../disable stops one with the reason", async () => {
    const endpoint = await register({ description: "staff can see me" });
    const list = await expectJson<(WebhookEndpoint & { keyId: number; keyName: string })[]>(
      await call(staffListRoute, `/v1/keys/${owner.id}/webhooks`, { headers: staff.headers, params: { keyId: String(owner.id) } }),
    );
    expect(list.find((e) => e.id === endpoint.id)).toMatchObject({
      keyId: owner.id,
      keyName: "partner with webhooks",
      enabled: true,
      description: "staff can see me",
    });
    expect(JSON.stringify(list)).not.toContain("whsec_");

    const params = { keyId: String(owner.id), webhookId: String(endpoint.id) };
    const disabled = await expectJson<WebhookEndpoint>(
      await call(staffDisableRoute, `/v1/keys/${owner.id}/webhooks/${endpoint.id}/disable`, { method: "POST", headers: staff.headers, params }),
    );
    expect(disabled).toMatchObject({ enabled: false, disabledReason: `Disabled by staff (${staff.email}).` });
    // The owner sees why.
    expect(await expectJson(await call(getRoute, `/v1/webhooks/${endpoint.id}`, one(endpoint.id)))).toMatchObject({
      enabled: false,
      disabledReason: disabled.disabledReason,
    });

    // Another key's endpoint under this key's path is 404.
    const theirs = await register({}, other.key);
    await expectApiError(
      await call(staffDisableRoute, "/x", { method: "POST", headers: staff.headers, params: { keyId: String(owner.id), webhookId: String(theirs.id) } }),
      404,
      "not_found",
    );
  });

  it("staff only: API keys (even with webhooks:manage) get 403", async () => {
    await expectApiError(
      await call(staffListRoute, `/v1/keys/${owner.id}/webhooks`, { key: owner.key, params: { keyId: String(owner.id) } }),
      403,
      "forbidden",
    );
  });
});
