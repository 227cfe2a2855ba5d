import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { bearer, cli, createKey, expectApiError } from "../helpers";
import { signInAsStaff, uniqueName } from "../ui/staff-helpers";

// Issue 11 through a running production server: changing an animal,
// idempotent creates, search and list by id, the audit trail and its CLI.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e changes partner", "--plan", "business");
});

test("changes an animal with PATCH and If-Match; a stale ETag is refused with the current one", async ({ request }) => {
  const created = await request.post("/v1/pets", { headers: bearer(key), data: { name: uniqueName("Patchy"), categoryId: 1 } });
  expect(created.status()).toBe(201);
  expect(created.headers()["etag"]).toBe('"1"');
  const pet = await created.json();

  const mergePatch = { ...bearer(key), "Content-Type": "application/merge-patch+json" };
  const changed = await request.patch(`/v1/pets/${pet.id}`, { headers: { ...mergePatch, "If-Match": '"1"' }, data: JSON.stringify({ status: "sold" }) });
  expect(changed.status()).toBe(200);
  expect(changed.headers()["etag"]).toBe('"2"');
  expect(await changed.json()).toEqual({ ...pet, status: "sold", version: 2 });

  const stale = await request.patch(`/v1/pets/${pet.id}`, { headers: { ...mergePatch, "If-Match": '"1"' }, data: JSON.stringify({ status: "available" }) });
  await expectApiError(stale, 412, "precondition_failed");
  expect(stale.headers()["etag"]).toBe('"2"');
});

test("a create retried with the same Idempotency-Key adds one animal and says it replayed", async ({ request }) => {
  const name = uniqueName("Once only");
  const headers = { ...bearer(key), "Idempotency-Key": `e2e-${name}` };
  const first = await request.post("/v1/pets", { headers, data: { name, categoryId: 2 } });
  const second = await request.post("/v1/pets", { headers, data: { name, categoryId: 2 } });
  expect([first.status(), second.status()]).toEqual([201, 201]);
  expect(await second.json()).toEqual(await first.json());
  expect(first.headers()["idempotent-replayed"]).toBeUndefined();
  expect(second.headers()["idempotent-replayed"]).toBe("true");
  const found = await request.get(`/v1/pets?q=${encodeURIComponent(name)}`, { headers: bearer(key) });
  expect(await found.json()).toHaveLength(1);
  await expectApiError(await request.post("/v1/pets", { headers, data: { name: `${name}!`, categoryId: 2 } }), 422, "idempotency_key_reused");
});

test("searches names ignoring case and accents, and lists by id", async ({ request }) => {
  const zoes = await (await request.get("/v1/pets?q=ZOE&limit=100", { headers: bearer(key) })).json();
  expect(zoes.map((p: { name: string }) => p.name)).toContain("Zoë"); // a seeded dog
  const [a, b] = await (await request.get("/v1/pets?status=available&limit=2", { headers: bearer(key) })).json();
  const byId = await (await request.get(`/v1/pets?id=${b.id},${a.id}`, { headers: bearer(key) })).json();
  expect(byId).toEqual([a, b]);
});

test("the audit trail is for staff only, and the CLI prints it", async ({ browser, baseURL, request }) => {
  const name = uniqueName("Audited");
  const pet = await (await request.post("/v1/pets", { headers: bearer(key), data: { name, categoryId: 3 } })).json();
  const patched = await request.patch(`/v1/pets/${pet.id}`, { headers: bearer(key), data: { status: "pending" } });
  expect(patched.status()).toBe(200);

  await expectApiError(await request.get(`/v1/pets/${pet.id}/history`, { headers: bearer(key) }), 403, "forbidden");
  await expectApiError(await request.get(`/v1/pets/${pet.id}/history`), 401, "unauthorized");

  const adopter = await browser.newContext({ baseURL });
  await adopter.request.get("/"); // the anonymous adopter session
  await expectApiError(await adopter.request.get(`/v1/pets/${pet.id}/history`), 403, "forbidden");
  await adopter.close();

  const staff = await browser.newContext({ baseURL });
  await signInAsStaff(staff, baseURL!);
  const history = await staff.request.get(`/v1/pets/${pet.id}/history`);
  expect(history.status()).toBe(200);
  const entries = await history.json();
  expect(entries.map((e: { action: string; version: number }) => [e.action, e.version])).toEqual([
    ["updated", 2],
    ["created", 1],
  ]);
  expect(entries[0]).toMatchObject({ actor: { kind: "api_key", name: "e2e changes partner" }, before: { status: "available" } });
  expect(entries[0].requestId).toBe(patched.headers()["x-request-id"]);
  await staff.close();

  const printed = cli("audit", "--pet", String(pet.id));
  expect(printed.status, printed.stderr).toBe(0);
  const lines = printed.stdout.trim().split("\n").slice(-2);
  expect(lines[0]).toMatch(/created v1 {2}by API key "e2e changes partner"/);
  expect(lines[0]).toContain(`name: "${name}"`);
  expect(lines[1]).toMatch(/updated v2 .* status: "available" → "pending"/);
  expect(lines[1]).toContain(`request ${patched.headers()["x-request-id"]}`);

  const missing = cli("audit", "--pet", "987654321");
  expect(missing.status).not.toBe(0);
  expect(missing.stderr).toMatch(/no animal with id 987654321/);
});

test("a partner's page on another origin can PATCH with If-Match and read the ETag (CORS)", async ({ page, baseURL, request }) => {
  const pet = await (await request.post("/v1/pets", { headers: bearer(key), data: { name: uniqueName("Cross-origin"), categoryId: 1 } })).json();
  const partnerSite = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Partner</title>"));
  await new Promise<void>((resolve) => partnerSite.listen(0, "127.0.0.1", resolve));
  const { port } = partnerSite.address() as AddressInfo;
  await page.goto(`http://localhost:${port}/`);
  const result = await page.evaluate(
    async ({ url, key, id }) => {
      const res = await fetch(`${url}/v1/pets/${id}`, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/merge-patch+json", "If-Match": '"1"' },
        body: JSON.stringify({ status: "pending" }),
      });
      const created = await fetch(`${url}/v1/pets`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `cors-${id}` },
        body: JSON.stringify({ name: "Cors twin", categoryId: 1 }),
      });
      const replay = await fetch(`${url}/v1/pets`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `cors-${id}` },
        body: JSON.stringify({ name: "Cors twin", categoryId: 1 }),
      });
      return { status: res.status, etag: res.headers.get("etag"), created: created.status, replayed: replay.headers.get("idempotent-replayed") };
    },
    { url: baseURL!, key, id: pet.id },
  );
  partnerSite.close();
  expect(result).toEqual({ status: 200, etag: '"2"', created: 201, replayed: "true" });
});
