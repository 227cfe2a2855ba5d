import http from "node:http";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { expectApiError } from "../helpers";
import { DEMO_STAFF, signInAsStaff, uniqueName } from "../ui/staff-helpers";

// Browser sessions on the /v1 handlers: who am I, sign in and out, and the
// rules for cookie-authenticated writes (adopters read only; CSRF).

test("every page visitor is an anonymous adopter who may only read", async ({ page }) => {
  await page.goto("/");
  const session = await page.evaluate(() => fetch("/v1/session").then((r) => r.json()));
  expect(session).toEqual({ kind: "anonymous", email: null, scopes: ["pets:read", "applications:write"], organizationId: null, platformAdmin: false });
});

test("signs staff in with the right password only", async ({ page, baseURL }) => {
  await page.goto("/");
  const origin = new URL(baseURL!).origin;
  const wrong = await page.request.post("/v1/session", { data: { email: DEMO_STAFF.email, password: "wrong-password" }, headers: { Origin: origin } });
  await expectApiError(wrong, 401, "unauthorized");
  expect((await wrong.json()).details).toEqual([{ field: "password", issue: "does not match" }]);
  await expectApiError(await page.request.post("/v1/session", { data: { email: "nope" }, headers: { Origin: origin } }), 400, "invalid_body");

  const right = await page.request.post("/v1/session", {
    data: { email: DEMO_STAFF.email.toUpperCase(), password: DEMO_STAFF.password },
    headers: { Origin: origin },
  });
  expect(right.status()).toBe(200);
  expect(await right.json()).toEqual({
    kind: "staff",
    email: DEMO_STAFF.email,
    scopes: [
      "pets:read",
      "pets:write",
      "keys:manage",
      "audit:read",
      "applications:manage",
      "organizations:manage",
      "listings:manage",
      "records:read",
      "records:write",
      "people:read",
      "people:write",
    ],
    organizationId: 1,
    platformAdmin: false,
  });
  expect(right.headers()["set-cookie"]).toMatch(/HttpOnly/);
  expect(await page.evaluate(() => fetch("/v1/session").then((r) => r.json()))).toMatchObject({ kind: "staff" });
});

test("an adopter's browser is refused when it tries to add an animal", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/");
  const status = await page.evaluate(() =>
    fetch("/v1/pets", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "x", categoryId: 1 }) }).then(
      (r) => r.status,
    ),
  );
  expect(status).toBe(403);
  await context.close();
});

test("a staff cookie does not let another site's page write (CSRF), while our own form can", async ({ context, page, baseURL }) => {
  await signInAsStaff(context, baseURL!);
  const pet = { name: "Forged", categoryId: 1 };

  const foreign = await context.request.post("/v1/pets", { data: pet, headers: { Origin: "http://evil.example" } });
  await expectApiError(foreign, 403, "forbidden");
  const crossSite = await context.request.post("/v1/pets", { data: pet, headers: { "Sec-Fetch-Site": "cross-site" } });
  await expectApiError(crossSite, 403, "forbidden");
  await expectApiError(await context.request.delete("/v1/session", { headers: { Origin: "http://evil.example" } }), 403, "forbidden");
  // Still signed in: the forged sign-out did nothing.
  expect(await (await context.request.get("/v1/session")).json()).toMatchObject({ kind: "staff" });

  const name = uniqueName("Same origin");
  await page.goto("/staff/pets/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Category").selectOption({ label: "Dogs" });
  await page.getByRole("button", { name: "Add animal" }).click();
  await expect(page.getByTestId("added-name")).toHaveText(name);
});

test("signing out makes the browser an adopter again", async ({ context, page, baseURL }) => {
  await signInAsStaff(context, baseURL!);
  await page.goto("/staff/pets/new");
  await expect(page.getByLabel("Name", { exact: true })).toBeVisible();
  const status = await page.evaluate(() => fetch("/v1/session", { method: "DELETE" }).then((r) => r.status));
  expect(status).toBe(204);

  await page.goto("/staff/pets/new");
  await expect(page.getByRole("heading", { name: "Staff only" })).toBeVisible();
  expect(await page.evaluate(() => fetch("/v1/session").then((r) => r.json()))).toEqual({
    kind: "anonymous",
    email: null,
    scopes: ["pets:read", "applications:write"],
    organizationId: null,
    platformAdmin: false,
  });
  const write = await page.evaluate(() =>
    fetch("/v1/pets", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "x", categoryId: 1 }) }).then(
      (r) => r.status,
    ),
  );
  expect(write).toBe(403);
});

test("300 cookieless page views write nothing: the sessions table is unchanged", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const count = async () => (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions")).rows[0]!.n;
  const before = await count();
  const { port } = new URL(baseURL!);
  const cookies = new Set<string>();
  for (let i = 0; i < 300; i++) {
    // A bot without a cookie jar, from an address of its own (its own address ceiling).
    const setCookie = await new Promise<string | undefined>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/pets/5", localAddress: "127.0.0.77", agent: false }, (res) => {
          res.resume();
          // Beside the language it was shown in (petstore_locale), its session.
          res.on("end", () => resolve(res.headers["set-cookie"]?.find((c) => c.includes("petstore_session="))));
        })
        .on("error", reject);
    });
    expect(setCookie).toMatch(/^__Host-petstore_session=a1\./);
    cookies.add(setCookie!.split(";")[0]!);
  }
  expect(cookies.size).toBe(300);
  expect(await count()).toBe(before);
  await client.end();
});
