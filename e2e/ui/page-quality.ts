import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// Checks every page must pass, whoever wrote it: accessibility, phone width,
// and the Content-Security-Policy.

/** No axe-core violation of serious or critical impact (WCAG 2.x A and AA rules, best practices). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Contrast is measured on what is painted: wait out the fades (a list dimmed
  // while it loads, a sheet closing) so a frame mid-transition is not judged.
  // Endless animations (spinners, skeletons) never finish and do not count.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity));
  // A router.refresh() (after a staff form saves) streams the page's
  // metadata in again: for a moment the head has no <title>. Judge the page
  // once it has one, as every page does when settled.
  await page.waitForFunction(() => document.title.trim() !== "");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious).toEqual([]);
}

/** The page fits its viewport's width: nothing to scroll sideways. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** Collects Content Security Policy violations reported on the console. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  return violations;
}
