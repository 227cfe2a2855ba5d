import { expect, test } from "@playwright/test";

test("the home page shows animals from the database", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Petstore/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Petstore");
  await expect(page.getByRole("listitem").first()).toBeVisible();
});
