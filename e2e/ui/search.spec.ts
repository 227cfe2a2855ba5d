import { expect, test } from "@playwright/test";
import { animalList, apiGet, cardNames, settledList, statusTab, type ApiPet } from "./site-helpers";
import { recordRequests } from "./staff-helpers";

// Name search on the browse page: a box whose text lives in the URL (?q=)
// like the other filters, debounced, with an empty state naming the search.

const searchBox = (page: import("@playwright/test").Page) => page.getByRole("searchbox", { name: "Search by name" });

test("typing searches names (case and accents ignored) once typing pauses, and the search is in the URL", async ({ page }) => {
  await page.goto("/?status=all");
  await settledList(page);
  const lists = recordRequests(page, "GET", "/v1/pets");
  await searchBox(page).pressSequentially("zoe", { delay: 40 });
  await expect(page).toHaveURL("/?q=zoe&status=all");
  const expected = await apiGet<ApiPet[]>(page, "/v1/pets?q=zoe");
  expect(expected.map((p) => p.name)).toContain("Zoë");
  expect(await cardNames(page)).toEqual(expected.map((p) => p.name));
  await expect(page.getByRole("status").filter({ hasText: "matching “zoe”" })).toBeVisible();
  // Debounced: one list request for the whole word, not one per key.
  expect(lists.map((r) => new URL(r.url()).searchParams.get("q"))).toEqual(["zoe"]);

  await page.reload();
  await expect(searchBox(page)).toHaveValue("zoe");
  expect(await cardNames(page)).toEqual(expected.map((p) => p.name));
});

test("the search combines with the status tabs, and Back leaves it", async ({ page }) => {
  await page.goto("/");
  await settledList(page);
  await searchBox(page).fill("a");
  await expect(page).toHaveURL("/?q=a");
  const expected = await apiGet<ApiPet[]>(page, "/v1/pets?q=a&status=available");
  expect(await cardNames(page)).toEqual(expected.map((p) => p.name));

  // Refining the search replaces its history entry; Back returns to the unsearched view.
  await searchBox(page).fill("ar");
  await expect(page).toHaveURL("/?q=ar");
  await statusTab(page, "All").click();
  await expect(page).toHaveURL("/?q=ar&status=all");
  await page.goBack();
  await expect(page).toHaveURL("/?q=ar");
  await page.goBack();
  await expect(page).toHaveURL("/");
  await expect(searchBox(page)).toHaveValue("");
  await settledList(page);
});

test("a search that finds nothing says what was searched, and clears", async ({ page }) => {
  await page.goto("/");
  await settledList(page);
  await searchBox(page).fill("xyzzy");
  await searchBox(page).press("Enter"); // at once, without waiting for the pause
  await expect(page).toHaveURL("/?q=xyzzy");
  await expect(page.getByRole("heading", { name: "No animals match “xyzzy”" })).toBeVisible();
  await expect(animalList(page)).toHaveCount(0);
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page).toHaveURL("/");
  await expect(searchBox(page)).toHaveValue("");
  await settledList(page);
});

test("percent and underscore are searched for as themselves", async ({ page }) => {
  await page.goto("/?q=%25");
  await expect(page.getByRole("heading", { name: "No animals match “%”" })).toBeVisible();
});

test("a search link works without JavaScript, rendered on the server", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/?q=BISCUIT");
  await expect(searchBox(page)).toHaveValue("BISCUIT");
  await expect(animalList(page).getByRole("heading", { level: 3 })).toContainText(["Biscuit"]);
  await context.close();
});
