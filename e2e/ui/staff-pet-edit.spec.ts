import { expect, test, type Page } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import { cards, holdRequests, settledList, statusTab, type ApiPet } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, recordRequests, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Staff change an animal on its own page (/pets/[id]): the form, the
// optimistic update and its rollback, the 412 when someone else got there
// first, and the history below the profile.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e staff edit partner", "--plan", "business");
});

test.beforeEach(async ({ context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
});

const editForm = (page: Page) => page.getByRole("form", { name: "Change this animal" });
const statusField = (page: Page) => editForm(page).getByLabel("Status");
const nameField = (page: Page) => editForm(page).getByLabel("Name", { exact: true });
const categoryField = (page: Page) => editForm(page).getByLabel("Category");
const saveButton = (page: Page) => editForm(page).getByRole("button", { name: "Save changes" });
const profileBadge = (page: Page) => page.getByRole("article").locator("[data-status]");
const historyItems = (page: Page) => page.getByRole("list", { name: "Changes, newest first" }).locator(":scope > li");

/** An animal of this test's own, added by a partner's key (so its history starts with that key). */
async function newPet(page: Page, name = uniqueName("Edit me")): Promise<ApiPet> {
  return createPet<ApiPet>(page.request, key, { name, status: "available" });
}

test("marks an animal adopted: the page shows it at once, the browse list after, and the history records who", async ({ page }) => {
  const pet = await newPet(page);
  await page.goto(`/pets/${pet.id}`);
  await expect(statusField(page)).toHaveValue("available");
  await expect(nameField(page)).toHaveValue(pet.name);
  await expect(categoryField(page)).toHaveValue("1");
  await expect(historyItems(page)).toHaveCount(1);
  await expect(historyItems(page).first()).toContainText("Added by API key “e2e staff edit partner”");

  const patches = recordRequests(page, "PATCH", `/v1/pets/${pet.id}`);
  const held = await holdRequests(page, `**/v1/pets/${pet.id}`);
  await statusField(page).selectOption("sold");
  await saveButton(page).click();
  // Optimistic: the profile says Sold while the server has not answered yet.
  await expect(profileBadge(page)).toHaveText("Sold");
  await expect(saveButton(page)).toHaveCount(0); // "Saving…" instead
  held.release();
  await expect(editForm(page).getByRole("status")).toHaveText(`Saved. ${pet.name} is now sold.`);
  await expect(profileBadge(page)).toHaveText("Sold");

  expect(patches).toHaveLength(1);
  expect(patches[0]!.headers()["if-match"]).toBe('"1"');
  expect(patches[0]!.headers()["content-type"]).toBe("application/merge-patch+json");
  expect(patches[0]!.postDataJSON()).toEqual({ status: "sold" }); // only what changed

  // The sale and the end of its stay with an adoption (lib/stays): two records of one change, newest first.
  await expect(historyItems(page)).toHaveCount(3);
  await expect(historyItems(page).first()).toContainText("Outcome recorded by staff demo@petstore.test");
  await expect(historyItems(page).first()).toContainText("Adoption");
  await expect(historyItems(page).nth(1)).toContainText("Changed by staff demo@petstore.test");
  await expect(historyItems(page).nth(1)).toContainText("Status: Available → Sold");

  // The browse list (client-side navigation, cached pages included) shows it
  // sold: gone from the Available animals the page opens on, among the Sold.
  await page.getByRole("link", { name: "Back to the animals" }).click();
  await settledList(page);
  await expect(cards(page).filter({ hasText: pet.name })).toHaveCount(0);
  await statusTab(page, "Sold").click();
  await settledList(page);
  await expect(cards(page).filter({ hasText: pet.name }).locator("[data-status]")).toHaveText("Sold");
});

test("edits name and category with the API's schema, and a second save sends the new version", async ({ page }) => {
  const pet = await newPet(page);
  await page.goto(`/pets/${pet.id}`);
  const patches = recordRequests(page, "PATCH", `/v1/pets/${pet.id}`);

  await nameField(page).fill("   ");
  await saveButton(page).click();
  await expect(page.locator("#edit-pet-name-error")).toHaveText("Name must not be blank.");
  await expect(nameField(page)).toBeFocused();
  expect(patches).toHaveLength(0);

  const renamed = uniqueName("Renamed");
  await nameField(page).fill(renamed);
  await categoryField(page).selectOption({ label: "Cats" });
  await saveButton(page).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await expect(page.getByRole("article")).toContainText("Cats");
  await expect(editForm(page).getByRole("status")).toContainText("Saved.");

  await statusField(page).selectOption("pending");
  await saveButton(page).click();
  await expect(editForm(page).getByRole("status")).toHaveText(`Saved. ${renamed} is now pending.`);
  expect(patches.map((r) => [r.headers()["if-match"], r.postDataJSON()])).toEqual([
    ['"1"', { name: renamed, categoryId: 2 }],
    ['"2"', { status: "pending" }],
  ]);

  await saveButton(page).click();
  await expect(editForm(page).getByRole("status")).toHaveText("Nothing to save: the values are the ones already stored.");
  expect(patches).toHaveLength(2);
});

test("when someone else changed it first (412), nothing is overwritten: the change is rolled back and the current values shown", async ({ page, request }) => {
  const pet = await newPet(page);
  const reads = recordRequests(page, "GET", "/v1/pets");
  const getPetReads = recordRequests(page, "GET", `/v1/pets/${pet.id}`);
  await page.goto(`/pets/${pet.id}`);
  await expect(statusField(page)).toHaveValue("available");

  // A partner renames it meanwhile.
  const theirs = uniqueName("Their name");
  const meanwhile = await request.patch(`/v1/pets/${pet.id}`, { headers: bearer(key), data: { name: theirs, status: "pending" } });
  expect(meanwhile.status()).toBe(200);

  await statusField(page).selectOption("sold");
  await saveButton(page).click();
  await expect(editForm(page).getByRole("alert").filter({ hasText: "Someone else changed this animal" })).toBeVisible();
  // The current values, not ours and not the stale ones.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(theirs);
  await expect(profileBadge(page)).toHaveText("Pending");
  await expect(nameField(page)).toHaveValue(theirs);
  await expect(statusField(page)).toHaveValue("pending");
  const stored = (await (await request.get(`/v1/pets?id=${pet.id}`, { headers: bearer(key) })).json()) as ApiPet[];
  expect(stored[0]).toMatchObject({ name: theirs, status: "pending" });
  // The current values came through the list by id, never the deprecated getPet.
  expect(reads.map((r) => new URL(r.url()).searchParams.get("id"))).toContain(String(pet.id));
  expect(getPetReads).toHaveLength(0);

  // Saving again now works, from the current version.
  await statusField(page).selectOption("sold");
  await saveButton(page).click();
  await expect(editForm(page).getByRole("status")).toHaveText(`Saved. ${theirs} is now sold.`);
  await expect(profileBadge(page)).toHaveText("Sold");
});

test("any other failure rolls the page back and says the change was not saved", async ({ page }) => {
  const pet = await newPet(page);
  await page.goto(`/pets/${pet.id}`);
  await page.route(`**/v1/pets/${pet.id}`, (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          headers: { "Retry-After": "5" },
          body: JSON.stringify({ code: "service_unavailable", message: "The service is temporarily unavailable. Please retry shortly.", status: 503 }),
        })
      : route.fallback(),
  );
  await statusField(page).selectOption("sold");
  await saveButton(page).click();
  await expect(editForm(page).getByRole("alert").filter({ hasText: "Your change was not saved." })).toContainText("temporarily unavailable");
  await expect(profileBadge(page)).toHaveText("Available");
  // What was typed stays in the form, to try again.
  await expect(statusField(page)).toHaveValue("sold");
});

test("adopters see the animal but neither the form nor the history", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/");
  const [pet] = (await (await page.request.get("/v1/pets?limit=1")).json()) as ApiPet[];
  const historyCalls = recordRequests(page, "GET", `/v1/pets/${pet!.id}/history`);
  // The pet page's own session call (its Referer is that page), not one left over from the page before.
  const sessionKnown = page.waitForResponse(
    (res) => new URL(res.url()).pathname === "/v1/session" && new URL(res.request().headers()["referer"] ?? "http://x/").pathname === `/pets/${pet!.id}`,
  );
  await page.goto(`/pets/${pet!.id}`);
  expect((await (await sessionKnown).json()).kind).toBe("anonymous");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pet!.name);
  await expect(editForm(page)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "History" })).toHaveCount(0);
  expect(historyCalls).toHaveLength(0);
  await context.close();
});

test("the staff view has no serious accessibility violations and fits a phone", async ({ page }) => {
  const pet = await newPet(page);
  await page.goto(`/pets/${pet.id}`);
  await expect(historyItems(page)).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
});

test("screenshot: an animal's page as staff see it, with its history", async ({ page }) => {
  const pet = await newPet(page, "Hazelnut");
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`/pets/${pet.id}`);
  await statusField(page).selectOption("pending");
  await saveButton(page).click();
  await expect(historyItems(page)).toHaveCount(2);
  await docScreenshot(page, "pet-staff.png", { fullPage: true });
});
