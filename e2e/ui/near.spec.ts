import { expect, test } from "@playwright/test";
import { cards, filterSheet, filtersButton, settledList } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations } from "./page-quality";

// Searching near a place on the browse page, as an adopter in Chicago does
// (issue 26): the demo data has shelters in Chicago (the first
// organisation), Evanston, Milwaukee and five cities farther away.

const PHONE = { width: 390, height: 844 };
/** A near page is two requests (the animals, then their shelters), after the page's later code loads: give a busy machine time. */
const SETTLE = 15_000;

/** Each card's shelter line ("Evanston Animal Friends · Evanston, IL · 11 mi away"). */
async function shelterLines(page: import("@playwright/test").Page): Promise<string[]> {
  const list = await settledList(page);
  return list
    .locator("article p")
    .filter({ hasText: / away$/ })
    .allTextContents();
}

const miles = (line: string) => (/Less than a mile/.test(line) ? 0 : Number(/([0-9,]+) mi away$/.exec(line)![1]!.replace(",", "")));

/**
 * Follows Next from the page shown until a card's shelter line starts with
 * `shelter` (the suite adds many nearer animals before this file runs), each
 * page still nearest first and within `withinMiles`. Says how many pages it
 * went forward, for going Back as many.
 */
async function followNextTo(page: import("@playwright/test").Page, shelter: string, withinMiles: number): Promise<number> {
  let pages = 0;
  let seen = await shelterLines(page);
  let lastMiles = miles(seen.at(-1)!);
  while (!seen.some((l) => l.startsWith(shelter))) {
    expect(++pages, `${shelter} is within ${withinMiles} mi`).toBeLessThan(10);
    const before = page.url();
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).not.toHaveURL(before);
    seen = await shelterLines(page);
    expect(seen.every((l) => miles(l) <= withinMiles)).toBe(true);
    expect(miles(seen[0]!)).toBeGreaterThanOrEqual(lastMiles);
    lastMiles = miles(seen.at(-1)!);
  }
  return pages;
}

test("a ZIP code in the Near box lists animals nearest first, each with its shelter and distance; Within narrows it; Back undoes it", async ({ page }) => {
  await page.goto("/?status=all&limit=50");
  await settledList(page);
  const near = page.getByRole("textbox", { name: "Near" });
  await near.fill("60601");
  await near.press("Enter");
  await expect(page).toHaveURL(/[?&]near=60601/);
  await expect(page.getByRole("status").filter({ hasText: "within 50 mi of 60601, nearest first" })).toBeVisible({ timeout: SETTLE });
  const lines = await shelterLines(page);
  expect(lines.length).toBeGreaterThan(8);
  expect(lines[0]).toMatch(/^Petstore · Chicago, IL · (Less than a mile|1 mi) away$/);
  const distances = lines.map(miles);
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  // Milwaukee is about 80 miles away: beyond the default 50 mi, listed within 100.
  expect(lines.every((l) => miles(l) <= 50)).toBe(true);
  expect(lines.some((l) => l.startsWith("Lake Country Humane Society"))).toBe(false);
  // Evanston (about 12 mi) follows every Chicago animal, and the suite adds many of those (fosters' too)
  // before this file runs: follow Next to it, still nearest first, then come back.
  const evanstonPages = await followNextTo(page, "Evanston Animal Friends · Evanston, IL", 50);
  for (let i = 0; i < evanstonPages; i++) await page.goBack();
  await expect(page.getByRole("status").filter({ hasText: "within 50 mi of 60601, nearest first" })).toBeVisible({ timeout: SETTLE });

  await page.getByRole("combobox", { name: "Within" }).selectOption("10mi");
  await expect(page).toHaveURL(/within=10mi/);
  await expect(page.getByRole("status").filter({ hasText: "within 10 mi of 60601" })).toBeVisible({ timeout: SETTLE });
  const close = await shelterLines(page);
  expect(close.length).toBeGreaterThan(0);
  expect(close.every((l) => l.startsWith("Petstore · Chicago"))).toBe(true);

  await page.getByRole("combobox", { name: "Within" }).selectOption("100mi");
  await expect(page.getByRole("status").filter({ hasText: "within 100 mi of 60601" })).toBeVisible({ timeout: SETTLE });
  // Nearest first: Milwaukee's animals come after every Chicago one, and the
  // suite adds many of those before this file runs, so follow Next to them.
  expect((await shelterLines(page)).every((l) => miles(l) <= 100)).toBe(true);
  const milwaukeePages = await followNextTo(page, "Lake Country Humane Society · Milwaukee, WI", 100);
  for (let i = 0; i < milwaukeePages; i++) await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/within=10mi/);
  await expect(page.getByRole("status").filter({ hasText: "within 10 mi of 60601" })).toBeVisible({ timeout: SETTLE });
  expect((await shelterLines(page)).every((l) => l.startsWith("Petstore · Chicago"))).toBe(true);
  // A reload restores the view from its URL.
  await page.reload();
  expect((await shelterLines(page)).every((l) => l.startsWith("Petstore · Chicago"))).toBe(true);
  await expect(page.getByRole("textbox", { name: "Near" })).toHaveValue("60601");
});

test.describe("with the browser's location shared", () => {
  // Denver: the nearest demo shelter is Mile High Animal Haven.
  test.use({ geolocation: { latitude: 39.739236, longitude: -104.990251 }, permissions: ["geolocation"] });

  test("Use my location searches near the browser's position, rounded, and Clear leaves the place", async ({ page }) => {
    await page.goto("/?status=all");
    await settledList(page);
    await page.getByRole("button", { name: "Use my location" }).click();
    await expect(page).toHaveURL(/near=39\.74(%2C|,)-104\.99(&|$)/);
    await expect(page.getByRole("status").filter({ hasText: "of your location, nearest first" })).toBeVisible({ timeout: SETTLE });
    const lines = await shelterLines(page);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.startsWith("Mile High Animal Haven · Denver, CO"))).toBe(true);
    await page.getByRole("button", { name: "Clear the place" }).click();
    await expect(page).not.toHaveURL(/near=/);
    await expect(page.getByRole("combobox", { name: "Within" })).toHaveCount(0);
  });
});

test("a location the browser will not share, a malformed ZIP code and an unknown one are each explained", async ({ page }) => {
  await page.goto("/");
  await settledList(page);
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "did not share your location" })).toBeVisible();
  const near = page.getByRole("textbox", { name: "Near" });
  await near.fill("606");
  await near.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Enter a 5-digit US ZIP code" })).toBeVisible();
  await expect(page).not.toHaveURL(/near=/);
  await near.fill("00000");
  await near.press("Enter");
  await expect(page.getByRole("main").getByRole("alert").filter({ hasText: "no such ZIP code" })).toBeVisible();
});

test("far from every shelter, the empty search offers a wider distance, then everywhere", async ({ page }) => {
  await page.goto("/?near=59001&within=10mi");
  await expect(page.getByRole("heading", { name: "No animals within 10 mi of 59001" })).toBeVisible();
  await page.getByRole("link", { name: "Search within 25 mi" }).click();
  await expect(page).toHaveURL(/within=25mi/);
  await page.getByRole("link", { name: "Search everywhere" }).click();
  await expect(page).not.toHaveURL(/near=/);
  await settledList(page);
});

test("on a phone, the Near box sits with the name search and the first animal stays on the first screen; Within is in the Filters sheet", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/?near=60601");
  await settledList(page);
  await expect(page.getByRole("textbox", { name: "Near" })).toBeVisible();
  await expect(cards(page).first().locator("img").first()).toBeInViewport({ ratio: 0.75 });
  await expectNoHorizontalScroll(page);
  await filtersButton(page).click();
  await filterSheet(page).getByRole("combobox", { name: "Within" }).selectOption("25mi");
  await expect(page).toHaveURL(/within=25mi/);
  await expect(filtersButton(page)).toHaveAccessibleName("Filters (1)");
  await page.keyboard.press("Escape");
  await expect(filterSheet(page)).toBeHidden();
  await settledList(page);
  await expectNoSeriousA11yViolations(page);
});

test("the near search has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/?near=60601&within=25mi");
  await settledList(page);
  await expectNoSeriousA11yViolations(page);
});
