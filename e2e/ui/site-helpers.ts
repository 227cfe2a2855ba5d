import { expect, type Locator, type Page } from "@playwright/test";

// What the adopters' pages show, located the way a person (or a screen
// reader) finds it: by role and accessible name.

export interface ApiPet {
  id: number;
  name: string;
  categoryId: number;
  status: "available" | "pending" | "sold";
  photos: { alt: string | null; urls: Record<string, string> }[];
}
export interface ApiCategory {
  id: number;
  name: string;
}

/** The grid of animals (the skeleton list while loading is named differently). */
export const animalList = (page: Page): Locator => page.getByRole("list", { name: "Animals", exact: true });

export const cards = (page: Page): Locator => animalList(page).getByRole("listitem");

export const statusTab = (page: Page, label: "All" | "Available" | "Pending" | "Sold"): Locator =>
  page.getByRole("navigation", { name: "Status" }).getByRole("link", { name: label, exact: true });

/** On a phone: the button that opens the Filters sheet ("Filters", or "Filters (2)" with two filters set). */
export const filtersButton = (page: Page): Locator => page.getByRole("button", { name: /^Filters( \(\d+\))?$/ });

/** The open Filters sheet (a modal dialog). */
export const filterSheet = (page: Page): Locator => page.getByRole("dialog", { name: "Filters" });

export const pagerLink = (page: Page, label: "Previous" | "Next"): Locator =>
  page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: label, exact: true });

/** The page's error message (Next's route announcer is an alert too, outside main). */
export const loadError = (page: Page): Locator => page.getByRole("main").getByRole("alert");

/** Waits until the list shows a settled page (not the previous one kept while loading). */
export async function settledList(page: Page): Promise<Locator> {
  const list = animalList(page);
  await expect(list).toHaveAttribute("aria-busy", "false");
  // The list fades back from its loading dim (transition-opacity): until it is
  // opaque again, axe measures the dimmed text's contrast and fails it.
  await expect(list).toHaveCSS("opacity", "1");
  return list;
}

/** The names on the cards, in order, once the page has settled. */
export async function cardNames(page: Page): Promise<string[]> {
  const list = await settledList(page);
  return list.getByRole("heading", { level: 3 }).allTextContents();
}

/** The words on the status badges, one per card. */
export async function badgeTexts(page: Page): Promise<string[]> {
  const list = await settledList(page);
  return list.locator("[data-status]").allTextContents();
}

/**
 * The API as this browser sees it (same session cookie as the page), for
 * computing what a view should show. Call after a page has been opened.
 */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/**
 * Uses up this browser session's per-minute allowance (adopters have the Free
 * plan's 60), as a very busy tab would; returns the Retry-After of the refusal.
 */
export async function spendRateLimit(page: Page): Promise<number> {
  const spend = async () => {
    for (let i = 0; i < 200; i++) {
      const res = await page.request.get("/v1/categories");
      if (res.status() === 429) return Number(res.headers()["retry-after"]);
    }
    throw new Error("the session was never rate-limited");
  };
  let wait = await spend();
  // A window about to reset would let the next page through: start on a fresh one.
  // A deliberate sleep: nothing but time passing opens the next window.
  if (wait < 5) {
    await page.waitForTimeout((wait + 1) * 1000);
    wait = await spend();
  }
  return wait;
}

/** Holds matching requests until release() is called: a loading state, on demand. */
export async function holdRequests(page: Page, url: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await gate;
    await route.fallback();
  });
  return { release };
}

/**
 * An animal's cover as the site shows it: its first photo (the variants in a
 * srcset, its alt text), or its drawing (decorative) while it has none. Which
 * one the newest animal has depends on what earlier tests added.
 */
export function coverOf(scope: Locator, pet: ApiPet): Locator {
  const photo = pet.photos[0];
  if (!photo) return scope.locator('img[src^="/pictures/"][alt=""]');
  return scope.locator(`img[srcset*="${Object.values(photo.urls)[0]!}"]`);
}
