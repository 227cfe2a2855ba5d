import http from "node:http";
import autocannon from "autocannon";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { bearer, createKey, expectApiError } from "../helpers";
import { staffJourney } from "../ui/staff-journey";
import { hasNginx, servedRequests, startInstance, startNginx, stopInstance, type Instance, type Proxy } from "./topology";

// The deployment recipe (docs/deploy.md) as it runs in production: nginx
// in front of two app instances that share PostgreSQL and Redis, with
// TRUST_PROXY on. Everything goes through the proxy's port.

test.skip(!hasNginx, "nginx is not installed (apt-get install nginx); CI installs it");
test.describe.configure({ mode: "serial" });

let a: Instance;
let b: Instance;
let proxy: Proxy;
/** Every key the spec issued: none may appear in the instances' logs. */
const issued: string[] = [];
const issue = (...args: Parameters<typeof createKey>) => {
  const key = createKey(...args);
  issued.push(key);
  return key;
};

test.beforeAll(async () => {
  // Only nginx's own address is a trusted proxy, so test clients on other
  // loopback addresses count as outside clients.
  const env = { TRUSTED_PROXIES: "127.0.0.1/32" };
  [a, b] = await Promise.all([startInstance({ env }), startInstance({ env, backgroundOfShell: true })]);
  proxy = await startNginx([a.port, b.port]);
});

test.afterAll(async () => {
  await proxy?.stop();
  for (const instance of [a, b]) if (instance) await stopInstance(instance);
});

test("the API's happy path, with URLs on the proxy's origin, served by both instances", async ({ request }) => {
  const key = issue("through the proxy", "--plan", "business");
  const before = [servedRequests(a), servedRequests(b)];

  const created = await request.post(`${proxy.origin}/v1/pets`, { headers: bearer(key), data: { name: "Proxied", categoryId: 2 } });
  expect(created.status(), await created.text()).toBe(201);
  const pet = await created.json();
  expect(created.headers()["location"]).toBe(`${proxy.origin}/v1/pets/${pet.id}`);

  const listed = await request.get(`${proxy.origin}/v1/pets?limit=2`, { headers: bearer(key) });
  expect(listed.status()).toBe(200);
  expect((await listed.json())[0]).toEqual(pet);
  expect(listed.headers()["link"]).toMatch(new RegExp(`^<${proxy.origin}/v1/pets\\?limit=2&cursor=[^>]+>; rel="next"$`));
  expect(listed.headers()["x-request-id"]).toBeTruthy();
  expect(listed.headers()["x-ratelimit-limit"]).toBe("1000");

  const one = await request.get(`${proxy.origin}/v1/pets/${pet.id}`, { headers: bearer(key) });
  expect(await one.json()).toEqual(pet);
  await expectApiError(await request.get(`${proxy.origin}/v1/pets`), 401, "unauthorized");

  // A phone-sized photo goes through (nginx's body limit is above the app's 15 MB), and its
  // URLs are on the proxy's origin; the file is served by either instance (both read PostgreSQL).
  const { default: sharp } = await import("sharp");
  const noise = Buffer.alloc(2000 * 1500 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.imul(i, 2654435761) >>> 24;
  const photo = await sharp(noise, { raw: { width: 2000, height: 1500, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  expect(photo.length).toBeGreaterThan(1024 * 1024);
  const uploaded = await request.post(`${proxy.origin}/v1/pets/${pet.id}/photos`, {
    headers: bearer(key),
    multipart: { file: { name: "big.jpg", mimeType: "image/jpeg", buffer: photo } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const url = (await uploaded.json()).urls["1280"] as string;
  expect(url.startsWith(`${proxy.origin}/photos/`)).toBe(true);
  for (let i = 0; i < 4; i++) expect((await request.get(url)).headers()["content-type"]).toBe("image/webp");

  const spec = await (await request.get(`${proxy.origin}/v1/openapi.json`)).json();
  expect(spec.servers[0].url).toBe(`${proxy.origin}/v1`);

  for (const path of ["/healthz", "/readyz"]) expect((await request.get(`${proxy.origin}${path}`)).status()).toBe(200);
  // nginx balances: each instance answered some of these.
  expect(servedRequests(a)).toBeGreaterThan(before[0]!);
  expect(servedRequests(b)).toBeGreaterThan(before[1]!);
});

/** A GET through the proxy from a given loopback address (a "client" that is not the trusted proxy 127.0.0.1). */
function getFrom(localAddress: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; remaining: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${proxy.origin}${path}`, { localAddress, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, remaining: Number(res.headers["x-ratelimit-remaining"]) }));
    });
    req.on("error", reject);
  });
}

test("the client's address is the one nginx saw, not the one it claims", async () => {
  // Anonymous requests are counted per client address: a forged
  // X-Forwarded-For must not open a fresh budget, and another client's
  // address has a budget of its own.
  const first = await getFrom("127.0.0.5", "/v1/pets", { "X-Forwarded-For": "203.0.113.1" });
  const second = await getFrom("127.0.0.5", "/v1/pets", { "X-Forwarded-For": "203.0.113.2" });
  expect(first.status).toBe(401);
  expect(second.remaining).toBe(first.remaining - 1);
  const other = await getFrom("127.0.0.6", "/v1/pets", { "X-Forwarded-For": "127.0.0.5" });
  expect(other.remaining).toBe(59);
});

test("the staff flow in Chromium through the proxy", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { animal } = await staffJourney(page, proxy.origin);
  await page.goto(`${proxy.origin}/`);
  await expect(page.getByRole("main")).toContainText(animal);
  await context.close();
});

test("one rate limit holds exactly across both instances", async ({ request }) => {
  const key = issue("shared through the proxy", "--plan", "enterprise", "--per-minute", "1000", "--per-day", "30");
  const before = [servedRequests(a), servedRequests(b)];
  const statuses = await Promise.all(
    Array.from({ length: 40 }, async () => (await request.get(`${proxy.origin}/v1/pets?limit=1`, { headers: bearer(key) })).status()),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(30);
  expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  // Both instances counted: unshared counters would have let each pass up to 30.
  expect(servedRequests(a) - before[0]!).toBeGreaterThan(0);
  expect(servedRequests(b) - before[1]!).toBeGreaterThan(0);
});

test("SIGTERM to one instance under load: no request fails, it exits 0 in time and leaves no database connection", async () => {
  test.setTimeout(60_000);
  const key = issue("load during shutdown", "--plan", "enterprise", "--per-minute", "100000000", "--per-day", "100000000");
  // b was started as a background job of a non-interactive shell (SIGINT ignored).
  const victim = b;
  const load = autocannon({
    url: `${proxy.origin}/v1/pets?limit=5`,
    headers: bearer(key),
    connections: 20,
    duration: 6,
  });
  // A deliberate sleep: the stop must come in the middle of two seconds of load, not at its start.
  await new Promise((r) => setTimeout(r, 2_000));
  const before = servedRequests(victim);
  expect(before).toBeGreaterThan(0);
  const stopped = stopInstance(victim);
  const result = await load;
  const { code, ms } = await stopped;

  expect(result.requests.total).toBeGreaterThan(100);
  expect(result.errors, "connection errors").toBe(0);
  expect(result.timeouts, "timeouts").toBe(0);
  expect(result.non2xx, "non-2xx answers").toBe(0);
  expect(code).toBe(0);
  expect(ms).toBeLessThan(10_000);

  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1", [`petstore:${victim.pid}`]);
  await client.end();
  expect(rows[0]!.n).toBe(0);
  // The other instance carried on alone.
  const readyz = await fetch(`${proxy.origin}/readyz`);
  expect(readyz.status).toBe(200);
});

test("the instances' logs carry no API key, cookie or Authorization header", () => {
  const output = [...a.output, ...b.output].join("\n");
  expect(output).toContain('"msg":"request"');
  for (const key of issued) expect(output).not.toContain(key.slice(8));
  expect(output.toLowerCase()).not.toMatch(/"(authorization|cookie)"\s*:\s*"(?!\[redacted\])/);
  expect(output).not.toMatch(/petstore_session=/);
});
