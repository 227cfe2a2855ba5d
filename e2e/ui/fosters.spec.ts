import { expect as baseExpect, test, type Page } from "@playwright/test";
import { docScreenshot } from "../doc-screenshots";
import type { ApiPet } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";

// Staff keep their fosters on /staff/fosters (add, change, remove), place an
// animal from its page's Foster care panel (place, move, bring back; a full
// foster is refused with the reason), and see on the board where every
// animal in care is. On a phone and on a desktop, as staff use both.

// Every step is a round trip (and a placement a locked change of the animal): on the shared, loaded machines 5 s is too short.
const expect = baseExpect.configure({ timeout: 15_000 });

interface ApiPerson {
  id: number;
  name: string;
}

const VIEWPORTS = [
  [390, "-phone"],
  [1280, ""],
] as const;

/** A staff-session write as the pages make it: same-origin, so it carries our Origin. */
const sameOrigin = (baseURL: string) => ({ Origin: new URL(baseURL).origin });

async function newPet(page: Page, baseURL: string, name: string): Promise<ApiPet> {
  const res = await page.request.post("/v1/pets", { headers: sameOrigin(baseURL), data: { name, categoryId: 1, intake: { type: "stray" } } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as ApiPet;
}

async function personNamed(page: Page, name: string): Promise<ApiPerson> {
  const res = await page.request.get(`/v1/organizations/1/people?q=${encodeURIComponent(name)}`);
  expect(res.status()).toBe(200);
  const found = ((await res.json()) as ApiPerson[]).filter((p) => p.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** Fills the add form and sends it; the roster then lists the foster. */
async function addFoster(page: Page, { name, capacity, city }: { name: string; capacity: number; city?: string }): Promise<void> {
  const form = page.getByRole("form", { name: "Add a foster" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Email", { exact: true }).fill(`${name.replace(/\W+/g, ".").toLowerCase()}@example.org`);
  await form.getByLabel("Status", { exact: true }).selectOption("active");
  await form.getByLabel("Capacity", { exact: true }).fill(String(capacity));
  await form.getByRole("checkbox", { name: "Dogs" }).check();
  if (city) {
    await form.getByLabel("City", { exact: true }).fill(city);
    await form.getByLabel("State or region").fill("IL");
    await form.getByLabel("ZIP or postal code").fill("60614");
  }
  await form.getByRole("button", { name: "Add foster" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added ${name}.` })).toBeVisible();
}

const fosterCard = (page: Page, name: string) => page.getByRole("list", { name: "Fosters" }).getByRole("listitem", { name });

async function chooseFoster(form: ReturnType<Page["getByRole"]>, name: string): Promise<void> {
  const select = form.getByLabel("Foster", { exact: true });
  const value = await select.locator("option", { hasText: name }).getAttribute("value");
  await select.selectOption(value!);
}

for (const [width, suffix] of VIEWPORTS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 600 ? 844 : 1000 } });
    test.describe.configure({ timeout: 180_000 });

    test("staff add fosters, place an animal, move it, bring it back, and see the board; a full foster is refused", async ({ page, context, baseURL }) => {
      await signInAsStaff(context, baseURL!);
      const [maria, sam, jo] = [uniqueName("Maria Fosterer"), uniqueName("Sam Fosterer"), uniqueName("Jo Fosterer")];
      const pup = await newPet(page, baseURL!, uniqueName("Pepper"));
      const other = await newPet(page, baseURL!, uniqueName("Rusty"));

      // The roster, from the staff navigation.
      await page.goto("/staff");
      await page.getByRole("link", { name: "Fosters", exact: true }).click();
      await expect(page).toHaveURL(/\/staff\/fosters$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fosters");

      // The API's refusals land on their own fields.
      const form = page.getByRole("form", { name: "Add a foster" });
      await form.getByLabel("Email", { exact: true }).fill("not an email");
      await form.getByRole("button", { name: "Add foster" }).click();
      await expect(form.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
      await expect(form.getByLabel("Name", { exact: true })).toHaveAccessibleDescription(/Name (is required|must not be blank)/);
      await expect(form.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
      if (!suffix) await docScreenshot(form, "foster-form-errors.png");

      await addFoster(page, { name: maria, capacity: 2, city: "Chicago" });
      await addFoster(page, { name: sam, capacity: 1 });
      await addFoster(page, { name: jo, capacity: 1 });
      await page.getByLabel("Name or email").fill(maria);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(fosterCard(page, maria)).toContainText("0 of 2");
      await expect(fosterCard(page, maria)).toContainText("Chicago, IL");

      // Edit: a change of capacity shows at once.
      await fosterCard(page, maria)
        .getByRole("button", { name: `Edit ${maria}` })
        .click();
      const edit = page.getByRole("form", { name: `Edit ${maria}` });
      await edit.getByLabel("Capacity", { exact: true }).fill("3");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").filter({ hasText: `Saved ${maria}.` })).toBeVisible();
      await expect(fosterCard(page, maria)).toContainText("0 of 3");
      await page.getByLabel("Name or email").fill("");
      await page.getByRole("button", { name: "Search" }).click();
      await expectNoHorizontalScroll(page);
      await expectNoSeriousA11yViolations(page);
      await docScreenshot(page, `fosters${suffix}.png`, { fullPage: !suffix });

      // A foster who takes cats only (Pepper is a dog), added through the API.
      const kit = uniqueName("Kit Catsonly");
      const cats = await page.request.post("/v1/organizations/1/people", {
        headers: sameOrigin(baseURL!),
        data: { name: kit, email: `${kit.replace(/\W+/g, ".").toLowerCase()}@example.org`, foster: { status: "active", capacity: 2, species: ["cat"] } },
      });
      expect(cats.status(), await cats.text()).toBe(201);

      // The animal's page: at the shelter; fosters with room offered, the cats-only one listed but not choosable, saying why.
      await page.goto(`/pets/${pup.id}`);
      const panel = page.getByRole("region", { name: "Foster care" });
      await expect(panel).toContainText(`${pup.name} is at the shelter`);
      const place = panel.getByRole("form", { name: "Place with a foster" });
      await expect(place.getByLabel("Foster", { exact: true }).locator("option", { hasText: sam })).toBeEnabled();
      const kitOption = place.getByLabel("Foster", { exact: true }).locator("option", { hasText: kit });
      await expect(kitOption).toBeDisabled();
      await expect(kitOption).toContainText("takes cats only");

      // Meanwhile Sam's only place is taken (expected back yesterday: overdue): choosing Sam now is refused, with the reason.
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const taken = await page.request.post(`/v1/pets/${other.id}/placements`, {
        headers: sameOrigin(baseURL!),
        data: { personId: (await personNamed(page, sam)).id, expectedEndOn: yesterday },
      });
      expect(taken.status(), await taken.text()).toBe(201);
      await chooseFoster(place, sam);
      await place.getByRole("button", { name: "Place" }).click();
      await expect(place.getByRole("alert")).toContainText("This foster has no room");

      // Placed with Maria.
      await chooseFoster(place, maria);
      await place.getByRole("button", { name: "Place" }).click();
      await expect(panel.getByRole("status")).toHaveText(`Placed with ${maria}.`);
      await expect(panel).toContainText(`Now: with ${maria} since`);
      const placements = panel.getByRole("list", { name: `Placements of ${pup.name}, oldest first` }).getByRole("listitem");
      await expect(placements).toHaveCount(1);
      await expectNoHorizontalScroll(page);
      await expectNoSeriousA11yViolations(page);
      await docScreenshot(panel, `foster-care${suffix}.png`);

      // Moved to Jo: the first placement ends where the next begins.
      const move = panel.getByRole("form", { name: "Move to another foster" });
      await chooseFoster(move, jo);
      await move.getByRole("button", { name: "Move" }).click();
      await expect(panel.getByRole("status")).toHaveText(`Moved to ${jo}.`);
      await expect(placements).toHaveCount(2);
      await expect(placements.first()).toContainText("moved to another foster");
      await expect(panel).toContainText(`Now: with ${jo} since`);

      // Back to the shelter.
      await panel.getByRole("button", { name: "Back to the shelter" }).click();
      await expect(panel).toContainText(`${pup.name} is at the shelter`);
      await expect(placements.nth(1)).toContainText("back to the shelter");

      // Sam cannot be removed while Rusty is with them: said, and why.
      await page.goto("/staff/fosters");
      await fosterCard(page, sam)
        .getByRole("button", { name: `Remove ${sam}` })
        .click();
      await fosterCard(page, sam)
        .getByRole("button", { name: `Remove ${sam}` })
        .click();
      await expect(fosterCard(page, sam).getByRole("alert")).toContainText("still has an animal placed with them");

      // The board: Rusty with Sam, overdue; Pepper at the shelter.
      await page.getByRole("link", { name: "Where animals are" }).click();
      await expect(page).toHaveURL(/\/staff\/fosters\/board$/);
      const samGroup = page.getByRole("region", { name: "With fosters" }).getByRole("listitem", { name: sam });
      await expect(samGroup).toContainText(other.name);
      await expect(samGroup).toContainText("Overdue: expected back");
      await expect(page.getByRole("region", { name: "At the shelter" }).getByRole("link", { name: pup.name })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectNoSeriousA11yViolations(page);
      await docScreenshot(page, `foster-board${suffix}.png`, { fullPage: !suffix });

      // Removing a foster with nobody placed: their personal data goes.
      await page.goto("/staff/fosters");
      await fosterCard(page, jo)
        .getByRole("button", { name: `Remove ${jo}` })
        .click();
      await fosterCard(page, jo)
        .getByRole("button", { name: `Remove ${jo}` })
        .click();
      await expect(page.getByRole("status").filter({ hasText: `Erased ${jo}’s personal data.` })).toBeVisible();
      await expect(fosterCard(page, jo)).toHaveCount(0);
    });
  });
}
