import { expect, test } from "@playwright/test";
import { expectApiError } from "../helpers";
import { createShelterWithStaff, DEMO_STAFF } from "./staff-helpers";
import { staffJourney } from "./staff-journey";

// The site is reached by many names. The suite's server has PUBLIC_BASE_URL
// (http://127.0.0.1:<port>/v1: it sends email, whose links are built on it),
// but reached as localhost or petstore.internal nothing but the request
// itself tells it which origin is its own.

// Its own shelter's staff: the first organisation holds more keys than its staff may issue.
let shelterStaff: { email: string; password: string };
test.beforeAll(() => {
  // Two CLI runs: slow on a machine busy with other builds.
  test.setTimeout(120_000);
  shelterStaff = createShelterWithStaff().account;
});

for (const host of ["127.0.0.1", "localhost"]) {
  test(`staff sign in, add an animal and issue a key at http://${host}`, async ({ browser, baseURL }) => {
    const origin = `http://${host}:${new URL(baseURL!).port}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await staffJourney(page, origin, shelterStaff);
    // The session cookie is the production one: Secure, __Host- prefixed
    // (browsers keep those over plain HTTP on loopback names only).
    const cookie = (await context.cookies(origin)).find((c) => c.name === "__Host-petstore_session");
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" });
    await context.close();
  });
}

test("another host name in the Host header works, and a foreign Origin is still refused", async ({ playwright, baseURL }) => {
  const port = new URL(baseURL!).port;
  const host = `petstore.internal:${port}`;
  // Sent to 127.0.0.1 with the Host a client resolving petstore.internal would send (as curl --resolve does).
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Host: host } });
  const page = await api.get("/");
  expect(page.status()).toBe(200);
  const signIn = await api.post("/v1/session", { data: DEMO_STAFF, headers: { Origin: `http://${host}` } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const created = await api.post("/v1/pets", { data: { name: "Named host", categoryId: 1 }, headers: { Origin: `http://${host}` } });
  expect(created.status(), await created.text()).toBe(201);
  expect(created.headers()["location"]).toMatch(new RegExp(`^http://petstore\\.internal:${port}/v1/pets/\\d+$`));

  await expectApiError(await api.post("/v1/pets", { data: { name: "Forged", categoryId: 1 }, headers: { Origin: "http://evil.example" } }), 403, "forbidden");
  // Another name of this very server is still another origin (127.0.0.1 is PUBLIC_BASE_URL's, which is one of ours).
  await expectApiError(
    await api.post("/v1/pets", { data: { name: "Forged", categoryId: 1 }, headers: { Origin: `http://localhost:${port}` } }),
    403,
    "forbidden",
  );
  await api.dispose();
});
