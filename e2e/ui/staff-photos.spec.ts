import sharp from "sharp";
import { expect, test, type Page } from "@playwright/test";
import { bearer, createKey, createPet } from "../helpers";
import { expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff, uniqueName } from "./staff-helpers";

// Profiles and photos as staff make them and adopters see them: the add
// form with a profile and photos (picked and dropped), each upload's
// progress, reordering to change the cover, and adopters on 127.0.0.1 and
// on another host name seeing the new cover and the profile; the gallery by
// keyboard.

interface ApiPhoto {
  id: number;
  alt: string | null;
  urls: Record<string, string>;
}
interface ApiPet {
  id: number;
  name: string;
  version: number;
  photos: ApiPhoto[];
}

let key: string;
test.beforeAll(() => {
  key = createKey("e2e staff photos", "--plan", "business");
});

/** A camera-sized JPEG of one colour (so the cover can be told apart by its pixels). */
const jpeg = (r: number, g: number, b: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

async function readPet(page: Page, id: number): Promise<ApiPet> {
  const res = await page.request.get(`/v1/pets?id=${id}`, { headers: bearer(key) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as ApiPet[])[0]!;
}

/** The colour at the middle of an <img> as the browser decoded it. */
async function centreColour(page: Page, selector: string): Promise<[number, number, number]> {
  return page
    .locator(selector)
    .first()
    .evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const [r, g, b] = ctx.getImageData(img.naturalWidth / 2, img.naturalHeight / 2, 1, 1).data;
      return [r!, g!, b!] as [number, number, number];
    });
}

test("staff add an animal with a profile and two photos, make the second the cover; adopters on 127.0.0.1 and on another host name see it", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  await signInAsStaff(context, baseURL!);
  const name = uniqueName("Photo star");
  await page.goto("/staff/pets/new");
  const form = page.getByRole("form", { name: "New animal" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Category").selectOption({ label: "Dogs" });
  await form.getByLabel("Sex").selectOption("female");
  await form.getByLabel("Size when grown").selectOption("medium");
  await form.getByLabel("Date of birth").fill("2024-02-29");
  await form.getByLabel("Breed", { exact: true }).fill("Border collie");
  await form.getByLabel("Description").fill("Loves <b>balls</b> & <script>alert(1)</script>\nSecond line.");
  await form.getByLabel("Good with children").selectOption("true");
  await form.getByLabel("Good with cats").selectOption("false");

  // One photo through the picker, one dropped on the zone.
  await form.getByLabel("Choose photos").setInputFiles({ name: "red.jpg", mimeType: "image/jpeg", buffer: await jpeg(220, 30, 30) });
  const blue = (await jpeg(30, 30, 220)).toString("base64");
  await form.getByText("or drop them here").evaluate((zone, data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "blue.jpg", { type: "image/jpeg" }));
    zone.parentElement!.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, blue);
  await expect(form.getByRole("listitem")).toHaveCount(2);
  await form.getByLabel(/^Cover: red\.jpg/).fill("A red square");

  await form.getByRole("button", { name: "Add animal" }).click();
  await expect(page.getByRole("heading", { name: `Added ${name}` })).toBeVisible();
  const photos = page.getByRole("region", { name: /^Photos/ });
  // Both uploads run with progress bars, then appear as photos.
  await expect(photos.getByRole("heading")).toHaveText("Photos (2 of 10)", { timeout: 20_000 });
  await expect(photos.getByRole("list", { name: "Uploads" })).toHaveCount(0);

  const petId = Number(new URL((await page.getByRole("link", { name: /’s page$/ }).getAttribute("href"))!, baseURL).pathname.split("/").at(-1));
  const stored = await readPet(page, petId);
  expect(stored.photos.map((p) => p.alt)).toEqual(["A red square", null]);
  const [red, blueOne] = stored.photos;

  // Make the second photo the cover: one PATCH of photoOrder under If-Match.
  const patch = page.waitForRequest((r) => r.method() === "PATCH" && new URL(r.url()).pathname === `/v1/pets/${petId}`);
  await photos.getByRole("button", { name: "Make photo 2 the cover" }).click();
  const sent = await patch;
  expect(sent.postDataJSON()).toEqual({ photoOrder: [blueOne!.id, red!.id] });
  expect(sent.headers()["if-match"]).toBe(`"${stored.version}"`);
  await expect(photos.getByRole("status")).toHaveText("The cover is changed.");
  expect((await readPet(page, petId)).photos.map((p) => p.id)).toEqual([blueOne!.id, red!.id]);

  // Adopters, without the staff cookie, on 127.0.0.1 and on another host name (localhost).
  // The cover's URLs are on the public origin (PUBLIC_BASE_URL's) whatever name the adopter
  // used; on that origin its pixels show it is the blue photo, and elsewhere the very same
  // file is shown (a page cannot read another origin's pixels).
  const seeCover = async (origin: string) => {
    const context = await browser.newContext({ baseURL: origin });
    const tab = await context.newPage();
    await tab.goto(`/?q=${encodeURIComponent(name)}`);
    const card = tab.getByRole("article").filter({ hasText: name });
    await expect(card).toContainText("Female · Young · Medium");
    await expect(card).toContainText("Border collie");
    const cover = card.locator("img");
    expect(await cover.getAttribute("srcset")).toContain(`${new URL(baseURL!).origin}/photos/`);
    const shown = await cover.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { src: img.currentSrc, width: img.naturalWidth };
    });
    expect(shown.width, origin).toBeGreaterThan(0);
    return { context, tab, shown };
  };
  const onPublic = await seeCover(new URL(baseURL!).origin);
  const [r, , b] = await centreColour(onPublic.tab, `article:has-text("${name}") img`);
  expect(b).toBeGreaterThan(150);
  expect(r).toBeLessThan(100);
  await onPublic.context.close();
  const other = new URL(baseURL!);
  other.hostname = "localhost";
  const { context: adopter, tab: visitor, shown } = await seeCover(other.origin);
  expect(shown.src).toBe(onPublic.shown.src);

  await visitor.goto(`/pets/${petId}`);
  const about = visitor.getByRole("region", { name: `About ${name}` });
  // Shown as typed, never as markup; the line break kept.
  await expect(about.locator("p")).toHaveText("Loves <b>balls</b> & <script>alert(1)</script>\nSecond line.", { useInnerText: false });
  expect(await about.locator("p").evaluate((p) => p.innerHTML.includes("<script>"))).toBe(false);
  expect(await about.locator("p").evaluate((p) => (p as HTMLElement).innerText.split("\n").length)).toBe(2);
  await expect(visitor.getByRole("article")).toContainText("Children: yes");
  await expect(visitor.getByRole("article")).toContainText("Cats: no");
  await expect(visitor.getByRole("article")).toContainText("born about 29 February 2024");
  await adopter.close();
});

test("the gallery steps through the photos by keyboard, and tells where it is", async ({ page }) => {
  const pet = await createPet<ApiPet>(page.request, key, { name: uniqueName("Gallery"), categoryId: 2 });
  const colours: [number, number, number, string][] = [
    [200, 40, 40, "Red"],
    [40, 200, 40, "Green"],
    [40, 40, 200, "Blue"],
  ];
  for (const [r, g, b, alt] of colours) {
    const up = await page.request.post(`/v1/pets/${pet.id}/photos?alt=${alt}`, {
      headers: { ...bearer(key), "Content-Type": "image/jpeg" },
      data: await jpeg(r, g, b),
    });
    expect(up.status()).toBe(201);
  }
  await page.goto(`/pets/${pet.id}`);
  const gallery = page.getByRole("region", { name: `Photos of ${pet.name}` });
  await expect(gallery.getByRole("status")).toHaveText("Photo 1 of 3");
  await gallery.getByRole("button", { name: "Show photo 1 of 3: Red" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(gallery.getByRole("status")).toHaveText("Photo 2 of 3");
  await expect(gallery.getByRole("button", { name: "Show photo 2 of 3: Green" })).toBeFocused();
  await expect(gallery.getByRole("button", { name: "Show photo 2 of 3: Green" })).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("End");
  await expect(gallery.getByRole("status")).toHaveText("Photo 3 of 3");
  await page.keyboard.press("ArrowRight"); // wraps round
  await expect(gallery.getByRole("status")).toHaveText("Photo 1 of 3");
  await page.keyboard.press("Enter");
  await expect(gallery.locator("figure img")).toHaveAttribute("alt", "Red");
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalScroll(page);
});

test("a file that is not an image is refused with the formats that are, and the others still go", async ({ page, context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
  const pet = await createPet<ApiPet>(page.request, key, { name: uniqueName("Refuse") });
  await page.goto(`/pets/${pet.id}`);
  const photos = page.getByRole("region", { name: /^Photos/ });
  await expect(photos.getByRole("heading")).toHaveText("Photos (0 of 10)");
  await photos.getByLabel("Choose photos").setInputFiles([
    { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is not a photo at all") },
    { name: "fine.jpg", mimeType: "image/jpeg", buffer: await jpeg(10, 120, 10) },
  ]);
  const upload = photos.getByRole("list", { name: "Uploads" }).getByRole("listitem").filter({ hasText: "notes.jpg" });
  await expect(upload.getByRole("alert")).toContainText("JPEG, PNG, WebP");
  await expect(photos.getByRole("heading")).toHaveText("Photos (1 of 10)");
  await upload.getByRole("button", { name: "Remove" }).click();
  await expect(photos.getByRole("list", { name: "Uploads" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test("staff edit the profile on the animal's page: only what changed is sent", async ({ page, context, baseURL }) => {
  await signInAsStaff(context, baseURL!);
  const pet = await createPet<ApiPet>(page.request, key, { name: uniqueName("Profile"), breed: "Beagle" });
  await page.goto(`/pets/${pet.id}`);
  const form = page.getByRole("form", { name: "Change this animal" });
  await expect(form.getByLabel("Breed", { exact: true })).toHaveValue("Beagle");
  const patch = page.waitForRequest((r) => r.method() === "PATCH" && new URL(r.url()).pathname === `/v1/pets/${pet.id}`);
  await form.getByLabel("Breed", { exact: true }).fill("  ");
  await form.getByLabel("Good with dogs").selectOption("true");
  await form.getByLabel("Size when grown").selectOption("large");
  // A photo added meanwhile in the panel above moves the animal to a new
  // version; what is being typed stays, and the save names the new version.
  const photos = page.getByRole("region", { name: /^Photos/ });
  await photos.getByLabel("Choose photos").setInputFiles({ name: "p.jpg", mimeType: "image/jpeg", buffer: await jpeg(90, 90, 10) });
  await expect(photos.getByRole("heading")).toHaveText("Photos (1 of 10)");
  await expect(form.getByLabel("Size when grown")).toHaveValue("large");
  await form.getByRole("button", { name: "Save changes" }).click();
  const sent = await patch;
  expect(sent.postDataJSON()).toEqual({ size: "large", breed: null, goodWith: { children: null, dogs: true, cats: null } });
  expect(sent.headers()["if-match"]).toBe('"2"');
  await expect(form.getByRole("status")).toContainText("Saved.");
  await expect(page.getByRole("article")).toContainText("Dogs: yes");
  await expect(page.getByRole("article")).not.toContainText("Beagle");
  await form.getByLabel("Date of birth").fill("2999-01-01");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("Date of birth must not be in the future.")).toBeVisible();
});

test("adopters filter by sex, age, size and good-with; the URL keeps them and the empty state names them", async ({ page }) => {
  const tag = uniqueName("Filt");
  const add = (suffix: string, profile: object) => createPet(page.request, key, { name: `${tag} ${suffix}`, ...profile });
  await add("A", { sex: "female", size: "small", goodWith: { children: true, cats: true } });
  await add("B", { sex: "male", size: "large", goodWith: { children: true } });
  await page.goto(`/?q=${encodeURIComponent(tag)}`);
  const list = page.getByRole("list", { name: "Animals", exact: true });
  await expect(list.getByRole("listitem")).toHaveCount(2);

  await page.getByLabel("Sex").selectOption("female");
  await expect(page).toHaveURL(/[?&]sex=female/);
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText(`${tag} A`);

  // click(), not check(): the filters' boxes show the URL, which changes a moment after the click
  // (the URL assertion below waits for it); check() fails when the box has not ticked by then.
  await page.getByRole("group", { name: "Good with" }).getByLabel("Cats").click();
  await expect(page).toHaveURL(/[?&]goodWith=cats/);
  await expect(list.getByRole("listitem")).toHaveCount(1);

  await page.getByRole("group", { name: "Size" }).getByLabel("Large", { exact: true }).click();
  await expect(page).toHaveURL(/[?&]size=large/);
  await expect(page.getByRole("heading", { name: `No animals match “${tag}”` })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("that is female, large, good with cats");

  // Back undoes the last filter; a reload of a filtered URL shows the same view.
  await page.goBack();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole("group", { name: "Good with" }).getByLabel("Cats")).toBeChecked();
  await expect(page.getByLabel("Sex")).toHaveValue("female");
  await expect(list.getByRole("listitem")).toHaveCount(1);
});
