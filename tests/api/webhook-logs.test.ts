import { afterAll, beforeAll, expect, it } from "vitest";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { POST as rotateRoute } from "@/app/v1/webhooks/[webhookId]/rotate-secret/route";
import { POST as testRoute } from "@/app/v1/webhooks/[webhookId]/test/route";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { captureLogLines } from "@/tests/log-capture";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { call, expectJson, newKey, allowPrivateWebhooks } from "./helpers";

// Its webhook receivers listen on 127.0.0.1.
allowPrivateWebhooks();

// Webhook secrets are shown to their owner twice (registration, rotation)
// and never written to a log line, whatever the log level: not the secret,
// not its base64 key, not a signature made with it.

const { lines } = captureLogLines();

let work: BackgroundWork;
let receiver: Receiver;

beforeAll(async () => {
  work = startBackgroundWork();
  receiver = await startReceiver();
});

afterAll(async () => {
  await work?.stop();
  await receiver?.close();
});

it("no log line carries a webhook secret or a signature, through registration, rotation, deliveries and a test ping", async () => {
  const { key } = await newKey(["pets:write", "webhooks:manage"], "logged partner");
  const created = await expectJson<{ id: number; secret: string }>(
    await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: receiver.url, events: ["pet.created"] } }),
    201,
  );
  const params = { webhookId: String(created.id) };
  const rotated = await expectJson<{ secret: string }>(await call(rotateRoute, "/x", { method: "POST", key, params }));
  await expectJson(await call(testRoute, "/x", { method: "POST", key, params }));
  receiver.script({ status: 500 });
  await expectJson(await call(createPetRoute, "/v1/pets", { method: "POST", key, json: { name: "Quietly logged", categoryId: 1 } }), 201);
  await receiver.waitForCount(
    (r) => r.headers["webhook-id"]?.toString().startsWith("evt_") === true && !r.headers["webhook-id"]!.toString().startsWith("evt_test"),
    2,
  );
  await expect.poll(() => lines.filter((l) => l.includes('"msg":"webhook attempt"')).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

  const signatures = receiver.requests.flatMap((r) =>
    String(r.headers["webhook-signature"])
      .split(" ")
      .map((s) => s.slice(3)),
  );
  const secrets = [created.secret, created.secret.slice(6), rotated.secret, rotated.secret.slice(6), ...signatures];
  const all = lines.join("\n");
  expect(lines.length).toBeGreaterThan(5);
  for (const secret of secrets) expect(all).not.toContain(secret);
  expect(all).not.toContain("whsec_");
});
