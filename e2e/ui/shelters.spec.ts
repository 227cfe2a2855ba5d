import { expect, test, type Page } from "@playwright/test";
import { cli, createKey, createPet } from "../helpers";
import { apiGet, type ApiPet } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations } from "./page-quality";
import { uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// The adopters' side of many shelters: an animal's page says where to meet
// it; /shelters finds the shelters near a ZIP code or the browser's
// location, within a chosen distance, all in the URL; /shelters/<slug> shows
// one shelter with the animals available there. The demo data has eight
// shelters in US cities, the first (Petstore) in Chicago.

interface ApiOrganization {
  id: number;
  name: string;
  slug: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  address: { street: string | null; city: string; region: string | null; postcode: string | null; country: string } | null;
  distanceKm?: number;
}

const shelterList = (page: Page) => page.getByRole("list", { name: /^(Nearest first|Every shelter)/ });
const shelterNames = (page: Page) => shelterList(page).getByRole("heading", { level: 3 }).allTextContents();
const nearBox = (page: Page) => page.getByRole("textbox", { name: "Near" });
const within = (page: Page) => page.getByRole("combobox", { name: "Within" });
const miles = (km: number) => (km / 1.609344 < 1 ? "Under 1 mi away" : `${Math.round(km / 1.609344)} mi away`);

/** A shelter of this test's own, far from the demo shelters (Anchorage), so searches near Chicago never meet it. */
function newShelter(name: string): ApiOrganization {
  const result = cli(
    "orgs",
    "create",
    "--name",
    name,
    "--city",
    "Anchorage",
    "--region",
    "AK",
    "--postcode",
    "99501",
    "--street",
    "1 Harbor Way",
    "--phone",
    "+1 907 555 0110",
    "--json",
  );
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ApiOrganization;
}

test("an animal's page says where to meet it: the shelter's address, phone, email, website and page", async ({ page }) => {
  await page.goto("/");
  const [evanston] = await apiGet<ApiOrganization[]>(page, "/v1/organizations?slug=evanston-animal-friends");
  const [pet] = await apiGet<ApiPet[]>(page, `/v1/pets?organizationId=${evanston!.id}&limit=1`);
  await page.goto(`/pets/${pet!.id}`);

  const shelter = page.getByRole("region", { name: `Where to meet ${pet!.name}` });
  await expect(shelter).toContainText("Evanston Animal Friends");
  await expect(shelter).toContainText("2310 Oakton St");
  await expect(shelter).toContainText("Evanston, IL 60202");
  await expect(shelter.getByRole("link", { name: evanston!.phone! })).toHaveAttribute("href", "tel:+18475550142");
  await expect(shelter.getByRole("link", { name: evanston!.email! })).toHaveAttribute("href", `mailto:${evanston!.email}`);
  await expect(shelter.getByRole("link", { name: "evanston-animal-friends.example", exact: true })).toHaveAttribute("href", evanston!.website!);
  await shelter.getByRole("link", { name: /Evanston Animal Friends’s page/ }).click();
  await expect(page).toHaveURL("/shelters/evanston-animal-friends");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Evanston Animal Friends");

  // The README's picture of an animal's page.
  await page.goto(`/pets/${pet!.id}`);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 1100 });
  await docScreenshot(page, "pet.png");
});

test("/shelters: near a ZIP code, nearest first with distances in miles; Within narrows it; Back goes back", async ({ page }) => {
  await page.goto("/");
  // More than one shelter: the header links the directory.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shelters" }).click();
  await expect(page).toHaveURL("/shelters");
  await expect(page).toHaveTitle("Shelters · Petstore");
  const byName = await shelterNames(page);
  expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));

  await nearBox(page).fill("60601");
  await within(page).selectOption("100mi");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL("/shelters?near=60601&within=100mi");
  await expect(page.getByRole("heading", { name: "Nearest first, within 100 mi of 60601" })).toBeVisible();
  const near = await apiGet<ApiOrganization[]>(page, "/v1/organizations?near=60601&within=100mi");
  expect(near.slice(0, 3).map((o) => o.name)).toEqual(["Petstore", "Evanston Animal Friends", "Lake Country Humane Society"]);
  await expect.poll(() => shelterNames(page)).toEqual(near.map((o) => o.name));
  // (Each card's contact is a list of its own.)
  const cards = shelterList(page).locator(":scope > li");
  for (const [i, org] of near.entries()) {
    await expect(cards.nth(i)).toContainText(`${org.address!.city}, ${org.address!.region}`);
    await expect(cards.nth(i)).toContainText(miles(org.distanceKm!));
  }
  // The search kept the focus where it was (shown in place, not a new page).
  await expect(page.getByRole("button", { name: "Search" })).toBeFocused();

  // Changing the distance shows it at once.
  await within(page).selectOption("25mi");
  await expect(page).toHaveURL("/shelters?near=60601&within=25mi");
  await expect.poll(() => shelterNames(page)).toEqual(["Petstore", "Evanston Animal Friends"]);
  await within(page).selectOption("10mi");
  await expect.poll(() => shelterNames(page)).toEqual(["Petstore"]);

  await page.goBack();
  await expect(page).toHaveURL("/shelters?near=60601&within=25mi");
  await expect.poll(() => shelterNames(page)).toEqual(["Petstore", "Evanston Animal Friends"]);
  await expect(within(page)).toHaveValue("25mi");
  await expect(nearBox(page)).toHaveValue("60601");

  // A shared link opens the same search.
  await page.goto("/shelters?near=60601&within=25mi");
  await expect.poll(() => shelterNames(page)).toEqual(["Petstore", "Evanston Animal Friends"]);
  await expectNoSeriousA11yViolations(page);
});

test("/shelters: nothing near says so and offers a wider distance; an unknown or malformed ZIP code is said next to the box", async ({ page }) => {
  // 59001 is in Montana, hundreds of miles from every demo shelter.
  await page.goto("/shelters?near=59001&within=10mi");
  await expect(page.getByText("No shelters within 10 mi of 59001 — try a wider distance.")).toBeVisible();
  await page.getByRole("link", { name: "Search within 25 miles" }).click();
  await expect(page).toHaveURL("/shelters?near=59001&within=25mi");
  await expect(page.getByText("No shelters within 25 mi of 59001 — try a wider distance.")).toBeVisible();

  await nearBox(page).fill("00000");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL("/shelters?near=00000&within=25mi");
  await expect(nearBox(page)).toHaveAttribute("aria-invalid", "true");
  await expect(nearBox(page)).toHaveAccessibleDescription("We don't know the ZIP code 00000: check it, or use your location instead.");
  await expect(shelterList(page)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await nearBox(page).fill("Chicago");
  await nearBox(page).press("Enter");
  await expect(page).toHaveURL("/shelters?near=Chicago&within=25mi");
  await expect(nearBox(page)).toHaveAccessibleDescription(/^"Chicago" is not a ZIP code: enter the 5 digits of a US ZIP code/);

  // Corrected, the message goes.
  await nearBox(page).fill("60601");
  await page.getByRole("button", { name: "Search" }).click();
  await expect.poll(() => shelterNames(page)).toEqual(["Petstore", "Evanston Animal Friends"]);
  await expect(nearBox(page)).not.toHaveAttribute("aria-invalid");
});

test("/shelters: Use my location searches near the browser's position, rounded before it reaches the URL", async ({ page, context }) => {
  await context.grantPermissions(["geolocation"]);
  await context.setGeolocation({ latitude: 41.881832, longitude: -87.623177 });
  await page.goto("/shelters");
  await within(page).selectOption("25mi");
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page).toHaveURL("/shelters?near=41.88%2C-87.62&within=25mi");
  await expect(page.getByRole("heading", { name: "Nearest first, within 25 mi of your location" })).toBeVisible();
  await expect.poll(() => shelterNames(page)).toEqual(["Petstore", "Evanston Animal Friends"]);
});

test("/shelters: a browser that refuses its location says what to do instead", async ({ page }) => {
  await page.goto("/shelters");
  // No permission granted: Chromium refuses at once.
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "did not share your location" })).toContainText("enter a ZIP code instead");
  await expect(page).toHaveURL("/shelters");
});

test("a shelter's page lists only the animals available there, a page at a time; an unknown shelter is a 404", async ({ page }) => {
  test.slow(); // fifteen animals added through the API
  const shelter = newShelter(uniqueName("Harbor Rescue"));
  const key = createKey("e2e shelter page", "--org", shelter.slug, "--plan", "business");
  const added: ApiPet[] = [];
  for (let i = 0; i < 15; i++) {
    const status = i === 3 ? "pending" : i === 7 ? "sold" : "available";
    added.push(await createPet<ApiPet>(page.request, key, { name: `Harbor ${status} ${i}`, categoryId: 1 + (i % 3), status }));
  }
  const available = added
    .filter((p) => p.status === "available")
    .reverse()
    .map((p) => p.name);
  expect(available).toHaveLength(13);

  await page.goto(`/shelters/${shelter.slug}`);
  await expect(page).toHaveTitle(`${shelter.name} · Petstore`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(shelter.name);
  await expect(page.getByRole("region", { name: "Visit or contact" })).toContainText("1 Harbor Way");
  await expect(page.getByRole("region", { name: "Visit or contact" }).getByRole("link", { name: "+1 907 555 0110" })).toHaveAttribute(
    "href",
    "tel:+19075550110",
  );
  const animals = page.getByRole("list", { name: `Waiting for a home at ${shelter.name}` });
  await expect.poll(() => animals.getByRole("heading", { level: 3 }).allTextContents()).toEqual(available.slice(0, 12));
  await expect(animals.locator("[data-status]")).toHaveText(Array(12).fill("Available"));
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(new RegExp(`/shelters/${shelter.slug}\\?cursor=`));
  await expect.poll(() => animals.getByRole("heading", { level: 3 }).allTextContents()).toEqual(available.slice(12));
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Previous" }).click();
  await expect.poll(() => animals.getByRole("heading", { level: 3 }).allTextContents()).toEqual(available.slice(0, 12));
  await page.getByRole("link", { name: "All shelters" }).click();
  await expect(page).toHaveURL("/shelters");

  for (const slug of ["no-such-shelter", "Not_A_Slug"]) {
    const res = await page.goto(`/shelters/${slug}`);
    expect(res!.status(), slug).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn’t find that shelter");
  }
});

test("screenshots: the shelters near 60601 and a shelter's page, on a phone and a desktop; nothing scrolls sideways", async ({ page }) => {
  for (const [width, suffix] of [
    [390, "-phone"],
    [1280, ""],
  ] as const) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.goto("/shelters?near=60601&within=100mi");
    await expect(shelterList(page).locator(":scope > li")).not.toHaveCount(0);
    await expectNoHorizontalScroll(page);
    await docScreenshot(page, `shelters${suffix}.png`, { fullPage: width < 600 ? false : true });
    await page.goto("/shelters/petstore");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Petstore");
    await expectNoHorizontalScroll(page);
    await expectNoSeriousA11yViolations(page);
    await docScreenshot(page, `shelter${suffix}.png`);
  }
});
