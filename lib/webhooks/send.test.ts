import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_BODY_MAX, sendWebhook } from "@/lib/webhooks/send";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";

// One attempt against a real receiver on 127.0.0.1: what counts as success,
// and how each failure is reported.

let receiver: Receiver;
const dev = { allowPrivate: true };

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const send = (url = receiver.url, options: Parameters<typeof sendWebhook>[3] = dev) =>
  sendWebhook(url, '{"hello":"world"}', { "webhook-id": "evt_1", "webhook-timestamp": "1", "webhook-signature": "v1,x" }, options);

describe("sendWebhook", () => {
  it("a 2xx is success: the body and headers arrive as given, the answer is kept", async () => {
    receiver.script({ status: 204, body: "" }, { status: 200, body: "thanks" });
    const first = await send();
    expect(first).toMatchObject({ ok: true, statusCode: 204, error: null, responseBody: null });
    expect((await send()).responseBody).toBe("thanks");
    const request = receiver.requests.at(-1)!;
    expect(request.body).toBe('{"hello":"world"}');
    expect(request.headers).toMatchObject({ "content-type": "application/json", "webhook-id": "evt_1", "webhook-signature": "v1,x" });
    expect(request.headers["user-agent"]).toMatch(/^Petstore-Webhooks\//);
  });

  it("any other status is a failure, a redirect included (never followed)", async () => {
    receiver.script({ status: 500, body: "boom" }, { status: 302, headers: { location: `${receiver.url}/elsewhere` } }, { status: 410 });
    const before = receiver.requests.length;
    expect(await send()).toMatchObject({ ok: false, statusCode: 500, error: null, responseBody: "boom" });
    expect(await send()).toMatchObject({ ok: false, statusCode: 302 });
    expect(await send()).toMatchObject({ ok: false, statusCode: 410 });
    expect(receiver.requests.length - before).toBe(3);
    expect(receiver.requests.some((r) => r.path.endsWith("/elsewhere"))).toBe(false);
  });

  it("keeps at most 4 kB of the answer", async () => {
    receiver.script({ status: 200, body: "x".repeat(50_000) });
    const outcome = await send();
    expect(outcome.ok).toBe(true);
    expect(outcome.responseBody).toHaveLength(RESPONSE_BODY_MAX);
  });

  it("deliveries to a receiver in quick succession share a kept-alive connection; one it closed meanwhile costs no failure", async () => {
    const own = await startReceiver();
    try {
      for (let i = 0; i < 5; i++) expect((await send(own.url)).ok).toBe(true);
      expect(own.connections()).toBe(1);
      // The receiver closes idle connections after 2 s: the next delivery opens a new one, and succeeds.
      await new Promise((r) => setTimeout(r, 2_300));
      expect((await send(own.url)).ok).toBe(true);
      expect(own.connections()).toBe(2);
    } finally {
      await own.close();
    }
  });

  it("no answer in time is a timeout", async () => {
    receiver.script("hang");
    const outcome = await send(receiver.url, { ...dev, timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timeout" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(3_000);
  });

  it("a closed port is connection_refused; TLS spoken to a plain server is tls_error", async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    expect(await send(`http://127.0.0.1:${closedPort}/hook`)).toMatchObject({ ok: false, statusCode: null, error: "connection_refused" });
    expect(await send(`https://127.0.0.1:${receiver.port}/hook`)).toMatchObject({ ok: false, statusCode: null, error: "tls_error" });
  });

  it("refuses a target the guard refuses, before connecting: address_not_allowed", async () => {
    const before = receiver.requests.length;
    const outcome = await send(receiver.url, { allowPrivate: false });
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "address_not_allowed" });
    expect(receiver.requests.length).toBe(before);
    expect((await send("http://169.254.169.254/latest/meta-data", dev)).error).toBe("address_not_allowed");
  });

  it("connects to the address the guard checked, not to a second DNS answer", async () => {
    // "rebind.invalid" cannot resolve (RFC 6761): the request arriving proves
    // the connection used the checked address, and the Host header keeps the name.
    const url = `http://rebind.invalid:${receiver.port}/hook`;
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    receiver.script({ status: 200 });
    expect(await send(url, { ...dev, resolve })).toMatchObject({ ok: true, statusCode: 200 });
    expect(lookups).toBe(1);
    expect(receiver.requests.at(-1)!.headers.host).toBe(`rebind.invalid:${receiver.port}`);
    // The same name resolving to a metadata address is refused at delivery time.
    const rebound = async () => [{ address: "169.254.169.254", family: 4 }];
    expect((await send(url, { ...dev, resolve: rebound })).error).toBe("address_not_allowed");
    // A name that no longer resolves: the same kind and words as one that resolves inside (which internal names exist is not the endpoint owner's to learn).
    const gone = await send(url, dev);
    const inside = await send(url, { ...dev, resolve: rebound });
    expect([gone.error, gone.errorDetail]).toEqual([inside.error, inside.errorDetail]);
    expect(gone.error).toBe("address_not_allowed");
  });

  it("an abort (shutdown) is reported as such, for the delivery to be handed back", async () => {
    receiver.script("hang");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await send(receiver.url, { ...dev, signal: controller.signal })).toMatchObject({ ok: false, error: "shutdown" });
  });
});
