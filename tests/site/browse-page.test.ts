import { beforeAll, describe, expect, it, vi } from "vitest";
import type { InitialBrowse } from "@/components/pets/browse-query";
import { db } from "@/lib/db";
import { sessionCookieName } from "@/lib/core/cookies";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { newOrganization, seedPets } from "../api/helpers";

// The browse page (app/(site)/page.tsx) as the server renders it, through
// in-process calls to the /v1 handlers: with one shelter it stays as a
// one-shelter install always had it (no place search, no shelter line);
// with several, its first page brings each animal's shelter for the cards.

const incoming = new Headers({ host: "localhost" });
vi.mock("server-only", () => ({}));
vi.mock("next/headers", () => ({ headers: async () => incoming }));
vi.mock("next-intl/server", async () => (await import("../i18n")).nextIntlServerMock());

/** The PetBrowser element's `initial` prop. */
async function render(search: Record<string, string> = {}): Promise<InitialBrowse> {
  // The site keeps "how many shelters" a minute per process: forgotten for each render here.
  (await import("@/lib/site/shelter-count")).forgetShelterCount();
  const { default: BrowsePage } = await import("@/app/(site)/page");
  const tree = (await BrowsePage({ searchParams: Promise.resolve(search) })) as { props: { initial: InitialBrowse } };
  return tree.props.initial;
}

beforeAll(async () => {
  // An adopter's browser: its anonymous session, as the proxy hands every visitor one.
  incoming.set("cookie", `${sessionCookieName()}=${mintAnonymousToken(new Date()).token}`);
  await db().organization.update({ where: { id: 1n }, data: { city: "Chicago", region: "IL", country: "US", lat: 41.8789, lng: -87.6359 } });
  await seedPets([{ name: "Home one" }, { name: "Home two" }]);
});

describe("the browse page and shelters", () => {
  it("with one shelter: no place search and no shelter line", async () => {
    const initial = await render();
    expect(initial.manyShelters).toBe(false);
    expect(initial.page?.shelters).toBeUndefined();
    expect(initial.page?.pets.map((p) => p.name)).toEqual(["Home two", "Home one"]);
  });

  it("with several: the first page comes with its animals' shelters, and near=… lists them nearest first with their distance", async () => {
    const evanston = await newOrganization({ name: "Evanston Friends", lat: 42.0451, lng: -87.6877 });
    await seedPets([{ name: "Over there", organizationId: evanston }]);
    const initial = await render();
    expect(initial.manyShelters).toBe(true);
    expect(initial.page?.shelters?.[evanston]).toMatchObject({ name: "Evanston Friends", city: "Evanston" });
    expect(initial.page?.shelters?.[1]).toMatchObject({ name: "Petstore", city: "Chicago", region: "IL" });

    const near = await render({ near: "42.05,-87.69", within: "10mi" });
    expect(near.page?.pets.map((p) => [p.name, p.distanceKm])).toEqual([["Over there", 0.6]]);
    const wider = await render({ near: "42.05,-87.69", within: "25mi" });
    expect(wider.page?.pets.map((p) => p.name)).toEqual(["Over there", "Home two", "Home one"]);
  });
});
