import { expect, test } from "@playwright/test";
import pg from "pg";
import { bearer, createKey, createPet } from "../helpers";
import { apiGet, cardNames, cards, coverOf, settledList, spendRateLimit, type ApiCategory, type ApiPet } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations } from "./page-quality";

// One animal's page, /pets/[id], reached from the browser or by its address.

test("a card opens the animal's page, and the page leads back", async ({ page }) => {
  await page.goto("/");
  const [name] = await cardNames(page);
  const [pet] = await apiGet<ApiPet[]>(page, "/v1/pets?limit=1");
  const categories = await apiGet<ApiCategory[]>(page, "/v1/categories");
  expect(pet!.name).toBe(name);

  await cards(page).first().getByRole("link", { name }).click();
  await expect(page).toHaveURL(`/pets/${pet!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name!);
  await expect(page).toHaveTitle(`${name} · Petstore`);
  const details = page.getByRole("article");
  await expect(details).toContainText(categories.find((c) => c.id === pet!.categoryId)!.name);
  await expect(details.locator("[data-status]")).toHaveText({ available: "Available", pending: "Pending", sold: "Sold" }[pet!.status]);
  // (The gallery shows the cover large and again as its first thumbnail.)
  await expect(coverOf(details, pet!).first()).toBeVisible();

  await page.getByRole("link", { name: "Back to the animals" }).click();
  await expect(page).toHaveURL("/");
  await settledList(page);
});

test("never asks the deprecated getPet from the browser, opened from the list or by its address", async ({ page }) => {
  // The server render's own in-process call (the list by id, which outlives
  // getPet's sunset) is tested with the clock moved past the sunset in
  // tests/site/pet-page.test.ts; a browser cannot move the server's clock.
  const getPetCalls: string[] = [];
  page.on("request", (request) => {
    if (/^\/v1\/pets\/\d+$/.test(new URL(request.url()).pathname)) getPetCalls.push(request.url());
  });
  await page.goto("/");
  const [name] = await cardNames(page);
  await cards(page).first().getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name!);
  const [pet] = await apiGet<ApiPet[]>(page, "/v1/pets?limit=1");
  await page.goto(`/pets/${pet!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pet!.name);
  expect(getPetCalls).toEqual([]);
});

test("an unknown or malformed id gets a friendly 404 page", async ({ page }) => {
  for (const id of ["99999999", "not-a-number", "99999999999999999999", "0"]) {
    const response = await page.goto(`/pets/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn’t find that animal");
    await expect(page).toHaveTitle("Animal not found · Petstore");
  }
  await page.getByRole("link", { name: "Back to the animals" }).click();
  await expect(page).toHaveURL("/");
  await settledList(page);
});

test("a name with HTML characters is shown as text, on the card and the page", async ({ page, request }) => {
  const key = createKey("e2e ui html name");
  const categories = (await (await request.get("/v1/categories", { headers: bearer(key) })).json()) as ApiCategory[];
  const name = `<b>Bold</b> & "Co"`;
  const pet = await createPet<ApiPet>(request, key, { name, categoryId: categories[0]!.id });

  // Newest first: the new animal heads the list.
  await page.goto("/");
  expect((await cardNames(page))[0]).toBe(name);
  await expect(cards(page).first().locator("b")).toHaveCount(0);

  await page.goto(`/pets/${pet.id}`);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(name);
  await expect(heading.locator("b")).toHaveCount(0);
  await expect(page).toHaveTitle(`${name} · Petstore`);
});

test("an animal in a foster home says where, in English and in Spanish, and never who", async ({ page, request }) => {
  const key = createKey("e2e ui foster home");
  const categories = (await (await request.get("/v1/categories", { headers: bearer(key) })).json()) as ApiCategory[];
  const created = await request.post("/v1/pets", { headers: bearer(key), data: { name: "Pickle in foster", categoryId: categories[0]!.id } });
  expect(created.status()).toBe(201);
  const pet = (await created.json()) as ApiPet;
  // Placed as the placements' write path places it: a foster in Brooklyn, inside the animal's open stay.
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const person = await client.query<{ id: string }>(
      `INSERT INTO people (organization_id, name, email, street, city, region, postcode, country, lat, lng, foster_status, foster_capacity)
       VALUES (1, 'Zebediah Fosterperson', 'zebediah@example.org', '77 Secret Street', 'Brooklyn', 'NY', '11201', 'US', 40.6937, -73.9896, 'active', 3) RETURNING id`,
    );
    await client.query(
      `INSERT INTO pet_placements (pet_id, organization_id, stay_id, person_id, start_at)
       SELECT pet_id, organization_id, id, $2, now() FROM pet_stays WHERE pet_id = $1 AND outcome_at IS NULL`,
      [pet.id, person.rows[0]!.id],
    );
  } finally {
    await client.end();
  }
  for (const [path, text] of [
    [`/pets/${pet.id}`, "Lives in a foster home in Brooklyn, NY"],
    [`/es/pets/${pet.id}`, "Vive en un hogar de acogida en Brooklyn, NY"],
  ] as const) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      const article = page.getByRole("article");
      await expect(article.getByTestId("foster-home")).toHaveText(text);
      await expect(article).not.toContainText("Zebediah");
      await expect(article).not.toContainText("Secret Street");
      await expectNoHorizontalScroll(page);
      await page.screenshot({ path: test.info().outputPath(`foster-${path.startsWith("/es") ? "es" : "en"}-${width}.png`), fullPage: true });
    }
  }
});

test("a rate-limited page says how long to wait", async ({ page }) => {
  await page.goto("/");
  const [pet] = await apiGet<ApiPet[]>(page, "/v1/pets?limit=1");
  await spendRateLimit(page);
  await page.goto(`/pets/${pet!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn’t load this animal");
  await expect(page.getByRole("main").getByRole("alert")).toContainText(/Please wait \d+ (seconds?|minutes?) and try again/);
  await expect(page).toHaveTitle("Animal unavailable · Petstore");
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
});

test("works without JavaScript", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/");
  const [pet] = await apiGet<ApiPet[]>(page, "/v1/pets?limit=1");
  const response = await page.goto(`/pets/${pet!.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pet!.name);
  await context.close();
});

test("has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/");
  const [pet] = await apiGet<ApiPet[]>(page, "/v1/pets?limit=1");
  await page.goto(`/pets/${pet!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.goto("/pets/99999999");
  await expectNoSeriousA11yViolations(page);
});

test("fits a phone screen without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const [pet] = await apiGet<ApiPet[]>(page, "/v1/pets?limit=1");
  await page.goto(`/pets/${pet!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("article").locator('img[src^="/pictures/"]')).toBeVisible();
  await expectNoHorizontalScroll(page);
});
