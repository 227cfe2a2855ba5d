import { expect, test } from "@playwright/test";
import { startFtpServer, type TestFtpServer } from "../../tests/ftp-server";
import { createShelterWithStaff, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Staff add a listing site on /staff/listing-sites after testing its
// credentials, upload now, and see the upload in the last uploads; the
// upload runs on the server's own job queue and reaches the spec's FTP
// server (WEBHOOK_ALLOW_PRIVATE lets it reach 127.0.0.1). Moving the site to
// another server asks for the password again (the saved one is only sent
// where it was given for), and the page lists who changed what.

let ftp: TestFtpServer;
let moved: TestFtpServer;
let staff: { email: string; password: string };

test.beforeAll(async () => {
  test.setTimeout(60_000);
  // A shelter of its own: its site list starts empty.
  staff = createShelterWithStaff().account;
  ftp = await startFtpServer("shelter-ftp", "ftp password 1");
  // The same account on the shelter's new server.
  moved = await startFtpServer("shelter-ftp", "ftp password 2");
});

test.afterAll(async () => {
  await ftp?.close();
  await moved?.close();
});

test("add a site after testing its connection, upload now, move it to another server with its password, see who changed what", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await signInAsStaff(context, baseURL!, staff);
  await page.goto("/staff/listing-sites");
  await expect(page.getByRole("heading", { name: "Listing sites", level: 1 })).toBeVisible();
  await expect(page.getByText("No listing site yet")).toBeVisible();
  await expect(page.getByText("No changes yet.")).toBeVisible();

  await page.getByLabel("Site", { exact: true }).selectOption("adoptapet");
  await page.getByLabel("FTP server", { exact: true }).fill(ftp.host);
  await page.getByLabel("Port", { exact: true }).fill(String(ftp.port));
  await page.getByLabel("FTP user name", { exact: true }).fill(ftp.username);
  await page.getByLabel("FTP password", { exact: true }).fill("wrong password");
  await page.getByRole("button", { name: "Test connection" }).click();
  // In our words: the server's own text is never shown.
  const refused = page.getByRole("alert").filter({ hasText: "Could not log in" });
  await expect(refused).toContainText("Login refused: check the user name and password.");
  await expect(refused).not.toContainText("530");
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
  // The manual one; the daily upload may have run too if the test crossed its time (CI once did, at 03:00).
  await expect(uploads.getByRole("row").filter({ hasText: "manual" })).toHaveCount(1);

  // The shelter moves to another server: the saved password is not sent there unless typed again.
  await card.getByText("Change settings").click();
  const settings = card.getByRole("form", { name: `Settings of Adopt-a-Pet (${ftp.username})` });
  await settings.getByLabel("Port", { exact: true }).fill(String(moved.port));
  await expect(settings.getByText("Required: the server, port, FTPS or user name changes")).toBeVisible();
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByRole("alert").filter({ hasText: "The password must be typed again" })).toBeVisible();
  await expect(settings.getByLabel("FTP password", { exact: true })).toBeFocused();
  await expect(card).toContainText(`${ftp.host}:${ftp.port}`);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await settings.scrollIntoViewIfNeeded();
  await docScreenshot(page, "listing-sites-settings-phone.png");
  await page.setViewportSize({ width: 1280, height: 720 });

  await settings.getByLabel("FTP password", { exact: true }).fill(moved.password);
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText("Saved, with the new password.")).toBeVisible();
  await expect(card).toContainText(`${moved.host}:${moved.port}`);
  await card.getByRole("button", { name: "Upload now" }).click();
  await expect.poll(() => moved.read("pets.csv") !== null, { timeout: 15_000 }).toBe(true);
  expect(moved.logins).toEqual([{ username: moved.username, ok: true }]);

  await card.getByRole("button", { name: "Switch off Adopt-a-Pet" }).click();
  await expect(card.getByRole("button", { name: "Switch on Adopt-a-Pet" })).toBeVisible();
  await expect(card).toContainText("· Off");

  // Who changed what, newest first; the passwords are never in it.
  const changes = page.getByRole("table", { name: "Changes to the listing sites, newest first" });
  await expect(changes.getByRole("row")).toHaveCount(4);
  const rows = changes.getByRole("row");
  await expect(rows.nth(1)).toContainText("Switched off");
  await expect(rows.nth(2)).toContainText(`Changed port ${ftp.port} → ${moved.port}; a new password`);
  await expect(rows.nth(3)).toContainText(`Added (${ftp.host}, user ${ftp.username})`);
  await expect(rows.nth(3)).toContainText(staff.email);
  await expect(changes).not.toContainText("ftp password");
  await expectNoSeriousA11yViolations(page);

  // The page as the README shows it, on a desktop and a phone.
  await docScreenshot(page, "listing-sites.png", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  // The phone's view ends on the site and who changed it.
  await page.getByRole("heading", { name: "Changes", level: 2 }).scrollIntoViewIfNeeded();
  await docScreenshot(page, "listing-sites-phone.png");
  await page.setViewportSize({ width: 1280, height: 720 });
});
