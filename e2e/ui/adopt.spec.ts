import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import { E2E_MAIL_SENDER, linksIn, mailTo, waitForMail } from "../mailbox";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Adopting, as an adopter does it on 127.0.0.1: the form on an available
// animal's page (errors by the fields, nothing typed lost), the private
// link, and the animal's page following staff's steps: approved makes it
// pending, completed makes it sold. The confirmation with the link, and
// each decision, arrive by email (at the suite's SMTP server, e2e/mailbox.ts).
// Keyboard alone; axe clean.

let key: string;
test.beforeAll(() => {
  key = createKey("e2e adopt", "--plan", "business");
});

async function newPet(request: APIRequestContext, name = uniqueName("Adopt me")): Promise<{ id: number; name: string }> {
  return createPet(request, key, { name });
}

const applyForm = (page: Page) => page.getByRole("form", { name: /^Apply to adopt/ });

async function fillForm(page: Page, email: string) {
  const form = applyForm(page);
  await form.getByLabel("Your name").fill("Robin Adopter");
  await form.getByLabel("Email").fill(email);
  await form.getByRole("radio", { name: "Flat" }).check();
  await form.getByLabel("Why this animal?").fill("Quiet flat, lots of time.\nI work from home.");
  await form.getByRole("checkbox", { name: /I agree that the shelter stores these details/ }).check();
}

test("an adopter applies, staff approve and complete: the animal's page, the private link and the emails follow", async ({ page, browser, baseURL }) => {
  const pet = await newPet(page.request);
  await page.goto(`/pets/${pet.id}`);
  await page.getByRole("button", { name: "Apply to adopt" }).click();
  const form = applyForm(page);
  await expect(form.getByLabel("Your name")).toBeFocused();

  // Sent empty: each error by its field; what was typed stays.
  await form.getByLabel("Other animals at home").fill("Two goldfish");
  await form.getByRole("button", { name: "Send application" }).click();
  await expect(form.getByText("Your name is required.")).toBeVisible();
  await expect(form.getByText(/^Email /)).toBeVisible();
  await expect(form.getByText(/^Consent must be given/)).toBeVisible();
  await expect(form.getByLabel("Other animals at home")).toHaveValue("Two goldfish");

  // An address of this test's own: its mailbox holds only this test's emails.
  const email = `${uniqueName("robin").replace(/\s+/g, ".")}@example.org`;
  await fillForm(page, email);
  await docScreenshot(form, "apply.png");
  await form.getByRole("button", { name: "Send application" }).click();
  const confirmation = page.getByRole("region", { name: /your application for .* was received/ });
  await expect(confirmation).toBeVisible();
  const statusUrl = (await confirmation.getByRole("link").textContent())!;
  expect(statusUrl).toMatch(new RegExp(`^${baseURL}/applications/[A-Za-z0-9_-]{43}$`));

  // The same private link arrives by email, sent by a job after the commit.
  const confirmationMail = await waitForMail(email, `We received your application for ${pet.name}`);
  expect(confirmationMail.from?.value).toEqual([expect.objectContaining(E2E_MAIL_SENDER)]);
  // Nothing the applicant typed goes to an address nobody has confirmed, the name included.
  expect(confirmationMail.text).toMatch(/^Hello,\n/);
  expect(confirmationMail.text).not.toContain("Robin");
  expect(linksIn(confirmationMail)).toEqual([statusUrl]);

  // Applying again with the same email while it is open: a kind refusal that names nothing of
  // the first (anyone can type any email), and the link to it sent to that address again.
  await page.reload();
  await page.getByRole("button", { name: "Apply to adopt" }).click();
  await fillForm(page, email.toUpperCase());
  await applyForm(page).getByRole("button", { name: "Send application" }).click();
  await expect(applyForm(page).getByRole("alert")).toContainText("we have sent the link to that address again");
  await expect(applyForm(page).getByRole("alert")).not.toContainText("#");
  await expect(applyForm(page).getByLabel("Your name")).toHaveValue("Robin Adopter");
  const again = await waitForMail(email, `The link to your application for ${pet.name}`);
  const [linkAgain] = linksIn(again);
  expect(linkAgain).toMatch(new RegExp(`^${baseURL}/applications/[A-Za-z0-9_-]{43}$`));
  expect(linkAgain).not.toBe(statusUrl);
  await page.goto(linkAgain!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Your application for ${pet.name}`);

  // Following the emailed link shows the application.
  await page.goto(linksIn(confirmationMail)[0]!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Your application for ${pet.name}`);
  await expect(page.getByRole("status")).toContainText("Status: Received");
  await expectNoSeriousA11yViolations(page);

  // Staff approve, then complete (through the API with a staff session, as the inbox does).
  const staff = await browser.newContext({ baseURL });
  await signInAsStaff(staff, baseURL!);
  const inbox = await (await staff.request.get(`/v1/applications?petId=${pet.id}`)).json();
  const id = inbox[0].id as number;
  const origin = { Origin: new URL(baseURL!).origin };
  expect((await staff.request.post(`/v1/applications/${id}/transitions`, { data: { to: "approved" }, headers: origin })).status()).toBe(200);

  await page.goto(`/pets/${pet.id}`);
  await expect(page.getByRole("article").locator("[data-status]")).toHaveText("Pending");
  await expect(page.getByTestId("no-applications")).toContainText("no applications are taken");
  await expect(page.getByRole("button", { name: "Apply to adopt" })).toHaveCount(0);
  await page.goto(statusUrl);
  await expect(page.getByRole("status")).toContainText("Status: Approved");
  await expect(page.getByRole("button", { name: "Withdraw" })).toHaveCount(0);
  const approvalMail = await waitForMail(email, `Good news: your application for ${pet.name} was approved`);
  expect(approvalMail.text).toContain(`The shelter approved your application to adopt ${pet.name}`);

  expect((await staff.request.post(`/v1/applications/${id}/transitions`, { data: { to: "completed" }, headers: origin })).status()).toBe(200);
  await page.goto(`/pets/${pet.id}`);
  await expect(page.getByRole("article").locator("[data-status]")).toHaveText("Sold");
  await page.goto(statusUrl);
  await expect(page.getByRole("status")).toContainText("Status: Adopted");
  await staff.close();

  // One email per step, in order; the refused second application sent the link again, and nothing else.
  await waitForMail(email, `Welcome home, ${pet.name}`);
  expect((await mailTo(email)).map((mail) => mail.subject)).toEqual([
    `We received your application for ${pet.name}`,
    `The link to your application for ${pet.name}`,
    `Good news: your application for ${pet.name} was approved`,
    `Welcome home, ${pet.name}`,
  ]);
});

test("the form works with the keyboard alone, and fits a phone", async ({ page }) => {
  const pet = await newPet(page.request);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/pets/${pet.id}`);
  await page.getByRole("button", { name: "Apply to adopt" }).focus();
  await page.keyboard.press("Enter");
  const form = applyForm(page);
  await expect(form.getByLabel("Your name")).toBeFocused();
  await page.keyboard.type("Kim Keys");
  await page.keyboard.press("Tab");
  await page.keyboard.type(`kim.${Date.now()}@example.org`);
  await page.keyboard.press("Tab"); // phone, left empty
  await page.keyboard.press("Tab"); // the first home choice
  await expect(form.getByRole("radio", { name: "House" })).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Other animals at home")).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.type("Garden, and two children who love dogs.");
  await page.keyboard.press("Tab"); // past the hidden honeypot, straight to the consent
  const consent = form.getByRole("checkbox", { name: /I agree/ });
  await expect(consent).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Send application" })).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalScroll(page);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: /was received/ })).toBeVisible();
});

test("the applicant withdraws from the private link; an unknown link is a 404 page", async ({ page }) => {
  const pet = await newPet(page.request);
  const res = await page.request.post(`/v1/pets/${pet.id}/applications`, {
    headers: bearer(createKey("e2e forwarder", "--plan", "business", "--scopes", "pets:read,applications:write")),
    data: { name: "Lee Forwarded", email: `lee.${Date.now()}@example.org`, home: "other", message: "Forwarded by a listing site.", consent: true },
  });
  expect(res.status()).toBe(201);
  const { statusUrl } = await res.json();
  await page.goto(new URL(statusUrl).pathname);
  await page.getByRole("button", { name: "Withdraw" }).click();
  await page.getByRole("button", { name: "Yes, withdraw it" }).click();
  await expect(page.getByRole("status")).toContainText("Status: Withdrawn");
  await page.reload();
  await expect(page.getByRole("status")).toContainText("Status: Withdrawn");

  const missing = await page.goto(`/applications/${"B".repeat(43)}`);
  expect(missing!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn’t find that application");
});

test("screenshot: the applicant's private page, as the emailed link opens it", async ({ page }) => {
  const pet = await newPet(page.request, "Biscuit");
  const res = await page.request.post(`/v1/pets/${pet.id}/applications`, {
    headers: bearer(createKey("e2e screenshot forwarder", "--plan", "business", "--scopes", "pets:read,applications:write")),
    data: {
      name: "Sam Rivera",
      email: `${uniqueName("sam").replace(/\s+/g, ".")}@example.org`,
      home: "house",
      message: "A garden, and time for walks.",
      consent: true,
    },
  });
  expect(res.status()).toBe(201);
  await page.setViewportSize({ width: 1280, height: 480 });
  await page.goto(new URL(((await res.json()) as { statusUrl: string }).statusUrl).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your application for Biscuit");
  await expect(page.getByRole("button", { name: "Withdraw" })).toBeVisible();
  await page.mouse.move(0, 0);
  await docScreenshot(page, "application.png");
});
