import { expect, type Page } from "@playwright/test";
import { DEMO_STAFF, uniqueName } from "./staff-helpers";

/**
 * The whole staff desk as a person does it, in the browser, at whatever
 * origin the page was opened on: sign in through the form, add an animal
 * through the form, issue an API key, and check that key against the API.
 * Each step is a cookie-authenticated write, so each passes the CSRF check
 * only if "our own origin" is the one the browser used.
 */
export async function staffJourney(
  page: Page,
  origin: string,
  account: { email: string; password: string } = DEMO_STAFF,
): Promise<{ animal: string; key: string }> {
  await page.goto(`${origin}/staff/sign-in`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${origin}/staff`);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  await page.getByRole("link", { name: "Add an animal" }).click();
  await expect(page).toHaveURL(`${origin}/staff/pets/new`);

  const animal = uniqueName("Journey");
  // Filled again until the values hold: typed while the form was still
  // hydrating, they were once lost (CI), and the form went out empty.
  await expect(async () => {
    await page.getByLabel("Name", { exact: true }).fill(animal);
    await page.getByLabel("Category").selectOption({ label: "Rabbits" });
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(animal, { timeout: 500 });
    await expect(page.getByLabel("Category")).toHaveValue(/\d+/, { timeout: 500 });
  }).toPass();
  await page.getByRole("button", { name: "Add animal" }).click();
  await expect(page.getByTestId("added-name")).toHaveText(animal);

  await page.goto(`${origin}/staff/keys`);
  const keyName = uniqueName("Journey key");
  await page.getByLabel("Name", { exact: true }).fill(keyName);
  await page.getByRole("button", { name: "Issue key" }).click();
  const key = (await page
    .getByRole("region", { name: `New key for ${keyName}` })
    .getByTestId("issued-key")
    .textContent())!.trim();
  expect(key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);

  const listed = await page.request.get(`${origin}/v1/pets?limit=5`, { headers: { Authorization: `Bearer ${key}` } });
  expect(listed.status()).toBe(200);
  expect((await listed.json()).map((p: { name: string }) => p.name)).toContain(animal);
  return { animal, key };
}
