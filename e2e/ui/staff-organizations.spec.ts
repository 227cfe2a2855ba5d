import pg from "pg";
import { expect, test, type Page } from "@playwright/test";
import { bearer, cli, createKey, createPet } from "../helpers";
import type { ApiPet } from "./site-helpers";
import { createStaffAccount, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// Many shelters, as staff see them: an organisation's staff see and change
// only their own organisation's applications, keys and animals, and edit
// their shelter's profile; a platform admin adds organisations and says
// whose key they issue. The demo login belongs to the first organisation
// (Petstore, Chicago); this file adds a shelter in Anchorage with staff of
// its own, and a platform admin.

interface ApiOrganization {
  id: number;
  name: string;
  slug: string;
}

let harbor: ApiOrganization;
let harborStaff: { email: string; password: string };
let platformAdmin: { email: string; password: string };
let harborKey: string;
let harborKeyName: string;
let homeKey: string;

function newShelter(name: string, postcode = "99501"): ApiOrganization {
  const result = cli("orgs", "create", "--name", name, "--city", "Anchorage", "--region", "AK", "--postcode", postcode, "--json");
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ApiOrganization;
}

test.beforeAll(() => {
  harbor = newShelter(uniqueName("Harbor Paws"));
  harborStaff = createStaffAccount("--org", harbor.slug);
  platformAdmin = createStaffAccount("--platform-admin");
  harborKeyName = uniqueName("Harbor app");
  harborKey = createKey(harborKeyName, "--org", harbor.slug, "--plan", "business", "--scopes", "pets:read,pets:write,applications:write");
  homeKey = createKey(uniqueName("Petstore app"), "--plan", "business", "--scopes", "pets:read,pets:write,applications:write");
});

async function newPet(page: Page, key: string, name: string): Promise<ApiPet> {
  return createPet<ApiPet>(page.request, key, { name });
}

async function apply(page: Page, key: string, petId: number, name: string): Promise<void> {
  const email = `${name.replace(/[^A-Za-z0-9]+/g, ".").toLowerCase()}@example.org`;
  const res = await page.request.post(`/v1/pets/${petId}/applications`, {
    headers: bearer(key),
    data: { name, email, home: "house", message: "A garden.", consent: true },
  });
  expect(res.status(), await res.text()).toBe(201);
}

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const rowOf = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });

test("staff of another organisation see only their own applications and keys, and cannot change the first organisation's animals", async ({
  page,
  context,
  baseURL,
}) => {
  const homePet = await newPet(page, homeKey, uniqueName("Chicago dog"));
  const harborPet = await newPet(page, harborKey, uniqueName("Harbor dog"));
  const theirs = uniqueName("Chicago Applicant");
  const ours = uniqueName("Harbor Applicant");
  await apply(page, homeKey, homePet.id, theirs);
  await apply(page, harborKey, harborPet.id, ours);

  await signInAsStaff(context, baseURL!, harborStaff);
  await page.goto("/staff/applications");
  // The header says whose data this is.
  await expect(mainNav(page)).toContainText(`Signed in as staff of ${harbor.name}`);
  await expect(rowOf(page, ours)).toBeVisible();
  await expect(rowOf(page, theirs)).toHaveCount(0);

  await page.goto("/staff/keys");
  await expect(rowOf(page, harborKeyName)).toBeVisible();
  const keyNames = await page.getByRole("region", { name: "API keys" }).getByRole("rowheader").allTextContents();
  expect(keyNames.length).toBeGreaterThan(0);
  const harborKeys = JSON.parse(cli("keys", "list", "--org", harbor.slug, "--json").stdout) as { name: string }[];
  expect(keyNames.sort()).toEqual(harborKeys.map((k) => k.name).sort());
  // An organisation's staff issue their own organisation's keys: nobody to choose.
  await expect(page.getByRole("group", { name: "Whose key" })).toHaveCount(0);

  // The first organisation's animal: its page, without the staff tools, and the API refuses a change.
  await page.goto(`/pets/${homePet.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(homePet.name);
  await expect(page.getByRole("note").filter({ hasText: "is at another shelter" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Change this animal" })).toHaveCount(0);
  const refused = await page.request.patch(`/v1/pets/${homePet.id}`, { data: { name: "Taken" }, headers: { Origin: new URL(baseURL!).origin } });
  expect(refused.status()).toBe(403);
  expect((await (await page.request.get(`/v1/pets?id=${homePet.id}`)).json())[0].name).toBe(homePet.name);

  // Their own animal: the tools are there.
  await page.goto(`/pets/${harborPet.id}`);
  await expect(page.getByRole("heading", { name: "Change this animal" })).toBeVisible();
});

test("staff edit their shelter's profile: checked as the API checks it, and adopters see it at once", async ({ page, context, baseURL }) => {
  await signInAsStaff(context, baseURL!, harborStaff);
  await page.goto("/staff/organization");
  await expect(page).toHaveTitle("Shelter profile · Petstore");
  await expect(mainNav(page).getByRole("link", { name: "Shelter profile" })).toHaveAttribute("aria-current", "page");
  const form = page.getByRole("form", { name: "Your shelter’s profile" });
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(harbor.name);
  await expect(form.getByRole("radio", { name: /Placed from the ZIP code/ })).toBeChecked();

  // Refused in the browser, by the API's own schema.
  await form.getByLabel("Website").fill("harbor paws");
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByLabel("Website")).toHaveAccessibleDescription(/^The whole address, starting with https:\/\/ Website must be an http\(s\) address/);

  await form.getByLabel("Website").fill("https://harbor-paws.example");
  await form.getByLabel("Phone").fill("+1 907 555 0199");
  await form.getByLabel("Street").fill("700 W 4th Ave");
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved. Adopters see the new details now.");
  const preview = page.getByRole("region", { name: "Where adopters find you" });
  await expect(preview).toContainText("+1 907 555 0199");

  // A ZIP code the API does not know: said on its field, nothing saved.
  await form.getByLabel("ZIP or postal code").fill("00000");
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByLabel("ZIP or postal code")).toHaveAccessibleDescription(/ZIP or postal code is not a US ZIP code we know/);
  // An exact position instead.
  await form.getByRole("radio", { name: /An exact position/ }).check();
  await form.getByRole("spinbutton", { name: "Latitude" }).fill("61.2176");
  await form.getByRole("spinbutton", { name: "Longitude" }).fill("-149.8997");
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved. Adopters see the new details now.");
  await expect(preview).toContainText("61.2176, -149.8997");

  // Back to the ZIP code's centre.
  await form.getByLabel("ZIP or postal code").fill("99501");
  await form.getByRole("radio", { name: /Placed from the ZIP code/ }).check();
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved. Adopters see the new details now.");
  await expect(preview).toContainText("61.2116, -149.8761");
  await expectNoSeriousA11yViolations(page);

  // What adopters see.
  await page.goto(`/shelters/${harbor.slug}`);
  const contact = page.getByRole("region", { name: "Visit or contact" });
  await expect(contact).toContainText("700 W 4th Ave");
  await expect(contact.getByRole("link", { name: "+1 907 555 0199" })).toHaveAttribute("href", "tel:+19075550199");
  await expect(contact.getByRole("link", { name: "harbor-paws.example" })).toBeVisible();
});

test("screenshots: the profile page as the demo shelter's staff see it, on a phone and a desktop; nothing scrolls sideways", async ({
  page,
  context,
  baseURL,
}) => {
  await signInAsStaff(context, baseURL!);
  for (const [width, suffix] of [
    [390, "-phone"],
    [1280, ""],
  ] as const) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 1000 });
    await page.goto("/staff/organization");
    await expect(page.getByRole("form", { name: "Your shelter’s profile" }).getByLabel("Name", { exact: true })).toHaveValue("Petstore");
    await expectNoHorizontalScroll(page);
    await docScreenshot(page, `staff-profile${suffix}.png`);
  }
});

test("a shelter moved from a one-shelter install, with no address yet, is asked for it on the dashboard", async ({ page, context, baseURL }) => {
  const unplaced = newShelter(uniqueName("Old Town Rescue"));
  // As the migration leaves the first organisation of an older install: no address, no position.
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      "UPDATE organizations SET street = NULL, city = NULL, region = NULL, postcode = NULL, country = NULL, lat = NULL, lng = NULL WHERE id = $1",
      [unplaced.id],
    );
  } finally {
    await client.end();
  }
  await signInAsStaff(context, baseURL!, createStaffAccount("--org", unplaced.slug));
  await page.goto("/staff");
  const prompt = page.getByRole("note").filter({ hasText: "Add your shelter’s address so adopters can find it near them." });
  await expect(prompt).toBeVisible();
  await prompt.getByRole("link", { name: "Add the address" }).click();
  await expect(page).toHaveURL("/staff/organization");
  await expect(page.getByRole("region", { name: "Where adopters find you" })).toContainText("cannot find you yet");

  const form = page.getByRole("form", { name: "Your shelter’s profile" });
  await form.getByLabel("City").fill("Juneau");
  await form.getByLabel("State or region").fill("AK");
  await form.getByLabel("ZIP or postal code").fill("99801");
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved. Adopters see the new details now.");
  await page.goto("/staff");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
  await expect(prompt).toHaveCount(0);
  const found = (await (await page.request.get("/v1/organizations?near=99801&within=10mi")).json()) as ApiOrganization[];
  expect(found.map((o) => o.id)).toContain(unplaced.id);
});

test("a platform admin adds an organisation, and chooses whose key to issue", async ({ page, context, baseURL }) => {
  await signInAsStaff(context, baseURL!, platformAdmin);
  await page.goto("/staff/organizations");
  await expect(mainNav(page)).toContainText("Signed in as Platform admin");
  await expect(page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /^Petstore #1 ·/ }) })).toContainText("Chicago, IL");

  const name = uniqueName("Northern Lights Rescue");
  const form = page.getByRole("form", { name: "Add an organisation" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Email").fill("hello@northern-lights.example");
  await form.getByLabel("City").fill("Fairbanks");
  await form.getByLabel("State or region").fill("AK");
  await form.getByLabel("ZIP or postal code").fill("99701");
  await form.getByRole("button", { name: "Add organisation" }).click();
  const added = page.getByRole("status").filter({ hasText: `Added ${name}.` });
  await expect(added).toBeFocused();
  const slug = (await added.getByRole("link").first().textContent())!.replace("/shelters/", "");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Fairbanks, AK");
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");
  await expectNoSeriousA11yViolations(page);

  // Adopters find it at once.
  const res = await page.request.get(`/shelters/${slug}`);
  expect(res.status()).toBe(200);

  // Whose key: the new organisation's, then a platform key; the list says whose each is.
  await page.goto("/staff/keys");
  const keyForm = page.getByRole("form", { name: "Issue a key" });
  await keyForm.getByRole("button", { name: "Issue key" }).click();
  await expect(keyForm.getByRole("combobox", { name: "Organisation" })).toHaveAccessibleDescription(/Choose the organisation whose key it is/);
  const orgKey = uniqueName("Northern app");
  await keyForm.getByRole("combobox", { name: "Organisation" }).selectOption({ label: `${name} (Fairbanks)` });
  await keyForm.getByLabel("Name", { exact: true }).fill(orgKey);
  await keyForm.getByRole("button", { name: "Issue key" }).click();
  await expect(page.getByRole("region", { name: `New key for ${orgKey}` })).toBeVisible();
  await expect(rowOf(page, orgKey)).toContainText(name);

  const platformKey = uniqueName("Listing site");
  await keyForm.getByRole("radio", { name: "A platform key (every organisation)" }).check();
  await keyForm.getByLabel("Name", { exact: true }).fill(platformKey);
  await keyForm.getByRole("button", { name: "Issue key" }).click();
  await expect(page.getByRole("region", { name: `New key for ${platformKey}` })).toBeVisible();
  await expect(rowOf(page, platformKey)).toContainText("Platform key");
  // Every organisation's keys are listed for a platform admin, the first organisation's too.
  await page.reload();
  await expect(rowOf(page, orgKey)).toContainText(name);
  await expect(page.getByRole("region", { name: "API keys" }).getByRole("row").filter({ hasText: "Petstore" }).first()).toBeVisible();
});
