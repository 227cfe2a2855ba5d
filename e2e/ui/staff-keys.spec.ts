import { expect, test, type Page } from "@playwright/test";
import { bearer, expectApiError } from "../helpers";
import {
  createShelterWithStaff,
  createStaffAccount,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  signInAsStaff,
  uniqueName,
} from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// The keys page: issue (shown once), copy, list, revoke, lift a ban. A
// shelter's staff issue its keys on free, pro or business, at most 20 live;
// enterprise plans and their limits are a platform admin's to give.

let shelterStaff: { email: string; password: string };
let platformAdmin: { email: string; password: string };

test.beforeAll(() => {
  // Three CLI runs: slow on a machine busy with other builds.
  test.setTimeout(120_000);
  // A shelter of its own, with room for the keys this file issues (the suite gives the first organisation many).
  shelterStaff = createShelterWithStaff("Happy Tails Rescue").account;
  platformAdmin = createStaffAccount("--platform-admin");
});

test.beforeEach(async ({ context, baseURL }) => {
  await signInAsStaff(context, baseURL!, shelterStaff);
});

/** Signs the page's context in as a platform admin instead, for what only the platform decides. */
async function asPlatformAdmin(page: Page, baseURL: string): Promise<void> {
  await signInAsStaff(page.context(), baseURL, platformAdmin);
}

async function issueKey(page: Page, name: string, plan = "free", limits?: { perMinute: number; perDay: number }): Promise<string> {
  await page.goto("/staff/keys");
  await page.getByLabel("Name", { exact: true }).fill(name);
  // A platform admin says whose key it is: here, a platform key.
  if (await page.getByLabel("A platform key (every organisation)").count()) await page.getByLabel("A platform key (every organisation)").check();
  await page.getByLabel("Plan").selectOption(plan);
  if (limits) {
    await page.getByLabel("Requests per minute").fill(String(limits.perMinute));
    await page.getByLabel("Requests per day").fill(String(limits.perDay));
  }
  await page.getByRole("button", { name: "Issue key" }).click();
  const box = page.getByRole("region", { name: `New key for ${name}` });
  await expect(box).toBeVisible();
  await expect(box).toContainText("it will not be shown again");
  const key = (await box.getByTestId("issued-key").textContent())!.trim();
  expect(key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
  return key;
}

const keyRow = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });

test("issues a key shown once, copies it, and the key works until revoked", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const name = uniqueName("Happy Tails app");
  const key = await issueKey(page, name);
  await expect(page).toHaveTitle("API keys · Petstore");
  await expect(page.getByRole("region", { name: `New key for ${name}` }).getByRole("heading")).toBeFocused();

  await page.getByRole("button", { name: "Copy key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // The key is listed (never in full) as soon as it is issued.
  const display = `${key.slice(0, 8)}…${key.slice(-4)}`;
  await expect(keyRow(page, name)).toContainText(display);
  await expect(keyRow(page, name)).toContainText("Active");

  const res = await request.get("/v1/pets", { headers: bearer(key) });
  expect(res.status()).toBe(200);

  await page.reload();
  await expect(keyRow(page, name)).toBeVisible();
  await expect(keyRow(page, name).getByRole("cell").nth(0)).toHaveText(display);
  await expect(keyRow(page, name)).toContainText("Free");
  await expect(keyRow(page, name)).toContainText("60/min");
  await expect(keyRow(page, name)).toContainText("1,000/day");
  // Its use a moment ago is counted (and "last used" is set in the background).
  await expect(keyRow(page, name)).toContainText("1 of 1,000");
  expect(await page.content()).not.toContain(key);
  await expect(page.getByTestId("issued-key")).toHaveCount(0);

  // Revoking asks first.
  await keyRow(page, name)
    .getByRole("button", { name: /^Revoke/ })
    .click();
  await expect(keyRow(page, name)).toContainText("Active");
  await keyRow(page, name)
    .getByRole("button", { name: /^Confirm revoke/ })
    .click();
  await expect(keyRow(page, name)).toContainText("Revoked");
  await expect(page.getByRole("status").filter({ hasText: `Revoked the key “${name}”.` })).toBeVisible();
  await expect(keyRow(page, name).getByRole("button")).toHaveCount(0);
  await expectApiError(await request.get("/v1/pets", { headers: bearer(key) }), 401, "unauthorized");
});

test("a key issued while the list is still loading is listed (the slow first answer does not hide it)", async ({ page }) => {
  // The list's first request is held until after the key is issued: its
  // answer predates the key, and must not be the last word.
  let held: (() => void) | undefined;
  const gate = new Promise<void>((resolve) => (held = resolve));
  let first = true;
  await page.route("**/v1/keys", async (route) => {
    if (route.request().method() === "GET" && first) {
      first = false;
      const response = await route.fetch();
      await gate;
      await route.fulfill({ response });
      return;
    }
    await route.fallback();
  });
  const name = uniqueName("Issued while loading");
  await page.goto("/staff/keys");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Issue key" }).click();
  await expect(page.getByRole("region", { name: `New key for ${name}` })).toBeVisible();
  held!();
  await expect(keyRow(page, name)).toContainText("Active");
});

test("a revoke can be cancelled", async ({ page }) => {
  const name = uniqueName("Second thoughts");
  await issueKey(page, name);
  await keyRow(page, name)
    .getByRole("button", { name: /^Revoke/ })
    .click();
  await keyRow(page, name).getByRole("button", { name: "Cancel" }).click();
  await expect(keyRow(page, name).getByRole("button", { name: /^Revoke/ })).toBeVisible();
  await expect(keyRow(page, name)).toContainText("Active");
});

test("a shelter's staff are offered free, pro and business only, and told the limit of live keys", async ({ page }) => {
  await page.goto("/staff/keys");
  const plans = await page.getByLabel("Plan").locator("option").allTextContents();
  expect(plans.map((p) => p.split(" ")[0])).toEqual(["Free", "Pro", "Business"]);
  await expect(page.getByLabel("Requests per minute")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "How keys work" })).toContainText("up to 20 keys that are not revoked");
});

test("checks the form with the API's schema: limits only for enterprise, and then both (a platform admin)", async ({ page, baseURL }) => {
  await asPlatformAdmin(page, baseURL!);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/v1/keys") posts.push(r.url());
  });
  await page.goto("/staff/keys");
  await expect(page.getByLabel("Requests per minute")).toHaveCount(0);
  await page.getByRole("button", { name: "Issue key" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleDescription(/Name must not be blank\./);

  const partner = uniqueName("Big partner");
  await page.getByLabel("Name", { exact: true }).fill(partner);
  await page.getByLabel("A platform key (every organisation)").check();
  await page.getByLabel("Plan").selectOption("enterprise");
  await page.getByLabel("Requests per day").fill("5000");
  await page.getByRole("button", { name: "Issue key" }).click();
  await expect(page.locator("#key-per-minute-error")).toHaveText("The enterprise plan needs both per-minute and per-day figures.");
  await expect(page.getByLabel("Requests per minute")).toHaveAttribute("aria-invalid", "true");
  expect(posts).toHaveLength(0);

  // Back on a fixed plan, the custom figures are dropped rather than refused.
  await page.getByLabel("Plan").selectOption("pro");
  await expect(page.getByLabel("Requests per day")).toHaveCount(0);
  await page.getByRole("button", { name: "Issue key" }).click();
  await expect(page.getByRole("region", { name: `New key for ${partner}` })).toBeVisible();
  await expect(keyRow(page, partner)).toContainText("300/min");
  expect(posts).toHaveLength(1);
});

test("shows a banned key and lifts its ban (a platform admin's enterprise key)", async ({ page, request, baseURL }) => {
  await asPlatformAdmin(page, baseURL!);
  const name = uniqueName("Too eager");
  const key = await issueKey(page, name, "enterprise", { perMinute: 1, perDay: 100 });
  await expect(keyRow(page, name)).toContainText("1/min");
  await expect(keyRow(page, name)).toContainText("100/day");

  // One request a minute: the first passes, the next are limited, and the
  // request that crosses twice the figure gets the key banned.
  const codes: string[] = [];
  for (let i = 0; i < 8 && !codes.includes("key_temporarily_banned"); i++) {
    const res = await request.get("/v1/pets?limit=1", { headers: bearer(key) });
    codes.push(res.status() === 200 ? "ok" : (await res.json()).code);
  }
  expect(codes[0]).toBe("ok");
  expect(codes).toContain("rate_limited");
  expect(codes.at(-1)).toBe("key_temporarily_banned");

  await page.reload();
  await expect(keyRow(page, name)).toContainText("Banned until");
  await keyRow(page, name)
    .getByRole("button", { name: /^Lift ban/ })
    .click();
  await expect(keyRow(page, name)).toContainText("Active");
  await expect(keyRow(page, name).getByRole("button", { name: /^Lift ban/ })).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: `Lifted the ban on “${name}”.` })).toBeVisible();

  // No longer banned (at most still over this minute's figure).
  const after = await request.get("/v1/pets?limit=1", { headers: bearer(key) });
  if (after.status() !== 200) await expectApiError(after, 429, "rate_limited");
});

test("has no serious accessibility violations and fits a phone", async ({ page }) => {
  await issueKey(page, uniqueName("Checked by axe"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await issueKey(page, uniqueName("Phone"));
  await page.getByLabel("Plan").selectOption("business");
  await expect(page.getByRole("table", { name: "API keys" })).toBeVisible();
  await expectNoHorizontalScroll(page);
});

test("a platform admin's form fits a phone too, with the enterprise plan's limits", async ({ page, baseURL }) => {
  await asPlatformAdmin(page, baseURL!);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/staff/keys");
  await page.getByLabel("Plan").selectOption("enterprise");
  await expect(page.getByLabel("Requests per minute")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoSeriousA11yViolations(page);
});

test("screenshot: the keys page with a key just issued", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await issueKey(page, "Happy Tails adoption app");
  await page.mouse.move(0, 0);
  await docScreenshot(page, "keys.png");
});
