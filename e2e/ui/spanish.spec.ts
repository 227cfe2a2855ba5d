import { expect, test, type Browser } from "@playwright/test";
import { createKey, createPet } from "../helpers";
import { linksIn, waitForMail } from "../mailbox";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// The adopters' site in Spanish (issue 36), as a Spanish-speaking adopter on
// a phone walks it: the first visit goes to /es, a filter from the Filtros
// sheet, an animal's page, the application and its email, an alert, its
// confirmation email and a match's email, all in Spanish (the emails arrive at
// the suite's SMTP server, e2e/mailbox.ts); the switcher keeps the filters. English
// stays at today's addresses (every other spec walks it).

const PHONE = { width: 390, height: 844 };

let key: string;
test.beforeAll(() => {
  key = createKey("e2e spanish", "--plan", "business");
});

async function spanishPhone(browser: Browser) {
  // Playwright's locale sets Accept-Language, as a phone set to Spanish would.
  return browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: "es-US" });
}

test("a browser preferring Spanish is sent to /es once; the page says its language, its alternates and its canonical; English keeps its URL", async ({
  browser,
  baseURL,
}) => {
  const context = await spanishPhone(browser);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page).toHaveURL(/\/es$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page).toHaveTitle("Animales disponibles · Petstore");
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute("href", `${baseURL}`);
  await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute("href", `${baseURL}/es`);
  await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute("href", `${baseURL}`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/es`);

  // Choosing English is remembered: "/" no longer goes to /es.
  await page.getByRole("link", { name: "English" }).tap();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.goto("/");
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Available animals");
  await context.close();
});

test("on a phone in Spanish: a filter, an animal's page, applying, an alert with its confirmation and a match by email, then English with the same filters", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await spanishPhone(browser);
  const page = await context.newPage();
  const name = uniqueName("Canela");
  const pet = await createPet(page.request, key, {
    name,
    sex: "female",
    size: "small",
    houseTrained: true,
    shotsCurrent: true,
    spayedNeutered: true,
    adoptionFee: { amountCents: 15000, currency: "USD" },
  });

  // Browse: the search, then a filter from the Filtros sheet.
  await page.goto(`/es?q=${encodeURIComponent(name)}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await page.getByRole("button", { name: "Filtros" }).tap();
  const sheet = page.getByRole("dialog", { name: "Filtros" });
  await sheet.getByRole("group", { name: "Tamaño" }).getByLabel("Pequeño").click();
  await expect(page).toHaveURL(/\/es\?.*size=small/);
  await expect(sheet.getByRole("button", { name: "Ver 1 animal" })).toBeVisible();
  await sheet.getByRole("button", { name: "Ver 1 animal" }).tap();
  const list = page.getByRole("list", { name: "Animales", exact: true });
  const card = list.getByRole("listitem").filter({ hasText: name });
  await expect(card).toContainText("Perros");
  await expect(card).toContainText("Hembra · Pequeño");
  await expect(card).toContainText("Disponible");
  await expect(page.getByRole("status").filter({ hasText: "Se muestra 1 animal" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalScroll(page);
  await docScreenshot(page, "browse-es-phone.png");

  // The animal's page, in Spanish, at /es/pets/<id>.
  await card.getByRole("link", { name }).tap();
  await expect(page).toHaveURL(new RegExp(`/es/pets/${pet.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByText("Esterilizada", { exact: true })).toBeVisible();
  await expect(page.getByText("Vacunas al día", { exact: true })).toBeVisible();
  await expect(page.getByText("Tarifa de adopción: $150", { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await docScreenshot(page, "pet-es-phone.png");

  // Applying: the form's errors and its thanks in Spanish, then the email.
  await page.getByRole("button", { name: "Solicitar la adopción" }).tap();
  const form = page.getByRole("form", { name: `Solicite adoptar a ${name}` });
  await form.getByRole("button", { name: "Enviar solicitud" }).tap();
  await expect(form.getByText("Escriba su nombre.")).toBeVisible();
  const applicant = `${uniqueName("ana").replace(/\s+/g, ".")}@example.org`;
  await form.getByLabel("Su nombre").fill("Ana Pérez");
  await form.getByLabel("Correo electrónico").fill(applicant);
  await form.getByRole("radio", { name: "Apartamento" }).check();
  await form.getByLabel("¿Por qué este animal?").fill("Tengo tiempo y un hogar tranquilo.");
  await form.getByRole("checkbox", { name: /Acepto que el refugio guarde estos datos/ }).check();
  await form.getByRole("button", { name: "Enviar solicitud" }).tap();
  await expect(page.getByRole("heading", { name: `Gracias: recibimos su solicitud para ${name}` })).toBeVisible();
  const received = await waitForMail(applicant, `Recibimos su solicitud para ${name}`);
  // No typed text to an unconfirmed address: the greeting has no name.
  expect(received.text).toContain("Hola:");
  expect(received.text).not.toContain("Ana Pérez");

  // An alert for the filters (the name's unique word keeps other specs' animals out of it), its
  // confirmation email in Spanish, whose link opens the Spanish page, then a match, in Spanish too.
  const word = name.split(" ")[1]!;
  const described = `Todos los animales · hembra · pequeño · con un nombre como “${word}”`;
  await page.goto(`/es?size=small&sex=female&q=${word}`);
  await page.getByRole("button", { name: "Recibir por correo los animales nuevos" }).tap();
  const alertForm = page.getByRole("form", { name: "Recibir por correo los animales nuevos" });
  await expect(alertForm).toContainText(described);
  const subscriber = `${uniqueName("alerta").replace(/\s+/g, ".")}@example.org`;
  await alertForm.getByRole("textbox", { name: "Correo electrónico" }).fill(subscriber);
  await alertForm.getByRole("checkbox", { name: /Acepto recibir estos correos/ }).check();
  await alertForm.getByRole("button", { name: "Crear alerta" }).tap();
  await expect(page.getByRole("heading", { name: "Revise su correo" })).toBeFocused();
  // Until it is confirmed, the email does not repeat the name searched for (anyone can type an address).
  const confirm = await waitForMail(subscriber, "Confirme su alerta: Todos los animales · hembra · pequeño · una búsqueda por nombre");
  const manage = linksIn(confirm).find((link) => /\/es\/alerts\/[A-Za-z0-9_-]{43}$/.test(link));
  expect(manage).toBeDefined();
  await page.goto(new URL(manage!).pathname);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByText("Su alerta está confirmada.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Alerta" })).toContainText(described);
  await expect(page.getByRole("region", { name: "Alerta" })).toContainText("A medida que lleguen");
  await expectNoSeriousA11yViolations(page);

  // A matching animal arrives: the match email is in Spanish, and its links open the Spanish pages.
  // The sending job runs every minute, so it can take up to two.
  const newcomer = `${word} Junior`;
  await createPet(page.request, key, { name: newcomer, sex: "female", size: "small", status: "available" });
  const news = await waitForMail(subscriber, `Nueva coincidencia: ${newcomer} (${described})`, 180_000);
  expect(news.text).toContain("Un animal nuevo coincide con su alerta");
  expect(news.text).toContain(`Recibe este correo porque pidió los animales nuevos que coincidan con: ${described}.`);
  expect(String(news.html)).toContain(newcomer);
  expect(linksIn(news)).toContain(manage);

  // The switcher: the same view in English, filters kept.
  await page.goto(`/es?size=small&sex=female`);
  await page.getByRole("link", { name: "English" }).tap();
  await expect(page).toHaveURL(/\/\?size=small&sex=female$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Available animals");
  await context.close();
});

test("the shelters directory near a ZIP code and an unknown address, in Spanish", async ({ page }) => {
  await page.goto("/es/shelters?near=60601&within=25mi");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page).toHaveTitle("Refugios cerca de 60601 · Petstore");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Refugios");
  await expect(page.getByRole("search", { name: "Refugios cerca de un lugar" }).getByRole("textbox", { name: "Cerca de" })).toHaveValue("60601");
  const list = page.getByRole("list", { name: "Los más cercanos primero, a menos de 25 mi de 60601" });
  const card = list.getByRole("listitem").filter({ hasText: "Evanston Animal Friends" });
  await expect(card).toContainText(/a \d+ mi|a menos de 1 mi/);
  await expect(card.getByRole("link", { name: "Evanston Animal Friends" })).toHaveAttribute("href", "/es/shelters/evanston-animal-friends");
  await expectNoSeriousA11yViolations(page);

  const missing = await page.goto("/es/no-existe");
  expect(missing!.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No encontramos esa página");
  await expect(page).toHaveTitle(/^Página no encontrada/);
  await expect(page.getByRole("link", { name: "Ver todos los refugios" })).toHaveAttribute("href", "/es/shelters");
});
