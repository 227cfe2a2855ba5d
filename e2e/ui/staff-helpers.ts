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
  // As a browser does: a page first (the adopter session cookie), then the
  // sign-in, which then counts against that session, not against the one
  // per-address budget every credential-less request of the suite shares.
  await context.request.get("/");
  const res = await context.request.post("/v1/session", { data: DEMO_STAFF, headers: { Origin: new URL(baseURL).origin } });
  expect(res.status(), await res.text()).toBe(200);
}

export { expectNoHorizontalScroll, expectNoSeriousA11yViolations } from "./page-quality";

/** Records the requests a page sends to one API path with one method, to prove some were (not) sent. */
export function recordRequests(page: Page, method: string, pathname: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === method && new URL(request.url()).pathname === pathname) seen.push(request);
  });
  return seen;
}
