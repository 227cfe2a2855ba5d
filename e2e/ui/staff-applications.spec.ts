import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import type { ApiPet } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Staff's applications inbox (/staff/applications): the list and its
// filters in the URL, one application in full, and its steps, with the
// animal's public page following them (pending, then sold); the header's
// count of new applications; the animal's own page listing its applications.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e staff applications partner", "--plan", "business", "--scopes", "pets:read,pets:write,applications:write");
});

test.beforeEach(async ({ context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
});

interface ApiApplication {
  id: number;
  state: string;
  decisionMessage: string | null;
}

async function newPet(page: Page, name = uniqueName("Applied for")): Promise<ApiPet> {
  return createPet<ApiPet>(page.request, key, { name, status: "available" });
}

/** An application forwarded by a partner (the key), as a listing site would. */
async function apply(
  page: Page,
  petId: number,
  name: string,
  message = "We have a garden and work from home.",
  email = `${name.replace(/[^A-Za-z0-9]+/g, ".").toLowerCase()}@example.org`,
): Promise<number> {
  const res = await page.request.post(`/v1/pets/${petId}/applications`, {
    headers: bearer(key),
    data: { name, email, phone: "+44 20 7946 0000", home: "flat", otherAnimals: "One elderly cat", message, consent: true },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** The staff browser's own view of the API (its session cookie). */
async function staffGet<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

const row = (page: Page, name: string): Locator => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
const details = (page: Page, name: string, petName: string): Locator => page.getByRole("region", { name: `${name} for ${petName}` });
const headerLink = (page: Page): Locator => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Applications/ });
/** What the header's link says with this many new applications (the word "new" is for screen readers). */
const headerText = (count: number) => (count > 0 ? `Applications (${count} new)` : "Applications");
const stateFilter = (page: Page): Locator => page.getByLabel("State");

/** The animal's public page as an adopter sees it: no staff cookie, reaching the site as localhost rather than 127.0.0.1. */
async function publicStatus(browser: Browser, baseURL: string, petId: number): Promise<string> {
  const other = new URL(baseURL);
  other.hostname = "localhost";
  const adopter = await browser.newContext({ baseURL: other.origin });
  try {
    const visitor = await adopter.newPage();
    await visitor.goto(`/pets/${petId}`);
    return ((await visitor.getByRole("article").locator("[data-status]").first().textContent()) ?? "").trim();
  } finally {
    await adopter.close();
  }
}

test("reviews, approves and completes an application: the animal becomes pending, then sold, and the other applicant is declined", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow(); // a whole journey, with two more browser contexts
  const pet = await newPet(page);
  const first = uniqueName("Alex Applicant");
  const second = uniqueName("Bo Otherperson");
  const firstId = await apply(page, pet.id, first, "We have a garden.\nWe walk every day.");
  const secondId = await apply(page, pet.id, second);

  // The header counts the new (received) applications, as the API does.
  const waiting = (await staffGet<unknown[]>(page, "/v1/applications?state=received&limit=100")).length;
  await page.goto("/staff/applications");
  await expect(page).toHaveTitle("Applications · Petstore");
  await expect(page.getByRole("heading", { level: 1, name: "Applications" })).toBeVisible();
  await expect(headerLink(page)).toHaveText(headerText(waiting));
  await expect(headerLink(page)).toHaveAttribute("aria-current", "page");

  // Both, newest first, with how to reach them.
  await expect(row(page, first)).toBeVisible();
  await expect(row(page, second)).toBeVisible();
  const names = await page.getByRole("rowheader").allTextContents();
  expect(names.indexOf(second)).toBeLessThan(names.indexOf(first));
  await expect(row(page, first)).toContainText(pet.name);
  await expect(row(page, first)).toContainText("alex.applicant");
  await expect(row(page, first)).toContainText("+44 20 7946 0000");
  await expect(row(page, first)).toContainText("Flat");
  await expect(row(page, first)).toContainText("Received");
  await expect(row(page, first).getByRole("link", { name: pet.name })).toHaveAttribute("href", `/pets/${pet.id}`);

  // Filter by state: kept in the URL.
  await stateFilter(page).selectOption("in_review");
  await expect(page).toHaveURL(/\/staff\/applications\?state=in_review$/);
  await expect(row(page, first)).toHaveCount(0);
  await stateFilter(page).selectOption("received");
  await expect(page).toHaveURL(/\/staff\/applications\?state=received$/);
  await expect(row(page, first)).toBeVisible();
  await expect(row(page, second)).toBeVisible();
  await page.reload();
  await expect(stateFilter(page)).toHaveValue("received");
  await expect(row(page, first)).toBeVisible();

  // Open one: focus moves into it; the message keeps its line break, as text.
  await row(page, first).getByRole("button", { name: /^Open/ }).click();
  const opened = details(page, first, pet.name);
  await expect(opened.getByRole("heading", { level: 2 })).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`[?&]application=${firstId}$`));
  await expect(opened.getByTestId("application-message")).toHaveText("We have a garden.\nWe walk every day.", { useInnerText: false });
  expect(await opened.getByTestId("application-message").evaluate((p) => (p as HTMLElement).innerText.split("\n").length)).toBe(2);
  await expect(opened).toContainText("One elderly cat");
  await expect(opened.getByRole("list", { name: "Steps" }).getByRole("listitem")).toHaveCount(1);
  await expect(opened.getByRole("list", { name: "Steps" })).toContainText(/Received by API key #\d+/);
  await expect(opened.getByRole("button", { name: "Complete adoption" })).toHaveCount(0);

  // Start review: the step is listed, by this staff member, and the header counts one fewer.
  await opened.getByRole("button", { name: "Start review" }).click();
  await expect(opened.getByRole("status")).toHaveText(`Started the review of ${first}’s application.`);
  await expect(opened.getByRole("list", { name: "Steps" }).getByRole("listitem").nth(1)).toContainText("Received → In review by staff demo@petstore.test");
  await expect(opened.getByRole("button", { name: "Start review" })).toHaveCount(0);
  await expect(headerLink(page)).toHaveText(headerText(waiting - 1));
  // No longer received: gone from the filtered list.
  await expect(row(page, first)).toHaveCount(0);

  // Approve: the same view now offers Complete and Cancel; the public page says Pending.
  await opened.getByRole("button", { name: "Approve" }).click();
  await expect(opened.getByRole("status")).toHaveText(`Approved ${first}’s application. ${pet.name} is now pending: no more applications are taken.`);
  await expect(opened.getByRole("button", { name: "Complete adoption" })).toBeVisible();
  await expect(opened.getByRole("button", { name: "Cancel adoption" })).toBeVisible();
  await expect(opened.getByRole("button", { name: "Approve" })).toHaveCount(0);
  expect(await publicStatus(browser, baseURL!, pet.id)).toBe("Pending");

  // Approving the other one now: the API's reason, in an alert.
  await row(page, second).getByRole("button", { name: /^Open/ }).click();
  const other = details(page, second, pet.name);
  await other.getByRole("button", { name: "Approve" }).click();
  await expect(other.getByRole("alert")).toContainText("Could not approve this application.");
  await expect(other.getByRole("alert")).toContainText(`${pet.name} is pending`);

  // Only this animal's applications, from the opened one (?petId= in the URL).
  await other.getByRole("button", { name: `All applications for ${pet.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]petId=${pet.id}(&|$)`));
  await stateFilter(page).selectOption("");
  await expect(page.getByRole("rowheader")).toHaveText([second, first]);
  await expect(row(page, first)).toContainText("Approved");

  // Complete, declining the others with a message: the public page says Sold.
  await row(page, first).getByRole("button", { name: /^Open/ }).click();
  const again = details(page, first, pet.name);
  await again.getByLabel("Decline the other open applications for this animal").check();
  await again.getByLabel("Message to the other applicants").fill(`${pet.name} has found a home. Thank you!`);
  await again.getByRole("button", { name: "Complete adoption" }).click();
  await expect(again.getByRole("status")).toHaveText(
    `Completed the adoption: ${pet.name} is now sold. The other open applications for this animal were declined.`,
  );
  await expect(again.getByText("None: this application is completed")).toBeVisible();
  expect(await publicStatus(browser, baseURL!, pet.id)).toBe("Sold");
  await expect(row(page, first)).toContainText("Completed");
  await expect(row(page, second)).toContainText("Declined");
  const declined = await staffGet<ApiApplication>(page, `/v1/applications/${secondId}`);
  expect(declined).toMatchObject({ state: "declined", decisionMessage: `${pet.name} has found a home. Thank you!` });
  await stateFilter(page).selectOption("declined");
  await expect(page).toHaveURL(new RegExp(`state=declined`));
  await expect(page.getByRole("rowheader")).toHaveText([second]);

  // The animal's own page (staff view) lists both, and leads to the inbox.
  await page.goto(`/pets/${pet.id}`);
  const listed = page.getByRole("list", { name: `Applications for ${pet.name}, newest first` });
  await expect(listed.getByRole("listitem")).toHaveCount(2);
  await expect(listed.getByRole("listitem").nth(0)).toContainText(second);
  await expect(listed.getByRole("listitem").nth(0)).toContainText("Declined");
  await expect(listed.getByRole("listitem").nth(1)).toContainText("Completed");
  await page.getByRole("link", { name: `Handle them in the inbox (applications for ${pet.name})` }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/applications\\?petId=${pet.id}$`));
  await expect(page.getByRole("rowheader")).toHaveText([second, first]);
});

test("declines after a second click with a message; cancels an approved adoption (available again); accessible, and fits a phone", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow(); // two journeys and three axe runs
  const pet = await newPet(page);
  const declinedName = uniqueName("Dee Declined");
  const cancelledName = uniqueName("Cal Cancelled");
  const declinedId = await apply(page, pet.id, declinedName);
  const cancelledId = await apply(page, pet.id, cancelledName);

  await page.goto(`/staff/applications?petId=${pet.id}&application=${declinedId}`);
  const opened = details(page, declinedName, pet.name);
  await expect(opened).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await opened.getByLabel("Message to the applicant (optional)").fill("Sorry: we need a home with a garden.");
  await opened.getByRole("button", { name: "Decline", exact: true }).click();
  // Asks first; keeping it open changes nothing.
  await opened.getByRole("button", { name: "Keep it open" }).click();
  await expect(opened.getByRole("button", { name: "Confirm decline" })).toHaveCount(0);
  await opened.getByRole("button", { name: "Decline", exact: true }).click();
  await opened.getByRole("button", { name: "Confirm decline" }).click();
  await expect(opened.getByRole("status")).toHaveText(`Declined ${declinedName}’s application.`);
  await expect(opened).toContainText("Sorry: we need a home with a garden.");
  expect(await staffGet<ApiApplication>(page, `/v1/applications/${declinedId}`)).toMatchObject({
    state: "declined",
    decisionMessage: "Sorry: we need a home with a garden.",
  });

  // Approve, then cancel: the animal is available again. Keyboard only.
  await row(page, cancelledName).getByRole("button", { name: /^Open/ }).focus();
  await page.keyboard.press("Enter");
  const approved = details(page, cancelledName, pet.name);
  await expect(approved.getByRole("heading", { level: 2 })).toBeFocused();
  await approved.getByRole("button", { name: "Approve" }).focus();
  await page.keyboard.press("Enter");
  await expect(approved.getByRole("status")).toContainText("is now pending");
  expect(await publicStatus(browser, baseURL!, pet.id)).toBe("Pending");
  await expectNoSeriousA11yViolations(page);
  await approved.getByRole("button", { name: "Cancel adoption" }).click();
  await approved.getByRole("button", { name: "Confirm cancelling the adoption" }).click();
  await expect(approved.getByRole("status")).toHaveText(`Cancelled the adoption: ${pet.name} is available again.`);
  expect(await publicStatus(browser, baseURL!, pet.id)).toBe("Available");
  expect((await staffGet<ApiApplication>(page, `/v1/applications/${cancelledId}`)).state).toBe("cancelled");

  // Close returns focus to the row's button.
  await approved.getByRole("button", { name: /^Close/ }).click();
  await expect(row(page, cancelledName).getByRole("button", { name: /^Open/ })).toBeFocused();

  // At phone width, nothing scrolls sideways (the table scrolls in its own region).
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/staff/applications?application=${cancelledId}`);
  await expect(details(page, cancelledName, pet.name)).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoSeriousA11yViolations(page);
});

test("a step that changes the animal is sent under If-Match with the version shown: if someone changed the animal meanwhile, nothing happens and the view catches up", async ({
  page,
}) => {
  const pet = await newPet(page);
  const name = uniqueName("Ifa Match");
  const id = await apply(page, pet.id, name);
  await page.goto(`/staff/applications?petId=${pet.id}&application=${id}`);
  const opened = details(page, name, pet.name);
  await expect(opened).toContainText(`${pet.name} (available)`);

  // Someone else changes the animal (here through the API) while this view shows version 1.
  const renamed = `${pet.name} Renamed`;
  const patched = await page.request.patch(`/v1/pets/${pet.id}`, {
    headers: { ...bearer(key), "content-type": "application/merge-patch+json" },
    data: { name: renamed },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  const stale = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/v1/applications/${id}/transitions`));
  await opened.getByRole("button", { name: "Approve" }).click();
  expect((await stale).headers()["if-match"]).toBe('"1"');
  await expect(opened.getByRole("alert")).toContainText("Could not approve this application.");
  await expect(opened.getByRole("alert")).toContainText("was changed by someone else since this page showed it, so nothing was done");
  expect((await staffGet<ApiApplication>(page, `/v1/applications/${id}`)).state).toBe("received");

  // The view reads the application again, with the animal's new version: approving now goes through.
  const current = details(page, name, renamed);
  await expect(current).toBeVisible();
  const retried = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/v1/applications/${id}/transitions`));
  await current.getByRole("button", { name: "Approve" }).click();
  expect((await retried).headers()["if-match"]).toBe('"2"');
  await expect(current.getByRole("status")).toContainText(`${renamed} is now pending`);
  await expect(current).toContainText(`${renamed} (pending)`);

  // Steps that leave the animal alone send no If-Match.
  const otherName = uniqueName("Ned Nomatch");
  const otherPet = await newPet(page);
  const otherId = await apply(page, otherPet.id, otherName);
  await page.goto(`/staff/applications?application=${otherId}`);
  const review = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/v1/applications/${otherId}/transitions`));
  await details(page, otherName, otherPet.name).getByRole("button", { name: "Start review" }).click();
  expect((await review).headers()["if-match"]).toBeUndefined();
});

test("an empty filtered inbox says so, and offers every application", async ({ page }) => {
  const pet = await newPet(page);
  await page.goto(`/staff/applications?petId=${pet.id}`);
  await expect(page.getByText(`No applications for ${"animal #" + pet.id}.`)).toBeVisible();
  // This server sends email (SMTP_URL, the suite's mail server): no warning that
  // applicants get none. Without SMTP_URL the page shows one (tests/site/applications-page.test.ts).
  await expect(page.getByText("Email is not set up")).toHaveCount(0);
  await page.getByRole("button", { name: "Show all applications" }).click();
  await expect(page).toHaveURL(/\/staff\/applications$/);
});

test("screenshot: the inbox, one animal's applications with one open", async ({ page }) => {
  const pet = await newPet(page, "Biscuit");
  // Addresses of this run's own (the per-email budgets), under names that read well.
  const tag = Date.now().toString(36).slice(-4);
  await apply(page, pet.id, "Maria Lopez", "We have a fenced garden and I work from home.\nOur last dog lived to fifteen.", `maria.lopez.${tag}@example.org`);
  const id = await apply(page, pet.id, "Sam Rivera", "A quiet flat near a big park; walks twice a day.", `sam.rivera.${tag}@example.org`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/staff/applications?petId=${pet.id}&application=${id}`);
  await expect(details(page, "Sam Rivera", pet.name)).toBeVisible();
  await expect(page.getByRole("rowheader")).toHaveText(["Sam Rivera", "Maria Lopez"]);
  await page.mouse.move(0, 0);
  await docScreenshot(page, "staff-applications.png", { fullPage: true });
});
