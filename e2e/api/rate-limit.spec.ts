import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { bearer, cli, createKey, expectApiError } from "../helpers";

// Rate limits through running servers. The day quota is used for the
// shared-limit check: a day window cannot roll over mid-test (except at
// midnight UTC), unlike a minute window.

test("headers describe the binding window on every kind of answer", async ({ request }) => {
  const key = createKey("headers", "--plan", "pro");
  const responses = [
    await request.get("/v1/pets?limit=1", { headers: bearer(key) }),
    await request.post("/v1/pets", { headers: bearer(key), data: { name: "Header check", categoryId: 1 } }),
    await request.post("/v1/pets", { headers: bearer(key), data: { name: "" } }),
    await request.get("/v1/pets/999999", { headers: bearer(key) }),
  ];
  expect(responses.map((r) => r.status())).toEqual([200, 201, 400, 404]);
  responses.forEach((res, i) => {
    const h = res.headers();
    expect(h["x-ratelimit-limit"]).toBe("300");
    expect(h["x-ratelimit-remaining"]).toBe(String(300 - 1 - i));
    expect(Number(h["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    expect(h["ratelimit-policy"]).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
    expect(h["ratelimit"]).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
  });
  const anonymous = await request.get("/v1/pets");
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()["x-ratelimit-limit"]).toBe("60");
});

test("a spoofed X-Forwarded-For does not buy a fresh per-address budget", async ({ request }) => {
  const first = await request.get("/v1/pets", { headers: { "X-Forwarded-For": "198.51.100.1" } });
  const second = await request.get("/v1/pets", { headers: { "X-Forwarded-For": "198.51.100.2" } });
  expect(Number(second.headers()["x-ratelimit-remaining"])).toBe(Number(first.headers()["x-ratelimit-remaining"]) - 1);
});

test.describe("two app instances on one database", () => {
  let other: ChildProcess | undefined;
  let otherURL: string;

  test.beforeAll(async ({ baseURL }) => {
    const port = Number(new URL(baseURL!).port) + 1;
    otherURL = `http://127.0.0.1:${port}`;
    other = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts", "start"], {
      env: { ...process.env, PORT: String(port), NODE_ENV: "production", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      other!.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("Ready on") && resolve());
      other!.once("exit", (code) => reject(new Error(`second instance exited (${code})`)));
    });
  });

  test.afterAll(async () => {
    if (!other || other.exitCode !== null) return;
    const exited = new Promise((resolve) => other!.once("exit", resolve));
    other.kill("SIGTERM");
    await exited;
  });

  test("enforce one limit between them", async ({ request, baseURL }) => {
    const key = createKey("shared", "--plan", "enterprise", "--per-minute", "1000", "--per-day", "30");
    const urls = Array.from({ length: 40 }, (_, i) => `${i % 2 ? otherURL : baseURL}/v1/pets?limit=1`);
    const statuses = await Promise.all(urls.map(async (url) => (await request.get(url, { headers: bearer(key) })).status()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    // Unshared counters would have let each instance pass up to 30 (40 in all).
    await expectApiError(await request.get(`${otherURL}/v1/pets`, { headers: bearer(key) }), 429, "rate_limited");
  });

  test("a key re-planned or revoked from the CLI is seen by both within a second (their key caches hear it)", async ({ request, baseURL }) => {
    const name = `cached everywhere ${Date.now()}`;
    const key = createKey(name, "--plan", "free");
    const listed = JSON.parse(cli("keys", "list", "--json").stdout) as { id: number; name: string }[];
    const id = String(listed.find((k) => k.name === name)!.id);
    const both = [baseURL!, otherURL];
    // Both instances have resolved (and cached) the key.
    for (const url of both) for (let i = 0; i < 2; i++) expect((await request.get(`${url}/v1/pets?limit=1`, { headers: bearer(key) })).status()).toBe(200);

    /** Polls every instance until each shows `check`; returns the slowest instance's delay. */
    const seenWithin = async (check: (res: Awaited<ReturnType<typeof request.get>>) => boolean) => {
      const started = Date.now();
      const delays = await Promise.all(
        both.map(async (url) => {
          for (;;) {
            if (check(await request.get(`${url}/v1/pets?limit=1`, { headers: bearer(key) }))) return Date.now() - started;
            if (Date.now() - started > 3_000) return Infinity;
            // Measuring the delay itself: asked every 25 ms, so the slowest instance's is known to within that.
            await new Promise((r) => setTimeout(r, 25));
          }
        }),
      );
      return Math.max(...delays);
    };

    expect(cli("keys", "set-plan", id, "pro").status).toBe(0);
    expect(await seenWithin((res) => res.headers()["x-ratelimit-limit"] === "300")).toBeLessThan(1_000);

    expect(cli("keys", "revoke", id).status).toBe(0);
    expect(await seenWithin((res) => res.status() === 401)).toBeLessThan(1_000);
  });
});
