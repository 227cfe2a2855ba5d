import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { startFtpServer, type TestFtpServer } from "../../tests/ftp-server";
import { createShelterWithStaff, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff } from "./staff-helpers";

// Staff add a listing site on /staff/listing-sites after testing its
// credentials, upload now, and see the upload in the last uploads; the
// upload runs on the server's own job queue and reaches the spec's FTP
// server (WEBHOOK_ALLOW_PRIVATE lets it reach 127.0.0.1).

let ftp: TestFtpServer;
let staff: { email: string; password: string };

test.beforeAll(async () => {
  test.setTimeout(60_000);
  // A shelter of its own: its site list starts empty.
  staff = createShelterWithStaff().account;
  ftp = await startFtpServer("shelter-ftp", "ftp password 1");
});

test.afterAll(async () => {
  await ftp?.close();
});

test("add a site after testing its connection, upload now, see the upload", async ({ page, context, baseURL }) => {
  await signInAsStaff(context, baseURL!, staff);
  await page.goto("/staff/listing-sites");
  await expect(page.getByRole("heading", { name: "Listing sites", level: 1 })).toBeVisible();
  await expect(page.getByText("No listing site yet")).toBeVisible();

  await page.getByLabel("Site", { exact: true }).selectOption("adoptapet");
  await page.getByLabel("FTP server", { exact: true }).fill(ftp.host);
  await page.getByLabel("Port", { exact: true }).fill(String(ftp.port));
  await page.getByLabel("FTP user name", { exact: true }).fill(ftp.username);
  await page.getByLabel("FTP password", { exact: true }).fill("wrong password");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Could not log in" })).toContainText("530 Login incorrect");
  await page.getByLabel("FTP password", { exact: true }).fill(ftp.password);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByText("Connected and logged in")).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Add site" }).click();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `Adopt-a-Pet (${ftp.username})` }) });
  await expect(card).toContainText("No upload yet.");
  await card.getByRole("button", { name: "Upload now" }).click();
  await expect(card).toContainText("Sent 0 animals, 0 photo files", { timeout: 15_000 });
  expect(ftp.read("pets.csv")).not.toBeNull();
  expect(ftp.read("import.cfg")?.toString()).toContain("#1:Id=Id");

  await card.getByText("Last 20 uploads").click();
  const uploads = card.getByRole("table", { name: "The last 20 uploads, newest first" });
  await expect(uploads.getByRole("row")).toHaveCount(2);
  await expect(uploads).toContainText("manual");
  // The page as the README shows it, on a desktop and a phone.
  fs.mkdirSync("docs/screenshots", { recursive: true });
  await page.screenshot({ path: "docs/screenshots/listing-sites.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: "docs/screenshots/listing-sites-phone.png" });
  await page.setViewportSize({ width: 1280, height: 720 });

  await card.getByRole("button", { name: "Switch off Adopt-a-Pet" }).click();
  await expect(card.getByRole("button", { name: "Switch on Adopt-a-Pet" })).toBeVisible();
  await expect(card).toContainText("· Off");
  await expectNoSeriousA11yViolations(page);
});
