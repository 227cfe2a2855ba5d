import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type Page, type Request } from "@playwright/test";

// Shared by the staff UI and session tests.

/** The demo login that `db seed` creates (prisma/seed.ts DEMO_STAFF). */
export const DEMO_STAFF = { email: "demo@petstore.test", password: "adopt-a-pet-demo" } as const;

/** A name no other run or test has used. */
export const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * Signs the context in as the demo staff member through the API, the way the
 * sign-in page does (same-origin POST, so it carries our Origin). The tests
 * of the sign-in page itself go through the form.
 */
export async function signInAsStaff(context: BrowserContext, baseURL: string): Promise<void> {
  const res = await context.request.post("/v1/session", { data: DEMO_STAFF, headers: { Origin: new URL(baseURL).origin } });
  expect(res.status(), await res.text()).toBe(200);
}

/** No axe-core violation of serious or critical impact (WCAG 2.x A and AA rules, best practices). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
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

/** Records the requests a page sends to one API path with one method, to prove some were (not) sent. */
export function recordRequests(page: Page, method: string, pathname: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === method && new URL(request.url()).pathname === pathname) seen.push(request);
  });
  return seen;
}
