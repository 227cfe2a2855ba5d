import { expect, test, type Page } from "@playwright/test";
import { DEMO_STAFF, expectNoHorizontalScroll, expectNoSeriousA11yViolations, recordRequests, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// The staff pages: sign in, add an animal (the validated form), sign out.

const nameField = (page: Page) => page.getByLabel("Name", { exact: true });
const categoryField = (page: Page) => page.getByLabel("Category");
const statusField = (page: Page) => page.getByLabel("Status");
const addButton = (page: Page) => page.getByRole("button", { name: "Add animal" });

test.describe("sign in", () => {
  test("signs the demo staff member in, after showing the server's answer to a wrong password", async ({ page }) => {
    await page.goto("/staff/sign-in");
    await expect(page).toHaveTitle("Staff sign in · Petstore");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Staff sign in");
    const email = page.getByLabel("Email");
    const password = page.getByLabel("Password");
    await expect(email).toHaveAttribute("autocomplete", "username");
    await expect(password).toHaveAttribute("autocomplete", "current-password");
    await expect(page.getByRole("link", { name: "Staff sign in" })).toBeVisible();

    await email.fill(DEMO_STAFF.email);
    await password.fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The email or password is incorrect." })).toBeVisible();
    await expect(password).toHaveValue("");
    await expect(password).toBeFocused();

    await password.fill(DEMO_STAFF.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Staff land on the dashboard.
    await expect(page).toHaveURL((url) => url.pathname === "/staff");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(page.getByRole("link", { name: "API keys" })).toBeVisible();

    await page.goto("/staff/sign-in");
    await expect(page.getByText(`You're signed in as ${DEMO_STAFF.email}.`)).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/staff");
    await expect(page.getByRole("main").getByRole("link", { name: "Add an animal" })).toHaveAttribute("href", "/staff/pets/new");
    await expect(page.getByRole("main").getByRole("link", { name: "Manage API keys" })).toHaveAttribute("href", "/staff/keys");
  });

  test("checks the form with the API's schema before sending anything", async ({ page }) => {
    const posts = recordRequests(page, "POST", "/v1/session");
    await page.goto("/staff/sign-in");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-email-error")).toHaveText("Email must be an email address.");
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email")).toBeFocused();
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Password is required.");
    await page.getByLabel("Email").fill("not an email");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Email must be an email address.");
    expect(posts).toHaveLength(0);
  });

  test("goes on to ?next= when it is a path of this site, and nowhere else", async ({ page }) => {
    await page.goto("/staff/sign-in?next=/staff/keys");
    await page.getByLabel("Email").fill(DEMO_STAFF.email);
    await page.getByLabel("Password").fill(DEMO_STAFF.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // The path itself, not the sign-in URL whose ?next= also ends in /staff/keys.
    await expect(page).toHaveURL((url) => url.pathname === "/staff/keys");

    await page.context().clearCookies();
    await page.goto("/staff/sign-in?next=//evil.example/phish");
    await page.getByLabel("Email").fill(DEMO_STAFF.email);
    await page.getByLabel("Password").fill(DEMO_STAFF.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/staff");
  });

  test("has no serious accessibility violations, signed out or in", async ({ page, context, baseURL }) => {
    await page.goto("/staff/sign-in");
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-email-error")).not.toBeEmpty();
    await expectNoSeriousA11yViolations(page);

    await signInAsStaff(context, baseURL!);
    await page.goto("/staff/sign-in");
    await expect(page.getByText("You're signed in as")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe("add an animal", () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await signInAsStaff(context, baseURL!);
  });

  test("shows its own errors next to the fields without sending anything", async ({ page }) => {
    const posts = recordRequests(page, "POST", "/v1/pets");
    await page.goto("/staff/pets/new");
    await expect(page).toHaveTitle("Add an animal · Petstore");
    await expect(statusField(page)).toHaveValue("available");

    await addButton(page).click();
    await expect(page.locator("#pet-name-error")).toHaveText("Name must not be blank.");
    await expect(page.locator("#pet-name-error")).toHaveAttribute("role", "alert");
    await expect(nameField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(nameField(page)).toHaveAccessibleDescription(/Name must not be blank\./);
    await expect(nameField(page)).toBeFocused();
    await expect(categoryField(page)).toHaveAccessibleDescription("Category is required.");

    await nameField(page).fill("x".repeat(101));
    await addButton(page).click();
    await expect(page.locator("#pet-name-error")).toHaveText("Name must be at most 100 characters.");

    // Fixed, the error goes away as the field is corrected.
    await nameField(page).fill("x".repeat(100));
    await expect(page.locator("#pet-name-error")).toBeEmpty();
    await expect(nameField(page)).not.toHaveAttribute("aria-invalid", "true");
    expect(posts).toHaveLength(0);
  });

  test("shows the server's field errors on their fields", async ({ page }) => {
    await page.route(
      "**/v1/pets",
      (route) =>
        route.fulfill({
          status: 400,
          contentType: "application/json",
          body: JSON.stringify({
            code: "invalid_body",
            message: "The request body is invalid. name: must not be blank",
            status: 400,
            details: [{ field: "name", issue: "must not be blank" }],
          }),
        }),
      { times: 1 },
    );
    await page.goto("/staff/pets/new");
    await nameField(page).fill("Rex");
    await categoryField(page).selectOption({ label: "Dogs" });
    await addButton(page).click();
    await expect(page.locator("#pet-name-error")).toHaveText("Name must not be blank.");
    await expect(nameField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(nameField(page)).toHaveAccessibleDescription(/Name must not be blank\./);
    await expect(page.getByTestId("added-name")).toHaveCount(0);
  });

  test("shows a category that no longer exists on the category field", async ({ page }) => {
    await page.goto("/staff/pets/new");
    await nameField(page).fill("Ghost");
    // A category deleted while the form was open: the option still says Dogs.
    await categoryField(page).evaluate((select: HTMLSelectElement) => {
      select.options[1]!.value = "999999";
    });
    await categoryField(page).selectOption({ index: 1 });
    await addButton(page).click();
    await expect(page.locator("#pet-category-error")).toHaveText("Category does not name an existing category.");
    await expect(categoryField(page)).toHaveAttribute("aria-invalid", "true");
  });

  test("offers to sign in again when the session has expired", async ({ page }) => {
    await page.route(
      "**/v1/pets",
      (route) =>
        route.fulfill({
          status: 401,
          contentType: "application/json",
          headers: { "WWW-Authenticate": 'Bearer realm="petstore"' },
          body: JSON.stringify({ code: "unauthorized", message: "Authentication required.", status: 401 }),
        }),
      { times: 1 },
    );
    await page.goto("/staff/pets/new");
    await nameField(page).fill("Late");
    await categoryField(page).selectOption({ label: "Reptiles" });
    await addButton(page).click();
    const alert = page.getByRole("alert").filter({ hasText: "Your session has expired" });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole("link", { name: "Sign in as staff" })).toHaveAttribute("href", "/staff/sign-in?next=/staff/pets/new");
    await expect(nameField(page)).toHaveValue("Late");
  });

  test("says how long to wait when rate limited, with the button disabled while sending", async ({ page }) => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      "**/v1/pets",
      async (route) => {
        await answered;
        await route.fulfill({
          status: 429,
          contentType: "application/json",
          headers: { "Retry-After": "20" },
          body: JSON.stringify({ code: "rate_limited", message: "Rate limit exceeded: 300 requests per minute.", status: 429 }),
        });
      },
      { times: 1 },
    );
    await page.goto("/staff/pets/new");
    await nameField(page).fill("Speedy");
    await categoryField(page).selectOption({ label: "Rabbits" });
    await addButton(page).click();
    const sending = page.getByRole("button", { name: "Adding…" });
    await expect(sending).toBeDisabled();
    answer();
    await expect(page.getByRole("alert").filter({ hasText: "Please wait 20 seconds and try again." })).toBeVisible();
    await expect(addButton(page)).toBeEnabled();
  });

  test("adds an animal, shows it, and links to its page", async ({ page }) => {
    const name = uniqueName("Clementine");
    await page.goto("/staff/pets/new");
    await nameField(page).fill(`  ${name}  `);
    await categoryField(page).selectOption({ label: "Cats" });
    await statusField(page).selectOption("pending");
    await addButton(page).click();

    const added = page.getByRole("region", { name: `Added ${name}` });
    await expect(added).toBeVisible();
    await expect(added.getByRole("heading", { name: `Added ${name}` })).toBeFocused();
    await expect(page.getByTestId("added-name")).toHaveText(name);
    await expect(page.getByTestId("added-category")).toHaveText("Cats");
    await expect(page.getByTestId("added-status")).toHaveText("Pending");
    await expectNoSeriousA11yViolations(page);

    const link = added.getByRole("link", { name: `See ${name}’s page` });
    const href = await link.getAttribute("href");
    expect(href).toMatch(/^\/pets\/\d+$/);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole("main")).toContainText(name);
  });

  test("the browse list shows the new animal first, even where it was loaded before", async ({ page }) => {
    const name = uniqueName("Pippin");
    // Cards link to the animals' pages; the first is the newest.
    const firstCard = page.getByRole("main").locator('a[href^="/pets/"]').first();
    // The list is loaded (and cached) in this tab before the animal exists...
    await page.goto("/");
    await expect(firstCard).toBeVisible();
    await expect(firstCard).not.toContainText(name);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Add an animal" }).click();
    await nameField(page).fill(name);
    await categoryField(page).selectOption({ label: "Small mammals" });
    await addButton(page).click();
    await expect(page.getByTestId("added-name")).toHaveText(name);

    // ...and, back on it without a page load, it was fetched again.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Browse" }).click();
    await expect(firstCard).toContainText(name);
    await page.goto("/");
    await expect(firstCard).toContainText(name);
  });

  test("offers to add another, and can be filled and sent with the keyboard alone", async ({ page }) => {
    const name = uniqueName("Keyboard");
    await page.goto("/staff/pets/new");
    await nameField(page).focus();
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    await expect(categoryField(page)).toBeFocused();
    await categoryField(page).selectOption({ label: "Birds" });
    await page.keyboard.press("Tab");
    await expect(statusField(page)).toBeFocused();
    // Then the profile, starting with sex; past its last question, the listing sites' fields (the
    // shelter's ID first, the switch last), the photos, then the button.
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Sex")).toBeFocused();
    await page.getByLabel("Good with cats").focus();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Shelter's ID")).toBeFocused();
    await page.getByRole("switch", { name: "Send to listing sites" }).focus();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Choose photos")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(addButton(page)).toBeFocused();
    // The focused control shows it (focus-visible outline).
    expect(await addButton(page).evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
    await page.keyboard.press("Enter");

    await expect(page.getByTestId("added-name")).toHaveText(name);
    await page.getByRole("button", { name: "Add another" }).click();
    await expect(nameField(page)).toBeFocused();
    await expect(nameField(page)).toHaveValue("");
    await expect(statusField(page)).toHaveValue("available");
  });

  test("has no serious accessibility violations and fits a phone", async ({ page }) => {
    await page.goto("/staff/pets/new");
    await expect(nameField(page)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await addButton(page).click();
    await expect(page.locator("#pet-name-error")).not.toBeEmpty();
    await expectNoSeriousA11yViolations(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/staff/pets/new");
    await nameField(page).fill("x".repeat(100));
    await addButton(page).click();
    await expect(page.locator("#pet-category-error")).not.toBeEmpty();
    await expectNoHorizontalScroll(page);
  });

  test("screenshot: the add form showing its errors", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/staff/pets/new");
    await nameField(page).fill("x".repeat(101));
    await addButton(page).click();
    await expect(page.locator("#pet-name-error")).toHaveText("Name must be at most 100 characters.");
    await expect(page.locator("#pet-category-error")).toHaveText("Category is required.");
    await docScreenshot(page, "add-form-errors.png");
  });
});

test("the staff pages break no Content Security Policy rule and hydrate cleanly", async ({ page, context, baseURL }) => {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on("console", (message) => {
    if (message.type() === "error" && /CSP|Content Security Policy|hydrat|Minified React error/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  await page.goto("/staff/sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#sign-in-email-error")).not.toBeEmpty();
  await signInAsStaff(context, baseURL!);
  await page.goto("/staff/pets/new");
  await addButton(page).click();
  await expect(page.locator("#pet-name-error")).not.toBeEmpty();
  await page.goto("/staff/keys");
  await page.getByRole("button", { name: "Issue key" }).click();
  await expect(page.locator("#key-name-error")).not.toBeEmpty();
  expect(problems).toEqual([]);
});

test.describe("signed out", () => {
  test("the staff pages offer to sign in instead of their tools", async ({ page }) => {
    await page.goto("/staff/pets/new");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add an animal");
    await expect(page.getByRole("heading", { name: "Staff only" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in as staff" })).toHaveAttribute("href", "/staff/sign-in?next=/staff/pets/new");
    await expect(nameField(page)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("main").getByRole("link", { name: "Sign in as staff" }).click();
    await page.getByLabel("Email").fill(DEMO_STAFF.email);
    await page.getByLabel("Password").fill(DEMO_STAFF.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/staff/pets/new");
    await expect(nameField(page)).toBeVisible();
  });

  test("signing out from the header ends the staff session", async ({ page, context, baseURL }) => {
    await signInAsStaff(context, baseURL!);
    await page.goto("/staff/keys");
    await expect(page.getByRole("heading", { name: "Issue a key" })).toBeVisible();
    // The header's button is drawn on the server and its code loads lazily: a
    // click before it arrives does nothing (seen once under load), so click
    // again until the header has changed, as a person would.
    await expect(async () => {
      await page.getByRole("button", { name: "Sign out" }).click({ timeout: 2_000 });
      await expect(page.getByRole("link", { name: "Staff sign in" })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect
      .poll(() =>
        page.evaluate(() =>
          fetch("/v1/session")
            .then((r) => r.json())
            .then((b: { kind?: string }) => b.kind),
        ),
      )
      .toBe("anonymous");

    for (const path of ["/staff", "/staff/pets/new", "/staff/keys"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: "Staff only" })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    }
    await page.goto("/staff/sign-in");
    await expect(page.getByLabel("Email")).toBeVisible();
  });
});

test("a sign-out that fails says so and leaves the staff member signed in", async ({ page, context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
  await page.goto("/staff/keys");
  // Once the keys are listed the page has hydrated: a click on the server-drawn
  // button before that does nothing (its code is not there yet), which made the test flaky.
  await expect(page.getByText("Loading keys…")).toHaveCount(0);
  await page.route("**/v1/session", (route) =>
    route.request().method() === "DELETE"
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          headers: { "Retry-After": "5" },
          body: JSON.stringify({ code: "service_unavailable", message: "The service is temporarily unavailable. Please retry shortly.", status: 503 }),
        })
      : route.continue(),
  );
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Could not sign out: The service is temporarily unavailable." })).toBeVisible();
  await expect(page).toHaveURL(/\/staff\/keys$/);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await page.unroute("**/v1/session");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Staff sign in" })).toBeVisible();
});
