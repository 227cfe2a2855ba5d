import { expect, type BrowserContext, type Page, type Request } from "@playwright/test";
import { cli, runCli } from "../helpers";

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
export async function signInAsStaff(context: BrowserContext, baseURL: string, account: { email: string; password: string } = DEMO_STAFF): Promise<void> {
  // As a browser does: a page first (the adopter session cookie), then the
  // sign-in, which then counts against that session, not against the one
  // per-address budget every credential-less request of the suite shares.
  await context.request.get("/");
  const res = await context.request.post("/v1/session", { data: account, headers: { Origin: new URL(baseURL).origin } });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * A staff account made with the CLI, as an operator makes one: of an
 * organisation (`--org <slug>`) or a platform admin (`--platform-admin`).
 */
export function createStaffAccount(...role: string[]): { email: string; password: string } {
  const account = { email: `${uniqueName("staff").replace(/\s+/g, "-").toLowerCase()}@shelter.example`, password: "a long enough password" };
  const result = runCli(["staff", "create", "--email", account.email, ...role], { input: `${account.password}\n` });
  expect(result.status, result.stderr).toBe(0);
  return account;
}

/**
 * A shelter of its own (made with the CLI) and a staff account of it: for
 * tests that issue keys on the staff pages, since a shelter's staff may hold
 * at most 20 live keys and the suite gives the first organisation many more.
 * It lies in Juneau, far from every place the near-search tests look.
 */
export function createShelterWithStaff(name = uniqueName("Own Shelter")): { slug: string; account: { email: string; password: string } } {
  const created = cli("orgs", "create", "--name", name, "--city", "Juneau", "--region", "AK", "--postcode", "99801", "--json");
  expect(created.status, created.stderr).toBe(0);
  const { slug } = JSON.parse(created.stdout) as { slug: string };
  return { slug, account: createStaffAccount("--org", slug) };
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
