import { expect, test, type Page } from "@playwright/test";
import { eventOf, startReceiver, type Receiver } from "../../tests/webhook-receiver";
import { bearer, cli, createKey, createPet } from "../helpers";
import { createShelterWithStaff, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Staff see each key's webhook endpoints on the keys page (enabled, failing
// since when, disabled and why, the last delivery) and can disable one. The
// suite's server is `npm start`'s launcher: its deliveries reach these
// receivers, which shows `npm start` runs them too.

let healthy: Receiver;
let failing: Receiver;
let shelterStaff: { email: string; password: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // A shelter of its own for the key issued on the page: the first organisation holds more keys than its staff may issue.
  shelterStaff = createShelterWithStaff().account;
  healthy = await startReceiver();
  failing = await startReceiver();
  failing.fallback = { status: 500, body: "receiver down" };
});

test.afterAll(async () => {
  await healthy?.close();
  await failing?.close();
});

test.beforeEach(async ({ context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
});

const keyRow = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });

test("a key's endpoints with their state and last delivery; staff disable one", async ({ page, request }) => {
  const partnerName = uniqueName("Mirror site");
  const partner = createKey(partnerName, "--scopes", "pets:read,webhooks:manage");
  const writer = createKey(uniqueName("Intake desk"), "--scopes", "pets:write");
  for (const [url, description] of [
    [healthy.url, "Adoption page mirror"],
    [failing.url, "Backup mirror"],
  ]) {
    const res = await request.post("/v1/webhooks", { headers: bearer(partner), data: { url, events: ["pet.created"], description } });
    expect(res.status(), await res.text()).toBe(201);
  }
  const pet = await createPet(request, writer, { name: "Announced" });
  await healthy.waitFor((r) => (eventOf(r).data.pet as { id: number }).id === pet.id);
  await failing.waitFor((r) => (eventOf(r).data.pet as { id: number }).id === pet.id);

  await page.goto("/staff/keys");
  const toggle = keyRow(page, partnerName).getByRole("button", { name: `Webhooks of ${partnerName}` });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const table = page.getByRole("table", { name: `Webhook endpoints of ${partnerName}` });
  const row = (url: string) => table.getByRole("row").filter({ hasText: url });
  await expect(row(healthy.url)).toContainText("Enabled");
  await expect(row(healthy.url)).toContainText("pet.created");
  // The record is written just after the receiver answers: refresh until it shows.
  await expect(async () => {
    await page.reload();
    await keyRow(page, partnerName)
      .getByRole("button", { name: `Webhooks of ${partnerName}` })
      .click();
    await expect(row(healthy.url)).toContainText("Delivered (200)", { timeout: 1_000 });
    await expect(row(failing.url)).toContainText("Failing since", { timeout: 1_000 });
    await expect(row(failing.url)).toContainText("Failed (500)", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalScroll(page);
  await docScreenshot(table, "key-webhooks.png");

  await row(failing.url)
    .getByRole("button", { name: `Disable ${failing.url}` })
    .click();
  await expect(row(failing.url)).toContainText("Disabled");
  await expect(row(failing.url)).toContainText("Disabled by staff (demo@petstore.test).");
  await expect(row(failing.url).getByRole("button")).toHaveCount(0);

  // The owner sees it through the API; the CLI lists the same.
  const endpoints = await (await request.get("/v1/webhooks", { headers: bearer(partner) })).json();
  expect(endpoints.find((e: { url: string }) => e.url === failing.url)).toMatchObject({
    enabled: false,
    disabledReason: "Disabled by staff (demo@petstore.test).",
  });
  const listed = cli("webhooks", "list");
  expect(listed.status, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(`"${partnerName}"\t${failing.url}\tpet.created\tdisabled: Disabled by staff (demo@petstore.test).`);
});

test("a key issued on the page can be given webhooks:manage (off by default)", async ({ page, request, context, baseURL }) => {
  await signInAsStaff(context, baseURL!, shelterStaff);
  const name = uniqueName("Webhook partner");
  await page.goto("/staff/keys");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const scope = page.getByLabel("Register webhooks (webhooks:manage)");
  await expect(scope).not.toBeChecked();
  await scope.check();
  await page.getByRole("button", { name: "Issue key" }).click();
  const key = (await page.getByTestId("issued-key").textContent())!.trim();
  expect((await request.get("/v1/webhooks", { headers: bearer(key) })).status()).toBe(200);
  await keyRow(page, name)
    .getByRole("button", { name: `Webhooks of ${name}` })
    .click();
  await expect(page.getByText(`No webhook endpoints registered with “${name}”.`)).toBeVisible();
});
