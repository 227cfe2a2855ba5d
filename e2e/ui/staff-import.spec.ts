import { expect, test } from "@playwright/test";
import { createShelterWithStaff, expectNoHorizontalScroll, expectNoSeriousA11yViolations, signInAsStaff } from "./staff-helpers";
import { docScreenshot } from "../doc-screenshots";

// The import page as a shelter's staff use it: choose a Petfinder file, see
// the detected format, the rows as they would be saved and the rejected row
// with its line, import, follow the progress to the report; then a CSV of
// no site's format goes through the mapping step. With axe on the preview
// and the mapping step.

const petfinderHeader =
  "ID,Internal,AnimalName,PrimaryBreed,SecondaryBreed,Sex,Size,Age,Desc,Type,Status,Shots,Altered,NoDogs,NoCats,NoKids,Housetrained,Declawed,specialNeeds,Mix,photo1,photo2,photo3,photo4,photo5,photo6,arrival_date,birth_date,primaryColor,secondaryColor,tertiaryColor,coat_length,adoption_fee,display_adoption_fee,adoption_fee_waived,special_needs_notes,no_other,no_other_note,tags";
const row = (id: string, name: string, type: string) => [id, "", name, "", "", "F", "M", "Adult", "", type, "A", ...Array(28).fill("")].join(",");

test("staff import a Petfinder file (preview, rejected row, import, progress, report) and map a generic CSV's columns", async ({ page, context, baseURL }) => {
  const { account } = createShelterWithStaff();
  await signInAsStaff(context, baseURL!, account);
  await page.goto("/staff");
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Import animals", level: 1 })).toBeVisible();

  // The past imports arrive from the browser: the page is interactive from then on.
  await expect(page.getByText("No imports yet.")).toBeVisible();
  const reportReads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "GET" && /\/v1\/imports\/\d+\/issues$/.test(new URL(r.url()).pathname)) reportReads.push(r.url());
  });
  const stamp = Date.now().toString(36);
  const file =
    [petfinderHeader, row(`E2E-${stamp}-1`, "Maple", "Dog"), row(`E2E-${stamp}-2`, "Thistle", "Cat"), row(`E2E-${stamp}-3`, "Trigger", "Horse")].join("\n") +
    "\n";
  await page.getByLabel("Listing file (CSV)").setInputFiles({ name: "pets.csv", mimeType: "text/csv", buffer: Buffer.from(file) });

  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByText("Format: Petfinder")).toBeVisible();
  await expect(preview.getByRole("row", { name: /Maple.*New animal/ })).toBeVisible();
  await expect(preview.getByText(/Line 4 \(Type\), refused: "Horse" is not a species/)).toBeVisible();
  // The report comes from its own route; the list of past imports carries counts only.
  expect(reportReads.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => performance.getEntriesByType("resource").some((e) => /\/v1\/imports\/\d+\/issues/.test(e.name)))).toBe(true);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Import 2 animals" }).click();
  const report = page.getByRole("region", { name: "Import" });
  await expect(report.getByRole("heading", { name: "Import finished" })).toBeVisible();
  await expect(report.getByText("Imported: 2 new, 0 changed, 0 unchanged, 1 rejected.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Past imports" }).getByRole("cell", { name: "Import", exact: true })).toBeVisible();
  // The past imports follow: the import is listed done, with its counts.
  await expect(
    page
      .getByRole("region", { name: "Past imports" })
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "Import", exact: true }) }),
  ).toContainText("done");
  // The report as the README shows it, on a desktop and a phone.
  await docScreenshot(page, "import.png", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await docScreenshot(page, "import-phone.png");
  await page.setViewportSize({ width: 1280, height: 720 });

  // A CSV of no site's format: its columns beside our fields.
  await page.goto("/staff/import");
  await expect(page.getByRole("region", { name: "Past imports" }).getByRole("cell", { name: "Preview", exact: true })).toBeVisible();
  const generic = `Ref,Pet name,Kind,Notes\nG-${stamp},Clover,rabbit,"Calm, likes hay"\n`;
  await page.getByLabel("Listing file (CSV)").setInputFiles({ name: "shelter.csv", mimeType: "text/csv", buffer: Buffer.from(generic) });
  await expect(page.getByRole("heading", { name: "2. Match your columns to our fields" })).toBeVisible();
  await page.getByLabel("ID (your software's)").selectOption("Ref");
  await page.getByLabel("Name (required)").selectOption("Pet name");
  await page.getByLabel("Species (required)").selectOption("Kind");
  await page.getByLabel("description").selectOption("Notes");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Preview with these columns" }).click();
  await expect(preview.getByText("Format: Generic CSV")).toBeVisible();
  await page.getByRole("button", { name: "Import 1 animal" }).click();
  await expect(report.getByText("Imported: 1 new, 0 changed, 0 unchanged, 0 rejected.")).toBeVisible();
});

test("a long report is read a page at a time (Show more), and stays within a phone's width", async ({ page, context, baseURL }) => {
  const { account } = createShelterWithStaff();
  await signInAsStaff(context, baseURL!, account);
  await page.goto("/staff/import");
  await expect(page.getByText("No imports yet.")).toBeVisible();
  const stamp = Date.now().toString(36);
  // 130 rows whose species no category has, each a long unbroken word: the report quotes 40 characters of it.
  const rows = Array.from({ length: 130 }, (_, i) => row(`P-${stamp}-${i}`, `Pet ${i}`, `Unicorn${"x".repeat(300)}${i}`));
  await page
    .getByLabel("Listing file (CSV)")
    .setInputFiles({ name: "unicorns.csv", mimeType: "text/csv", buffer: Buffer.from([petfinderHeader, ...rows].join("\n") + "\n") });
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByText("Format: Petfinder")).toBeVisible();
  await expect(preview.getByRole("heading", { name: /Rows refused, and rows imported with a warning.*\(130 in all\)/ })).toBeVisible();
  const items = preview.getByRole("listitem");
  await expect(items).toHaveCount(100);
  await expect(items.first()).toHaveText(/^Line 2 \(Type\), refused: "Unicornx{33}…" is not a species/);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await preview.getByRole("button", { name: "Show more" }).click();
  await expect(items).toHaveCount(130);
  await expect(preview.getByRole("button", { name: "Show more" })).toHaveCount(0);
  await expect(items.last()).toHaveText(/^Line 131 \(Type\)/);
  await expectNoHorizontalScroll(page);
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("a shelter's history: the dry run lists the words it could not read, the value map pasted beside the columns takes them", async ({
  page,
  context,
  baseURL,
}) => {
  const { account } = createShelterWithStaff();
  await signInAsStaff(context, baseURL!, account);
  await page.goto("/staff/import");
  await expect(page.getByText("No imports yet.")).toBeVisible();
  const stamp = Date.now().toString(36);
  const history =
    [
      "Ref,Pet name,Kind,In,In type,Out,Out type",
      `H-${stamp}-1,Clover,Cat,1/5/2021,OWNER SURRENDER,1/20/2021,ADOPTION`,
      `H-${stamp}-2,,Cat,2/1/2021,STRAY,,`,
    ].join("\n") + "\n";
  await page.getByLabel("Listing file (CSV)").setInputFiles({ name: "history.csv", mimeType: "text/csv", buffer: Buffer.from(history) });
  await expect(page.getByRole("heading", { name: "2. Match your columns to our fields" })).toBeVisible();
  await page.getByLabel("ID (your software's)").selectOption("Ref");
  await page.getByLabel("Name (required)").selectOption("Pet name");
  await page.getByLabel("Species (required)").selectOption("Kind");
  for (const [field, column] of [
    ["intakeDate", "In"],
    ["intakeType", "In type"],
    ["outcomeDate", "Out"],
    ["outcomeType", "Out type"],
  ] as const) {
    await page.getByLabel(field, { exact: true }).selectOption(column);
  }
  await page.getByRole("button", { name: "Preview with these columns" }).click();
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByRole("heading", { name: "Words we could not read" })).toBeVisible();
  await expect(preview.getByText("“OWNER SURRENDER” (1)")).toBeVisible();
  await expect(preview.getByText(/Line 3 \(Pet name\), imported with a warning: is empty: the animal is named by its ID/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Import 1 animal" })).toBeVisible();

  await page.getByLabel("Your words in ours (optional)").fill('{ "intakeType": { "owner surrender": "relinquishedByOwner" } }');
  await page.getByRole("button", { name: "Preview with these columns" }).click();
  await expect(page.getByRole("button", { name: "Import 2 animals" })).toBeVisible();
  await expect(preview.getByRole("heading", { name: "Words we could not read" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Import 2 animals" }).click();
  await expect(page.getByRole("region", { name: "Import" }).getByText("Imported: 2 new, 0 changed, 0 unchanged, 0 rejected.")).toBeVisible();
});
