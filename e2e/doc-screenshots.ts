import fs from "node:fs";
import path from "node:path";
import { test, type Locator, type Page } from "@playwright/test";

// The pictures in docs/screenshots/ are taken on purpose, by `npm run
// screenshots` (E2E_DOC_SCREENSHOTS=1): a plain test run writes the same
// pictures into its own output folder, so `npm test` leaves the committed
// ones (and the work tree) as it found them.
const FOR_THE_DOCS = process.env.E2E_DOC_SCREENSHOTS === "1";

/** A picture of the page or of one element, for the docs under `npm run screenshots`, else in the test's output folder. */
export async function docScreenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const file = FOR_THE_DOCS ? path.join("docs", "screenshots", name) : test.info().outputPath("screenshots", name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if ("goto" in target) await target.screenshot({ path: file, ...options });
  else await target.screenshot({ path: file });
}
