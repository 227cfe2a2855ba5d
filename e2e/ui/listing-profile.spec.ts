import { expect, test, type Page, type Request } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import { animalList, cardNames, filterSheet, filtersButton, settledList, type ApiPet } from "./site-helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, recordRequests, signInAsStaff, uniqueName } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// The profile in the listing sites' words (issue 34) and listOnOtherSites
// (issue 35), as people meet it: on the staff add and edit forms, on the
// animal's page (plain words, nothing for what is not known, the video
// loaded only when pressed), and as the browse page's filters.

type ListingPet = ApiPet & Record<string, unknown>;

let key: string;
test.beforeAll(() => {
  key = createKey("e2e listing profile", "--plan", "business");
});

async function newPet(page: Page, fields: Record<string, unknown>): Promise<ListingPet> {
  return createPet<ListingPet>(page.request, key, { status: "available", ...fields });
}

async function petById(page: Page, id: number): Promise<ListingPet> {
  const res = await page.request.get(`/v1/pets?id=${id}`, { headers: bearer(key) });
  return ((await res.json()) as ListingPet[])[0]!;
}

const unique = () => `E2E-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;
const youtube = (request: Request) => /youtube|vimeo/.test(new URL(request.url()).hostname);

test.describe("the staff forms", () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await signInAsStaff(context, baseURL!);
  });

  test("the add form takes every listing field, yes/no/not known as answers, the fee in dollars and cents, and the animal's page says them in words", async ({
    page,
  }) => {
    const name = uniqueName("Juniper");
    const externalId = unique();
    await page.goto("/staff/pets/new");
    const form = page.getByRole("form", { name: "New animal" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Category").selectOption({ label: "Dogs" });
    await form.getByLabel("Sex").selectOption("female");
    await form.getByLabel("Breed", { exact: true }).fill("Labrador");
    await form.getByLabel("Shelter's ID").fill(externalId);
    await form.getByLabel("Second breed").fill("Border collie");
    await form.getByLabel("Mixed breed").selectOption("Yes");
    await form.getByLabel("Colours").fill("Black,  White, black");
    await form.getByLabel("Coat").selectOption("Medium");
    // Every answer starts as "Not known", never as "No".
    const care = form.getByRole("group", { name: "Care and health" });
    for (const label of ["Spayed or neutered", "House-trained", "Declawed", "Shots up to date", "Special needs"]) {
      await expect(care.getByLabel(label)).toHaveValue("");
    }
    await care.getByLabel("Spayed or neutered").selectOption("Yes");
    await care.getByLabel("House-trained").selectOption("Yes");
    await care.getByLabel("Shots up to date").selectOption("No");
    await care.getByLabel("Special needs").selectOption("Yes");
    await form.getByLabel("Special needs notes").fill("Needs a daily thyroid pill.");
    const fee = form.getByRole("group", { name: "Adoption fee" });
    await fee.getByLabel("Amount").fill("150.50");
    await form.getByLabel("Intake date").fill("2026-10-02");
    await form.getByLabel("Video").fill("https://youtu.be/dQw4w9WgXcQ");
    await form.getByLabel("Tags").fill("Playful, Loves car rides");
    await expect(form.getByLabel("Tags")).toHaveAccessibleDescription(/2 of 10\./);
    const listed = form.getByRole("switch", { name: "Send to listing sites" });
    await expect(listed).toBeChecked();
    await listed.uncheck();
    await expectNoSeriousA11yViolations(page);

    const posts = recordRequests(page, "POST", "/v1/pets");
    await form.getByRole("button", { name: "Add animal" }).click();
    await expect(page.getByTestId("added-name")).toHaveText(name);
    expect(posts[0]!.postDataJSON()).toMatchObject({
      externalId,
      secondaryBreed: "Border collie",
      mixedBreed: true,
      colors: ["Black", "White"],
      coatLength: "medium",
      spayedNeutered: true,
      houseTrained: true,
      declawed: null,
      shotsCurrent: false,
      specialNeeds: true,
      specialNeedsNotes: "Needs a daily thyroid pill.",
      adoptionFee: { amountCents: 15050, currency: "USD", waived: false },
      intakeDate: "2026-10-02",
      videoUrl: "https://youtu.be/dQw4w9WgXcQ",
      tags: ["Playful", "Loves car rides"],
      listOnOtherSites: false,
    });

    await page.getByRole("link", { name: `See ${name}’s page` }).click();
    const article = page.getByRole("article");
    await expect(article.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(article.locator("dd").filter({ hasText: "Labrador / Border collie mix" })).toBeVisible();
    await expect(article).toContainText("Black, White");
    await expect(article.locator("dt", { hasText: "Coat" }).locator("+ dd")).toHaveText("Medium");
    await expect(article).toContainText(`shelter’s ID ${externalId}`);
    const facts = article.getByRole("region", { name: "Good to know" }).getByRole("listitem");
    await expect(facts).toHaveText([
      "Spayed",
      "House-trained",
      "Shots not up to date",
      "Special needs: Needs a daily thyroid pill.",
      "Adoption fee $150.50",
      "At the shelter since 2 October 2026",
    ]);
    await expect(article.getByRole("list", { name: `${name} in a few words` }).getByRole("listitem")).toHaveText(["Playful", "Loves car rides"]);
  });

  test("refuses what the API would before sending, on the fields concerned, and shows the server's 409 on the shelter's ID", async ({ page }) => {
    const taken = unique();
    await newPet(page, { name: uniqueName("Holder"), externalId: taken });
    const posts = recordRequests(page, "POST", "/v1/pets");
    await page.goto("/staff/pets/new");
    const form = page.getByRole("form", { name: "New animal" });
    await form.getByLabel("Name", { exact: true }).fill(uniqueName("Refused"));
    await form.getByLabel("Category").selectOption({ label: "Cats" });
    await form.getByLabel("Video").fill("https://www.dailymotion.com/video/x7tgad0");
    await form.getByRole("group", { name: "Adoption fee" }).getByLabel("Amount").fill("150.505");
    await form.getByLabel("Tags").fill("calm, an extraordinarily long tag word");
    await form.getByRole("button", { name: "Add animal" }).click();
    await expect(form.getByLabel("Video")).toHaveAccessibleDescription(/Video must be an https address of a YouTube or Vimeo video/);
    await expect(form.getByRole("group", { name: "Adoption fee" })).toContainText("Adoption fee must be an amount such as 150 or 150.50.");
    await expect(form.getByLabel("Tags")).toHaveAccessibleDescription(/Each tag must be at most 30 characters \(“an extraordinarily l…”\)\./);
    await expect(form.getByLabel("Tags")).toHaveAttribute("aria-invalid", "true");
    expect(posts).toHaveLength(0);
    await expectNoSeriousA11yViolations(page);

    await form.getByLabel("Video").fill("");
    await form.getByRole("group", { name: "Adoption fee" }).getByLabel("Amount").fill("");
    await form.getByRole("group", { name: "Adoption fee" }).getByLabel("Waived (the animal goes home free)").check();
    await form.getByLabel("Tags").fill("calm");
    await form.getByLabel("Shelter's ID").fill(taken);
    await form.getByRole("button", { name: "Add animal" }).click();
    await expect(form.getByLabel("Shelter's ID")).toHaveAccessibleDescription(/Shelter's ID is already the id of animal \d+ of this organisation\./);
    await expect(form.getByLabel("Shelter's ID")).toBeFocused();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.postDataJSON()).toMatchObject({ adoptionFee: { amountCents: 0, currency: "USD", waived: true }, tags: ["calm"] });
  });

  test("the edit form sends only what changed, a known answer can go back to not known, and the fee keeps its amount when waived", async ({ page }) => {
    const pet = await newPet(page, {
      name: uniqueName("Edit listing"),
      houseTrained: true,
      adoptionFee: { amountCents: 9000 },
      colors: ["Grey"],
      tags: ["Calm"],
    });
    await page.goto(`/pets/${pet.id}`);
    const form = page.getByRole("form", { name: "Change this animal" });
    await expect(form.getByLabel("House-trained")).toHaveValue("true");
    await expect(form.getByRole("group", { name: "Adoption fee" }).getByLabel("Amount")).toHaveValue("90");
    await expect(form.getByLabel("Colours")).toHaveValue("Grey");
    await expect(form.getByRole("switch", { name: "Send to listing sites" })).toBeChecked();
    await expect(page.getByRole("region", { name: "Good to know" })).toContainText("Adoption fee $90");

    const patches = recordRequests(page, "PATCH", `/v1/pets/${pet.id}`);
    await form.getByLabel("House-trained").selectOption("Not known");
    await form.getByRole("group", { name: "Adoption fee" }).getByLabel("Waived (the animal goes home free)").check();
    await form.getByLabel("Colours").fill("Grey, White");
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form.getByRole("status")).toContainText("Saved.");
    expect(patches[0]!.postDataJSON()).toEqual({
      houseTrained: null,
      adoptionFee: { amountCents: 9000, currency: "USD", waived: true },
      colors: ["Grey", "White"],
    });
    const saved = await petById(page, pet.id);
    expect(saved).toMatchObject({
      houseTrained: null,
      adoptionFee: { amountCents: 9000, currency: "USD", waived: true },
      colors: ["Grey", "White"],
      tags: ["Calm"],
    });
    // The page follows: the unknown answer is gone, the fee is waived.
    const facts = page.getByRole("region", { name: "Good to know" });
    await expect(facts).toHaveText(/Fee waived/);
    await expect(facts).not.toContainText("House-trained");
    // The history says it in words.
    await expect(page.getByRole("list", { name: "Changes, newest first" }).locator(":scope > li").first()).toContainText("House-trained: yes → unknown");

    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form.getByRole("status")).toHaveText("Nothing to save: the values are the ones already stored.");
    expect(patches).toHaveLength(1);
  });

  test("fits a phone: the add form's listing fields without sideways scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/staff/pets/new");
    const form = page.getByRole("form", { name: "New animal" });
    await form.getByRole("group", { name: "Adoption fee" }).getByLabel("Amount").fill("75");
    await form.getByLabel("Tags").fill("Playful, Gentle, Loves car rides, Good on a lead");
    await form.getByRole("group", { name: "For the listing sites" }).scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(page);
    await docScreenshot(form.getByRole("group", { name: "For the listing sites" }), "listing-fields-phone.png");
    await page.setViewportSize({ width: 1280, height: 900 });
    await docScreenshot(form.getByRole("group", { name: "For the listing sites" }), "listing-fields.png");
  });
});

test.describe("the animal's page", () => {
  test("says nothing of what is not known", async ({ page }) => {
    const pet = await newPet(page, { name: uniqueName("Unknown") });
    await page.goto(`/pets/${pet.id}`);
    const article = page.getByRole("article");
    await expect(article.getByRole("heading", { level: 1 })).toHaveText(pet.name);
    await expect(article.getByRole("region", { name: "Good to know" })).toHaveCount(0);
    await expect(article.getByRole("region", { name: "Video" })).toHaveCount(0);
    for (const words of ["Spayed", "House-trained", "Shots", "Declawed", "Special needs", "Adoption fee", "Fee waived", "Coat", "Colours", "shelter’s ID"]) {
      await expect(article).not.toContainText(words);
    }
  });

  test("says neutered for a male, and the video plays in the privacy-enhanced player only once pressed", async ({ page }) => {
    const pet = await newPet(page, {
      name: uniqueName("Video star"),
      sex: "male",
      spayedNeutered: true,
      declawed: false,
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    });
    const thirdParty: string[] = [];
    page.on("request", (request) => {
      if (youtube(request)) thirdParty.push(request.url());
    });
    // No network here: the player answers from a stand-in, so the frame's loading (and the CSP allowing it) can be seen.
    await page.route("https://www.youtube-nocookie.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title><p>The player</p>" }),
    );
    const response = await page.goto(`/pets/${pet.id}`);
    expect(response!.headers()["content-security-policy"]).toContain("frame-src https://www.youtube-nocookie.com https://player.vimeo.com");

    const article = page.getByRole("article");
    await expect(article.getByRole("region", { name: "Good to know" }).getByRole("listitem")).toHaveText(["Neutered", "Not declawed"]);
    const video = article.getByRole("region", { name: "Video" });
    const play = video.getByRole("button", { name: `Play the video of ${pet.name}` });
    await expect(play).toBeVisible();
    await expect(play).toHaveAccessibleDescription("Plays from YouTube once you press play.");
    await expect(video.locator("iframe")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    expect(thirdParty).toEqual([]);

    await play.click();
    const frame = video.locator("iframe");
    await expect(frame).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1");
    await expect(frame).toHaveAccessibleName(`Video of ${pet.name}`);
    await expect(frame).toBeFocused();
    await expect(page.frameLocator(`iframe[title="Video of ${pet.name}"]`).getByText("The player")).toBeVisible();
    expect(thirdParty).toEqual(["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"]);
    await expectNoSeriousA11yViolations(page);
  });

  test("a Vimeo video asks Vimeo not to track (dnt=1); other pages allow no such frame", async ({ page }) => {
    const pet = await newPet(page, { name: uniqueName("Vimeo star"), videoUrl: "https://vimeo.com/76979871" });
    await page.route("https://player.vimeo.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>Vimeo player</p>" }));
    await page.goto(`/pets/${pet.id}`);
    await page.getByRole("button", { name: `Play the video of ${pet.name}` }).click();
    await expect(page.getByRole("article").locator("iframe")).toHaveAttribute("src", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1");
    await expect(page.frameLocator("iframe").getByText("Vimeo player")).toBeVisible();
    const browse = await page.request.get("/");
    expect(browse.headers()["content-security-policy"]).not.toContain("frame-src");
  });

  test("fits a phone, video and facts included", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const pet = await newPet(page, {
      name: uniqueName("Phone"),
      spayedNeutered: true,
      houseTrained: true,
      shotsCurrent: true,
      specialNeeds: true,
      specialNeedsNotes: "Deaf; has learned hand signals and watches your face for them all day long.",
      adoptionFee: { amountCents: 15000 },
      videoUrl: "https://youtu.be/dQw4w9WgXcQ",
      tags: ["Playful", "Loves car rides", "Good on a lead"],
      colors: ["Black", "White"],
      coatLength: "long",
    });
    await page.goto(`/pets/${pet.id}`);
    await expect(page.getByRole("region", { name: "Good to know" })).toContainText("Adoption fee $150");
    await expectNoHorizontalScroll(page);
    await expectNoSeriousA11yViolations(page);
    await docScreenshot(page, "pet-listing-phone.png", { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await docScreenshot(page, "pet-listing.png", { fullPage: true });
  });
});

test.describe("the browse filters", () => {
  test("house-trained and special needs narrow the list, in the URL, on a wide screen", async ({ page }) => {
    const trained = await newPet(page, { name: uniqueName("Trained"), houseTrained: true, specialNeeds: true });
    const untrained = await newPet(page, { name: uniqueName("Untrained"), houseTrained: false, specialNeeds: false });
    const unknown = await newPet(page, { name: uniqueName("Unasked") });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await settledList(page);
    for (const pet of [trained, untrained, unknown]) expect(await cardNames(page)).toContain(pet.name);

    // The box shows the URL's filter (history.pushState, which Next's router
    // syncs in a transition): it is ticked once that commits, a frame or so
    // later while the router is busy with the page's prefetches (which go
    // through proxy.ts too). Playwright's check() reads it at once; this waits.
    const houseTrained = page.getByRole("group", { name: "Care" }).getByLabel("House-trained");
    await houseTrained.click();
    await expect(houseTrained).toBeChecked();
    await expect(page).toHaveURL("/?houseTrained=true");
    await settledList(page);
    let names = await cardNames(page);
    expect(names).toContain(trained.name);
    expect(names).not.toContain(untrained.name);
    expect(names).not.toContain(unknown.name);

    await page.getByLabel("Special needs").selectOption("No special needs");
    await expect(page).toHaveURL("/?houseTrained=true&specialNeeds=false");
    await settledList(page);
    names = await cardNames(page);
    expect(names).not.toContain(trained.name);

    // The same view from its address, after a reload: the choices stay shown.
    await page.goto("/?specialNeeds=true");
    await settledList(page);
    await expect(page.getByLabel("Special needs")).toHaveValue("true");
    expect(await cardNames(page)).toContain(trained.name);
    expect(await cardNames(page)).not.toContain(untrained.name);
    await expectNoSeriousA11yViolations(page);
  });

  test("on a phone, they are in the Filters sheet and counted on its button", async ({ page }) => {
    const trained = await newPet(page, { name: uniqueName("Sheet trained"), houseTrained: true, specialNeeds: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await settledList(page);
    await filtersButton(page).click();
    const sheet = filterSheet(page);
    const houseTrained = sheet.getByRole("group", { name: "Care" }).getByLabel("House-trained");
    await houseTrained.click(); // ticked once the router commits the URL (see above)
    await expect(houseTrained).toBeChecked();
    await expect(page).toHaveURL("/?houseTrained=true");
    await sheet.getByLabel("Special needs").selectOption("Has special needs");
    await expect(page).toHaveURL("/?houseTrained=true&specialNeeds=true");
    await expectNoSeriousA11yViolations(page);
    await sheet.getByRole("button", { name: /^Show/ }).click();
    await expect(filtersButton(page)).toHaveAccessibleName("Filters (2)");
    await settledList(page);
    expect(await cardNames(page)).toContain(trained.name);
    await expect(animalList(page)).toBeVisible();
    await expectNoHorizontalScroll(page);

    await filtersButton(page).click();
    await sheet.getByRole("link", { name: "Clear all" }).click();
    await expect(page).toHaveURL("/");
    await sheet.getByRole("button", { name: "Close" }).click();
    await expect(filtersButton(page)).toHaveAccessibleName("Filters");
  });
});
