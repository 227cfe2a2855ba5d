import { expect, test, type Page } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import type { ApiPet } from "./site-helpers";
import { expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";

// Staff keep an animal's records on its page (/pets/[id]): the Stays panel
// lists its stays, records the open stay's outcome and, once it has left, a
// new intake, each in a few clicks; the rest of the page follows.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e stays partner", "--plan", "business");
});

test.beforeEach(async ({ context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
});

const panel = (page: Page) => page.getByRole("region", { name: "Stays" });
const items = (page: Page) =>
  panel(page)
    .getByRole("list", { name: /^Stays of / })
    .locator(":scope > li");

test("records an outcome, then a new intake, and sees the stays listed", async ({ page }) => {
  const name = uniqueName("Stayer");
  const pet = await createPet<ApiPet>(page.request, key, { name, intake: { type: "stray", subtype: "Found on Elm St" } });

  await page.goto(`/pets/${pet.id}`);
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).first()).toContainText("Stray");
  await expect(items(page).first()).toContainText("Found on Elm St");
  await expect(items(page).first()).toContainText("still in care");

  // Record outcome: type, date (today by default), the shelter's word, and a transfer's distance (the matrix's 2021 detail, only for a transfer).
  const outcome = panel(page).getByRole("form", { name: "Record outcome" });
  await expect(outcome.getByLabel("Distance")).toHaveCount(0);
  await outcome.getByLabel("Type").selectOption("transferredOut");
  await outcome.getByLabel("Details").fill("To County Humane");
  await outcome.getByLabel("Distance").selectOption("outOfState");
  await outcome.getByRole("button", { name: "Record outcome" }).click();
  await expect(items(page).first()).toContainText("Transferred out · Out of state");
  await expect(items(page).first()).toContainText("To County Humane");
  await expect(items(page).first()).not.toContainText("still in care");

  // Out of care: adopters no longer find it.
  const publicList = await page.request.get(`/v1/pets?id=${pet.id}`, { headers: bearer(key) });
  expect(((await publicList.json()) as ApiPet[]).map((p) => p.id)).toEqual([]);

  // Staff find it among the animals out of care (from the menu), and open it from there.
  await page.getByRole("link", { name: "Out of care", exact: true }).click();
  await expect(page).toHaveURL(/\/staff\/pets$/);
  await page.getByRole("searchbox", { name: "Name" }).fill(name);
  await page.getByRole("button", { name: "Search" }).click();
  const found = page.getByRole("table", { name: /Animals out of care/ }).getByRole("link", { name });
  await expect(found).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);
  await found.click();
  await expect(page).toHaveURL(new RegExp(`/pets/${pet.id}$`));

  // It came back: a new intake, in a few clicks.
  const intake = panel(page).getByRole("form", { name: "New intake" });
  await intake.getByLabel("Type").selectOption("otherIntake");
  await intake.getByLabel("Seized or impounded?").selectOption("seizedOrImpounded");
  await intake.getByRole("button", { name: "Record intake" }).click();
  await expect(items(page)).toHaveCount(2);
  await expect(items(page).nth(1)).toContainText("Other intake · Seized or impounded");
  await expect(items(page).nth(1)).toContainText("still in care");
  await expect(panel(page).getByRole("form", { name: "Record outcome" })).toBeVisible();
  // The history says what happened.
  const history = page.getByRole("list", { name: "Changes, newest first" }).locator(":scope > li");
  await expect(history.first()).toContainText("New intake recorded");
  await expect(history.nth(1)).toContainText("Outcome recorded");

  // The API holds the details as sent (read as the signed-in staff).
  const stays = await page.request.get(`/v1/pets/${pet.id}/stays`);
  const [first, second] = (await stays.json()) as { intake: { detail: string | null }; outcome: { detail: string | null } | null }[];
  expect([first!.outcome?.detail, second!.intake.detail]).toEqual(["outOfState", "seizedOrImpounded"]);

  const back = await page.request.get(`/v1/pets?id=${pet.id}`, { headers: bearer(key) });
  expect(((await back.json()) as ApiPet[]).map((p) => p.id)).toEqual([pet.id]);
  // In care again: no longer among those out of care.
  await page.goto(`/staff/pets?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No animal out of care is called “${name}”.`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
