import { expect, test, type Page } from "@playwright/test";
import { bearer, createKey } from "../helpers";
import { linksIn, waitForMail } from "../mailbox";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations } from "./page-quality";
import { uniqueName } from "./staff-helpers";

// Fostering, as a visitor and a foster do it on a phone (390 px): the
// application to foster on a shelter's page (errors by the fields, then the
// confirmation by email); staff approve it (here through the API, with a key
// holding people:write); the welcome email's private link opens the foster's
// own page, where they change how many animals they can take, in English and
// in Spanish. A link that names nothing is a clear page, not an error.

test.use({ viewport: { width: 390, height: 844 } });

let key: string;
let shelter: { id: number; slug: string; name: string };
test.beforeAll(async ({ request }) => {
  key = createKey("e2e fosters", "--scopes", "pets:read,people:read,people:write", "--plan", "business");
  const res = await request.get("/v1/organizations/1", { headers: bearer(key) });
  expect(res.status()).toBe(200);
  shelter = await res.json();
});

/** With FOSTER_SHOTS=<dir>: the page at 390 px and at 1280 px, for a person to look at (nothing is compared). */
async function shot(page: Page, name: string) {
  const dir = process.env.FOSTER_SHOTS;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
}

async function applyToFoster(page: Page, email: string) {
  await page.goto(`/shelters/${shelter.slug}`);
  await page.getByRole("button", { name: "Apply to foster" }).click();
  const form = page.getByRole("form", { name: `Foster for ${shelter.name}` });
  await expect(form.getByLabel("Your name")).toBeFocused();
  // Sent empty: each error by its field.
  await form.getByRole("button", { name: "Send my application" }).click();
  await expect(form.getByText(/^Your name /)).toBeVisible();
  await expect(form.getByText(/^Consent must be given/)).toBeVisible();
  await form.getByLabel("Your name").fill("Robin Foster");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Town or city").fill("Evanston");
  await form.getByLabel("Postcode or ZIP code").fill("60201");
  await form.getByLabel("Country").selectOption("US");
  await form.getByRole("checkbox", { name: "Cats" }).check();
  await form.getByLabel("How many at once?").fill("2");
  await form.getByLabel(/Anything the shelter should know/).fill("A quiet flat and a spare room.");
  await form.getByRole("checkbox", { name: /I agree that .* stores these details/ }).check();
  await shot(page, "apply-en");
  await expectNoHorizontalScroll(page);
  await form.getByRole("button", { name: "Send my application" }).click();
  // The first US ZIP code looked up loads the ZIP data (7 MB) on the server: give it time.
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(`We have sent an email to ${email}`)).toBeVisible();
}

test("a visitor applies to foster on a shelter's page; approved, they open their page and change their capacity, in English and Spanish", async ({
  page,
  request,
  baseURL,
}) => {
  const email = `${uniqueName("foster").replace(/\s+/g, ".")}@example.org`;
  await applyToFoster(page, email);
  await waitForMail(email, `We received your application to foster for ${shelter.name}`);
  await expectNoSeriousA11yViolations(page);

  // Staff approve (the inbox is theirs; here its API).
  const inbox = await request.get(`/v1/organizations/${shelter.id}/foster-applications`, { headers: bearer(key) });
  const applicant = ((await inbox.json()) as { id: number; email: string }[]).find((a) => a.email === email)!;
  expect(applicant).toBeDefined();
  const approved = await request.post(`/v1/organizations/${shelter.id}/foster-applications/${applicant.id}/approve`, { headers: bearer(key) });
  expect(approved.status()).toBe(200);
  const welcome = await waitForMail(email, `Welcome: you are now a foster for ${shelter.name}`);
  const link = linksIn(welcome).find((l) => l.includes("/fosters/"))!;
  expect(link).toMatch(new RegExp(`^${baseURL}/fosters/[A-Za-z0-9_-]{43}$`));

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Hello, Robin Foster" })).toBeVisible();
  await expect(page.getByText("No animals are with you right now.")).toBeVisible();
  await page.getByLabel("How many animals at once").fill("3");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await expect(page.getByText("You have room for 3 more animals")).toBeVisible();
  await shot(page, "foster-en");
  await expectNoHorizontalScroll(page);
  await expectNoSeriousA11yViolations(page);

  // A bad value: said by the field, nothing saved.
  await page.getByLabel("How many animals at once").fill("60");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Give a whole number from 1 to 50.")).toBeVisible();

  // The same page in Spanish.
  await page.goto(link.replace("/fosters/", "/es/fosters/"));
  await expect(page.getByRole("heading", { level: 1, name: "Hola, Robin Foster" })).toBeVisible();
  await page.getByLabel("Cuántos animales a la vez").fill("4");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Guardado." })).toBeVisible();
  await expect(page.getByText("Tiene sitio para 4 animales más")).toBeVisible();
  await page.getByRole("button", { name: "Estoy listo para otro" }).click();
  await expect(page.getByText(/Le dijo a .* que estaba listo para otro/)).toBeVisible();
  await shot(page, "foster-es");
  await expectNoHorizontalScroll(page);

  const view = await request.get(link.replace(/^.*\/fosters\//, "/v1/foster-links/"));
  expect(await view.json()).toMatchObject({ capacity: 4 });
});

test("in Spanish, a visitor applies to foster at 390 px; a wrong foster link is a clear page", async ({ page }) => {
  await page.goto(`/es/shelters/${shelter.slug}`);
  await page.getByRole("button", { name: "Solicitar ser casa de acogida" }).click();
  const form = page.getByRole("form", { name: `Sea casa de acogida de ${shelter.name}` });
  await form.getByRole("button", { name: "Enviar mi solicitud" }).click();
  await expect(form.getByText(/Escriba su nombre\./)).toBeVisible();
  const email = `${uniqueName("acogida").replace(/\s+/g, ".")}@example.org`;
  await form.getByLabel("Su nombre").fill("Alex Acogida");
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Localidad").fill("Madrid");
  await form.getByLabel("País").selectOption("ES");
  await form.getByRole("checkbox", { name: /Acepto que/ }).check();
  await shot(page, "apply-es");
  await expectNoHorizontalScroll(page);
  await form.getByRole("button", { name: "Enviar mi solicitud" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias!" })).toBeVisible();
  await waitForMail(email, `Hemos recibido su solicitud de acogida para ${shelter.name}`);

  await page.goto(`/es/fosters/${"A".repeat(43)}`);
  await expect(page.getByRole("heading", { level: 1, name: "No hemos encontrado esa página de acogida" })).toBeVisible();
  await page.goto(`/fosters/${"B".repeat(43)}`);
  await expect(page.getByRole("heading", { level: 1, name: "We couldn’t find that foster page" })).toBeVisible();
});
