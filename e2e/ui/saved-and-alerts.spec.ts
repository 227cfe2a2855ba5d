import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { bearer, createKey, createPet, type CreatedPet } from "../helpers";
import { linksIn, waitForMail } from "../mailbox";
import { animalList, type ApiCategory } from "./site-helpers";
import { watchCsp } from "./page-quality";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Adopters who come back (issue 27): an animal saved in the browser (no
// account) stays at /saved with its latest news, "Adopted" once it is; and
// "Email me new matches" from the browse page: the confirmation and the
// match arrive at the suite's SMTP server (e2e/mailbox.ts), and one POST to
// the email's List-Unsubscribe URL, without cookies, ends the alert.

const PHONE = { width: 390, height: 844 };

let key: string;
test.beforeAll(() => {
  key = createKey("e2e saved and alerts", "--plan", "business");
});

async function newPet(request: APIRequestContext, data: Record<string, unknown> = {}): Promise<CreatedPet> {
  return createPet(request, key, { name: uniqueName("Saved pet"), ...data });
}

async function setStatus(request: APIRequestContext, pet: CreatedPet, status: "available" | "pending" | "sold") {
  const res = await request.patch(`/v1/pets/${pet.id}`, { headers: bearer(key), data: { status } });
  expect(res.status(), await res.text()).toBe(200);
}

const savedLink = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Saved/ });
const savedList = (page: Page) => page.getByRole("list", { name: "Your saved animals" });
const savedItem = (page: Page, name: string) =>
  savedList(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });

test("an adopter saves animals with the heart: /saved lists them fresh, says Adopted once sold, follows other tabs, and keeps what is no longer listed until removed", async ({
  page,
  context,
}) => {
  const biscuit = await newPet(page.request, { name: uniqueName("Heart") });
  const other = await newPet(page.request, { name: uniqueName("Heart two") });

  await page.goto(`/?q=${encodeURIComponent(biscuit.name)}`);
  const card = animalList(page).getByRole("listitem").filter({ hasText: biscuit.name });
  const heart = card.getByRole("button", { name: `Save ${biscuit.name}` });
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await expect(savedLink(page)).toHaveText("Saved");
  await heart.click();
  const saved = card.getByRole("button", { name: "Saved", exact: true });
  await expect(saved).toHaveAttribute("aria-pressed", "true");
  await expect(savedLink(page)).toHaveText("Saved (1)");
  // What the browser keeps: the contract's key and shape.
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("petstore:saved")))!) as { id: number; name: string; savedAt: string }[];
  expect(stored).toEqual([{ id: biscuit.id, name: biscuit.name, savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);

  // It survives a reload, and the animal's own page knows it too.
  await page.reload();
  await expect(card.getByRole("button", { name: "Saved", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.goto(`/pets/${biscuit.id}`);
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(savedLink(page)).toHaveText("Saved (1)");

  // /saved in a second tab; saving in the first shows there at once (the storage event).
  const second = await context.newPage();
  await second.goto("/saved");
  await expect(savedItem(second, biscuit.name)).toContainText("Available");
  await page.goto(`/pets/${other.id}`);
  await page.getByRole("button", { name: `Save ${other.name}` }).click();
  await expect(savedItem(second, other.name)).toContainText("Available");
  await expect(savedLink(second)).toHaveText("Saved (2)");

  // Staff sell one and reserve the other: /saved says so instead of losing them.
  await setStatus(page.request, biscuit, "sold");
  await setStatus(page.request, other, "pending");
  await second.reload();
  await expect(savedItem(second, biscuit.name)).toContainText("Adopted");
  await expect(savedItem(second, other.name)).toContainText("Adoption pending");
  await docScreenshot(second, "saved.png");

  // An animal gone from the site keeps its saved name, and a way to let it go.
  await second.evaluate(() => {
    const list = JSON.parse(localStorage.getItem("petstore:saved") ?? "[]") as unknown[];
    localStorage.setItem("petstore:saved", JSON.stringify([...list, { id: 9007199254740991, name: "Ghost", savedAt: new Date().toISOString() }]));
  });
  await second.reload();
  const ghost = savedItem(second, "Ghost");
  await expect(ghost).toContainText("No longer listed");
  await expectNoSeriousA11yViolations(second);
  await ghost.getByRole("button", { name: "Remove Ghost" }).click();
  await expect(ghost).toHaveCount(0);
  await expect(savedLink(second)).toHaveText("Saved (2)");

  // Unsaving from /saved itself; the last one gone leaves the empty state.
  await savedItem(second, biscuit.name).getByRole("button", { name: "Saved", exact: true }).click();
  await savedItem(second, other.name).getByRole("button", { name: "Saved", exact: true }).click();
  await expect(second.getByRole("heading", { name: "No saved animals yet" })).toBeVisible();
  await expect(savedLink(second)).toHaveText("Saved");
  await expect(savedLink(page)).toHaveText("Saved");
  await expectNoSeriousA11yViolations(second);
});

test("on a phone: the hearts fit on the cards and /saved fits the screen", async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const pet = await newPet(page.request, { name: uniqueName("Phone heart") });
  await page.goto(`/?q=${encodeURIComponent(pet.name)}`);
  await animalList(page)
    .getByRole("button", { name: `Save ${pet.name}` })
    .tap();
  await expect(animalList(page).getByRole("button", { name: "Saved", exact: true })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await page.getByRole("button", { name: "Email me new matches" }).tap();
  await expect(page.getByRole("form", { name: "Email me new matches" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await page.goto("/saved");
  await expect(savedItem(page, pet.name)).toContainText("Available");
  await expectNoHorizontalScroll(page);
  await context.close();
});

test("Email me new matches: the browse page's filters become an alert, confirmed from its email, a match is emailed, and one POST to List-Unsubscribe ends it", async ({
  page,
  playwright,
}) => {
  // The sending job runs every minute: the match can take up to two.
  test.setTimeout(240_000);
  const categories = (await (await page.request.get("/v1/categories", { headers: bearer(key) })).json()) as ApiCategory[];
  const dogs = categories.find((c) => c.name === "Dogs")!;
  const q = uniqueName("Alertdog").split(" ")[1]!;

  const csp = watchCsp(page);
  await page.goto(`/?category=${dogs.id}&size=small&goodWith=children&q=${q}&near=60601&within=25mi`);
  await page.getByRole("button", { name: "Email me new matches" }).click();
  const form = page.getByRole("form", { name: "Email me new matches" });
  await expect(form).toContainText(`Dogs · small · good with children · named like “${q}” · within 25 mi of 60601`);
  await expect(form.getByRole("textbox", { name: "Email" })).toBeFocused();

  // Errors by their fields; the honeypot is out of sight and out of reach.
  await form.getByRole("button", { name: "Create alert" }).click();
  await expect(form.getByText(/^Email must be an email address/)).toBeVisible();
  await expect(form.getByText(/^Consent must be given/)).toBeVisible();
  await expect(form.getByRole("textbox", { name: "Website" })).toHaveCount(0);
  await expect(form.locator("input[name=website]")).toHaveAttribute("tabindex", "-1");

  const email = `${uniqueName("alert").replace(/\s+/g, ".")}@example.org`;
  const posts: unknown[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/v1/alerts") posts.push(r.postDataJSON());
  });
  await form.getByRole("textbox", { name: "Email" }).fill(email);
  await expect(form.getByRole("radio", { name: "As they arrive" })).toBeChecked();
  await form.getByRole("checkbox", { name: /I agree to get these emails/ }).check();
  await docScreenshot(form, "alert-form.png");
  await form.getByRole("button", { name: "Create alert" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeFocused();
  // The form's zod runs without eval, as the page's CSP requires (lib/zod-jitless.ts).
  expect(csp).toEqual([]);
  expect(posts).toEqual([
    {
      email,
      frequency: "hourly",
      consent: true,
      website: "",
      timeZone: expect.any(String),
      filters: { categoryId: dogs.id, size: "small", goodWith: ["children"], q, near: "60601", within: "25mi" },
    },
  ]);

  // The confirmation email; its link opens the alert's page, which confirms it.
  const confirm = await waitForMail(email, /^Confirm your alert/);
  const manage = linksIn(confirm).find((link) => /\/alerts\/[A-Za-z0-9_-]{43}$/.test(link));
  expect(manage).toBeDefined();
  await page.goto(new URL(manage!).pathname);
  await expect(page.getByText("Your alert is confirmed")).toBeVisible();
  const panel = page.getByRole("region", { name: "Alert" });
  // The same words as on the form.
  await expect(panel).toContainText(`Dogs · small · good with children · named like “${q}” · within 25 mi of 60601`);
  await expect(panel).toContainText("As they arrive");
  await expect(panel).toContainText("Active");
  await docScreenshot(page, "alert.png");
  await expectNoSeriousA11yViolations(page);
  // Pause and Resume.
  await panel.getByRole("button", { name: "Pause" }).click();
  await expect(panel).toContainText("Paused");
  await panel.getByRole("button", { name: "Resume" }).click();
  await expect(panel).toContainText("Active");
  // The page fits a phone, where most alert emails are opened: nothing to scroll sideways, both buttons on the first screen.
  const desktop = page.viewportSize()!;
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page);
  await expect(panel.getByRole("button", { name: "Pause" })).toBeInViewport();
  await expect(panel.getByRole("button", { name: "Delete" })).toBeInViewport();
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize(desktop);

  // A matching animal arrives at the Chicago shelter: emailed as it arrives.
  const match = await newPet(page.request, { name: `${q} Junior`, categoryId: dogs.id, size: "small", goodWith: { children: true }, status: "available" });
  const news = await waitForMail(email, new RegExp(`^New match: ${match.name}`), 180_000);
  expect(news.text).toContain(match.name);
  const header = news.headerLines.find((line) => line.key === "list-unsubscribe")?.line ?? "";
  const unsubscribe = /<(https?:\/\/[^>]+)>/.exec(header)?.[1];
  expect(unsubscribe).toMatch(/\/v1\/alerts\/[A-Za-z0-9_-]{43}\/unsubscribe$/);
  expect(news.headerLines.find((line) => line.key === "list-unsubscribe-post")?.line).toMatch(/List-Unsubscribe=One-Click/);

  // RFC 8058: what a mail client sends, with no cookie and no page to click through.
  const mailClient = await playwright.request.newContext();
  const res = await mailClient.post(unsubscribe!, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, data: "List-Unsubscribe=One-Click" });
  expect(res.status(), await res.text()).toBe(200);
  await mailClient.dispose();

  await page.reload();
  await expect(page.getByRole("heading", { name: "This alert no longer exists" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the alert form says how long to wait when the address had its confirmations for the hour, and puts the server's field errors by their fields", async ({
  page,
}) => {
  // Three confirmation emails an hour to one address: a partner forwards three first.
  const email = `${uniqueName("busy").replace(/\s+/g, ".")}@example.org`;
  const partner = bearer(createKey("e2e alert forwarder", "--plan", "business", "--scopes", "pets:read,applications:write"));
  for (let i = 0; i < 3; i++) {
    const res = await page.request.post("/v1/alerts", { headers: partner, data: { email, frequency: "daily", consent: true, filters: { q: `busy${i}` } } });
    expect(res.status(), await res.text()).toBe(202);
  }

  await page.goto("/?q=busy");
  await page.getByRole("button", { name: "Email me new matches" }).click();
  const form = page.getByRole("form", { name: "Email me new matches" });
  await form.getByRole("textbox", { name: "Email" }).fill(email);
  await form.getByRole("radio", { name: "Daily" }).check();
  await form.getByRole("checkbox", { name: /I agree to get these emails/ }).check();
  await form.getByRole("button", { name: "Create alert" }).click();
  await expect(form.getByRole("alert").filter({ hasText: /Please wait \d+ (minutes?|seconds?)/ })).toBeVisible();
  await expect(form.getByRole("textbox", { name: "Email" })).toHaveValue(email);

  // A refusal the form could not foresee, on a field: said under that field.
  await page.route("**/v1/alerts", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        code: "invalid_body",
        status: 400,
        message: "The request body is invalid.",
        details: [{ field: "email", issue: "must be an address that can receive email" }],
      }),
    }),
  );
  await form.getByRole("button", { name: "Create alert" }).click();
  await expect(form.getByText("Email must be an address that can receive email.")).toBeVisible();
  await expect(form.getByRole("textbox", { name: "Email" })).toHaveAttribute("aria-invalid", "true");
});
