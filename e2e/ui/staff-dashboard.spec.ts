import { expect, test, type Page } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import type { ApiPet } from "./site-helpers";
import { DEMO_STAFF, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Staff's dashboard (/staff): where staff land after signing in; its figures
// are the API's (GET /v1/dashboard) and move with what staff and adopters do;
// the chart is server-drawn SVG with the same figures in a table.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e dashboard partner", "--plan", "business", "--scopes", "pets:read,pets:write,applications:write");
});

/** A figure of a section, by its label (a <dt>, its value the next <dd>). */
const figure = (page: Page, label: string) => page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
const thisWeek = (page: Page) => page.getByRole("table").getByRole("row").filter({ hasText: "this week, so far" });

test("staff land on it after signing in; its figures are the API's and follow an intake, an application and an adoption", async ({ page }) => {
  await page.goto("/staff/sign-in");
  await page.getByLabel("Email").fill(DEMO_STAFF.email);
  await page.getByLabel("Password").fill(DEMO_STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/staff");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
  await expect(page.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

  const api = (await (await page.request.get("/v1/dashboard")).json()) as {
    animals: { available: number; pending: number; sold: number };
    applications: { waiting: number };
    weeks: { week: string; intakes: number; adoptions: number }[];
  };
  await expect(figure(page, "Available")).toHaveText(String(api.animals.available));
  await expect(figure(page, "Pending")).toHaveText(String(api.animals.pending));
  await expect(figure(page, "Adopted")).toHaveText(String(api.animals.sold));
  await expect(figure(page, "Waiting for a decision").first()).toHaveText(String(api.applications.waiting));

  // The table: a Week column and twelve weeks, the last one this week.
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["Week", "Intakes", "Adoptions"]);
  await expect(table.locator("tbody tr")).toHaveCount(12);
  const last = api.weeks.at(-1)!;
  await expect(thisWeek(page).locator("time")).toHaveAttribute("datetime", last.week);
  await expect(thisWeek(page).getByRole("cell")).toHaveText([String(last.intakes), String(last.adoptions)]);
  // The chart is one image, with a summary, drawn on the server.
  await expect(page.getByRole("img", { name: /^Bar chart: \d+ intakes and \d+ adoptions over the last 12 weeks/ })).toBeVisible();

  // An intake, an application for it, and an adoption of another animal.
  const add = (name: string) => createPet<ApiPet>(page.request, key, { name, categoryId: 2 });
  const [applied, adopted] = [await add(uniqueName("Dashboard")), await add(uniqueName("Dashboard adopted"))];
  const application = await page.request.post(`/v1/pets/${applied.id}/applications`, {
    headers: bearer(key),
    data: { name: "Robin Vale", email: `robin.${Date.now()}@example.org`, home: "house", message: "A quiet home with a garden.", consent: true },
  });
  expect(application.status(), await application.text()).toBe(201);
  const sold = await page.request.patch(`/v1/pets/${adopted.id}`, {
    headers: { ...bearer(key), "Content-Type": "application/merge-patch+json", "If-Match": '"1"' },
    data: { status: "sold" },
  });
  expect(sold.status(), await sold.text()).toBe(200);

  await page.reload();
  await expect(figure(page, "Available")).toHaveText(String(api.animals.available + 1));
  await expect(figure(page, "Adopted")).toHaveText(String(api.animals.sold + 1));
  await expect(figure(page, "Waiting for a decision").first()).toHaveText(String(api.applications.waiting + 1));
  await expect(page.getByText(/The oldest has waited/)).toBeVisible();
  await expect(thisWeek(page).getByRole("cell")).toHaveText([String(last.intakes + 2), String(last.adoptions + 1)]);

  await docScreenshot(page, "dashboard.png", { fullPage: true });

  await page.getByRole("link", { name: "Open the inbox" }).click();
  await expect(page).toHaveURL(/\/staff\/applications$/);
});

test("is readable on a phone and by a screen reader, and is drawn on the server (whole without JavaScript)", async ({ page, context, baseURL, browser }) => {
  await signInAsStaff(context, baseURL!);
  await page.goto("/staff");
  await expect(page.getByRole("heading", { name: "Intakes and adoptions per week" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalScroll(page);

  // The same session in a browser that runs no script: every figure, the chart and the table are there.
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
  try {
    const bare = await noScript.newPage();
    await bare.goto(`${baseURL}/staff`);
    await expect(bare.getByRole("img", { name: /^Bar chart:/ })).toBeVisible();
    await expect(bare.getByRole("table").locator("tbody tr")).toHaveCount(12);
    await expect(figure(bare, "Available")).toHaveText(/^\d+$/);
    await expect(figure(bare, "Median days from intake to adoption")).toHaveText(/^(\d+(\.\d)? days?|–)$/);
  } finally {
    await noScript.close();
  }
});

test("offers to sign in to anyone else", async ({ page }) => {
  await page.goto("/staff");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
  await expect(page.getByRole("heading", { name: "Staff only" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign in as staff" })).toHaveAttribute("href", "/staff/sign-in?next=/staff");
  await expect(page.getByRole("table")).toHaveCount(0);
  // The visitor's own (adopter) session may not read the figures either.
  const res = await page.request.get("/v1/dashboard");
  expect(res.status()).toBe(403);
});
