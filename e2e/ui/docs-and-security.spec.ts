import { expect, test } from "@playwright/test";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, watchCsp } from "./page-quality";

test("/docs is the API reference, rendered from the OpenAPI document", async ({ page, request }) => {
  // A long page (every operation, organisations' included, each Pet with the listing sites' fields):
  // its axe check alone takes 20 to 40 s on a busy machine.
  test.setTimeout(150_000);
  const csp = watchCsp(page);
  await page.goto("/docs");
  await expect(page).toHaveTitle("API reference · Petstore");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Petstore API");
  const doc = await (await request.get("/v1/openapi.json")).json();
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string; deprecated?: boolean }>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const section = page.locator(`section#${op.operationId}`);
      await expect(section.getByRole("heading", { level: 3 })).toContainText(method);
      await expect(section.getByRole("heading", { level: 3 })).toContainText(path);
      if (op.deprecated) await expect(section.getByText("deprecated", { exact: true })).toBeVisible();
    }
  }
  // The adoption workflow's headers and answers are in the reference too.
  const updatePet = page.locator("section#updatePet");
  await expect(updatePet).toContainText("If-Match");
  await expect(updatePet).toContainText("application/merge-patch+json or application/json");
  await expect(updatePet.getByRole("cell", { name: "412", exact: true })).toBeVisible();
  const createPet = page.locator("section#createPet");
  await expect(createPet).toContainText("Idempotency-Key");
  await expect(createPet).toContainText("Idempotent-Replayed");
  for (const status of ["409", "422"]) await expect(createPet.getByRole("cell", { name: status, exact: true })).toBeVisible();
  await expect(page.locator("section#listPets")).toContainText("id (query, array");
  // The change feed, the webhook endpoints, and the events we send (the document's webhooks section).
  await expect(page.locator("section#listEvents")).toContainText("after (query");
  await expect(page.getByRole("heading", { name: "Webhooks: the requests we send you" })).toBeVisible();
  for (const name of Object.keys(doc.webhooks as Record<string, unknown>)) {
    // The id is the event's operationId: every dot a dash (pet.stay.started -> pet-stay-started-event).
    const section = page.locator(`section#${name.replaceAll(".", "-")}-event`);
    await expect(section.getByRole("heading", { level: 3 })).toContainText(name);
    await expect(section).toContainText("webhook-signature (header");
  }
  await expect(page.getByRole("link", { name: "/v1/openapi.json" })).toHaveAttribute("href", "/v1/openapi.json");
  await expectNoSeriousA11yViolations(page);
  expect(csp).toEqual([]);
});

test("/docs fits a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs");
  await expectNoHorizontalScroll(page);
});

for (const path of ["/", "/docs", "/staff/sign-in"]) {
  test(`${path} is served with the security headers`, async ({ request }) => {
    const res = await request.get(path);
    const h = res.headers();
    expect(h["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"]).toContain("object-src 'none'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["x-frame-options"]).toBe("DENY");
    // The nonce changes on every response, so a leaked one is worth nothing.
    const again = (await request.get(path)).headers()["content-security-policy"];
    expect(again).not.toBe(h["content-security-policy"]);
  });
}

test("every visitor gets an HttpOnly, SameSite=Lax, Secure, __Host- adopter session cookie", async ({ page, context }) => {
  await page.goto("/");
  const cookie = (await context.cookies()).find((c) => c.name === "__Host-petstore_session");
  expect(cookie).toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(cookie!.sameSite).toBe("Lax");
  expect(cookie!.secure).toBe(true);
  expect(await page.evaluate(() => document.cookie)).not.toContain("petstore_session");
  const session = await page.evaluate(() => fetch("/v1/session").then((r) => r.json()));
  expect(session).toEqual({ kind: "anonymous", email: null, scopes: ["pets:read", "applications:write"], organizationId: null, platformAdmin: false });
});
