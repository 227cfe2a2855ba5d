import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { cli } from "../helpers";
import { createStaffAccount, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";

// /staff/reports: the monthly numbers of a shelter of its own (so its
// figures are exactly this test's), after an outcome is recorded: the
// month's table, the chart and its table, the CSV download, on a phone.
//
// The outcome is recorded as staff record it: on the animal's page, in the
// Stays panel's "Record outcome" form.

test("a recorded outcome shows in the month's table and the chart, and the CSV downloads; it reads on a phone", async ({ browser, baseURL }) => {
  const created = cli("orgs", "create", "--name", uniqueName("Report Shelter"), "--city", "Juneau", "--region", "AK", "--postcode", "99801", "--json");
  expect(created.status, created.stderr).toBe(0);
  const { slug, id: organizationId } = JSON.parse(created.stdout) as { slug: string; id: number };
  const account = createStaffAccount("--org", slug);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
  await signInAsStaff(context, baseURL!, account);
  const page = await context.newPage();

  // An animal (a dog, no birth date) taken in as a stray, then transferred out this month on its page.
  const origin = new URL(baseURL!).origin;
  const added = await page.request.post("/v1/pets", {
    headers: { Origin: origin },
    data: { name: uniqueName("Report dog"), categoryId: 1, intake: { type: "stray" } },
  });
  expect(added.status(), await added.text()).toBe(201);
  const pet = (await added.json()) as { id: number };
  await page.goto(`/pets/${pet.id}`);
  const stays = page.getByRole("region", { name: "Stays" });
  const outcome = stays.getByRole("form", { name: "Record outcome" });
  await outcome.getByLabel("Type").selectOption("transferredOut");
  await outcome.getByRole("button", { name: "Record outcome" }).click();
  await expect(
    stays
      .getByRole("list", { name: /^Stays of / })
      .locator(":scope > li")
      .first(),
  ).toContainText("Transferred out");

  await page.goto("/staff");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/staff/reports");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports");

  const month = new Date().toISOString().slice(0, 7);
  const monthName = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
  // The month in the matrix's categories: the dogs' table.
  await expect(page.getByRole("heading", { name: `${monthName} in the matrix’s categories` })).toBeVisible();
  const dogs = page.getByTestId("report-month-dog");
  const row = (label: string) => dogs.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
  await expect(dogs.getByRole("columnheader")).toHaveText(["Category", "Adult", "Up to 5 months", "Age unknown", "Total"]);
  await expect(row("Beginning count").getByRole("cell")).toHaveText(["0"]);
  await expect(row("Stray/at large").getByRole("cell")).toHaveText(["0", "0", "1", "1"]);
  await expect(row("Transferred out").getByRole("cell")).toHaveText(["0", "0", "1", "1"]);
  await expect(row("Total outcomes").getByRole("cell")).toHaveText(["0", "0", "1", "1"]);
  await expect(row("Ending count").getByRole("cell")).toHaveText(["0"]);
  await expect(row("Live release rate").getByRole("cell")).toHaveText(["100.0%"]);
  await expect(page.getByTestId("report-month-cat").getByRole("row").filter({ hasText: "Total intakes" }).getByRole("cell")).toHaveText(["0", "0", "0", "0"]);

  // The chart: one image with its summary, and the same figures in a table, this month last.
  await expect(page.getByRole("img", { name: /^Bar chart: 1 intakes and 1 outcomes from .* with the live release rate/ })).toBeVisible();
  const months = page.getByTestId("report-months");
  await expect(months.locator("tbody tr")).toHaveCount(12);
  const last = months.locator("tbody tr").last();
  await expect(last.locator("time")).toHaveAttribute("datetime", month);
  await expect(last.getByRole("cell")).toHaveText(["1", "1", "100.0%"]);

  // Readable at 390 px: nothing wider than the screen (a picture of it in the test's output).
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: test.info().outputPath("reports-390px.png"), fullPage: true });
  await expectNoSeriousA11yViolations(page);

  // The CSV: a download of the same range in the matrix's layout.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /as CSV$/ }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^monthly-report-${organizationId}-\\d{4}-\\d{2}_${month}\\.csv$`));
  const csv = fs.readFileSync((await download.path())!, "utf8").split("\r\n");
  const block = csv.indexOf(`Month ${month},Time zone UTC`);
  expect(block).toBeGreaterThanOrEqual(0);
  expect(csv.slice(block)).toContain("Outcome: Transferred out,0,0,1,1,0,0,0,0,0,0,0,0");
  expect(csv.slice(block)).toContain("Live release rate,,,,100.0%,,,,,,,,");

  // Another month in detail, chosen in the form.
  await page.getByLabel("Month in detail").selectOption({ index: 0 });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/month=/);
  await expect(row("Transferred out").getByRole("cell")).toHaveText(["0", "0", "0", "0"]);
  await context.close();
});
