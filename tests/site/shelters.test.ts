import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { nearOfPosition } from "@/components/shelters/position";
import { addressLines, milesAway, placeLine, telHref, websiteLabel } from "@/components/shelters/shelter-format";
import { linkCursor, nearProblem, parseSheltersQuery, sheltersApiPath, sheltersHref, widerThan } from "@/components/shelters/shelters-query";
import { profilePatch } from "@/components/staff/profile-patch";
import { setClock } from "@/lib/clock";
import { translatorFor } from "@/lib/i18n/translator";
import { sessionCookieName } from "@/lib/core/cookies";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import type { Organization } from "@/lib/organizations/schemas";
import { forgetShelterCount, manyShelters } from "@/lib/site/shelter-count";
import { newOrganization } from "../api/helpers";

// The site's side of many shelters: the directory's URL and what it asks the
// API, the words and numbers adopters read, what "Use my location" lets out
// of the browser, what the staff profile form sends, and the header's
// one-shelter test (no "Shelters" link until a second shelter exists).

const parse = (search: string) => {
  const params = new URLSearchParams(search);
  return parseSheltersQuery((name) => params.get(name));
};

describe("the shelters directory's URL", () => {
  it("reads near and within, falls back for a distance it does not offer, and writes them back", () => {
    expect(parse("near=%2060601%20&within=25mi")).toEqual({ near: "60601", within: 25 });
    // The browse page's default distance (50 mi), for a within the page does not offer.
    expect(parse("near=60601&within=40km")).toEqual({ near: "60601", within: 50 });
    expect(parse("near=&cursor=")).toEqual({ within: 50 });
    expect(sheltersHref(parse("near=60601&within=25mi&cursor=abc"))).toBe("/shelters?near=60601&within=25mi&cursor=abc");
    // Within alone means nothing (the API refuses it): left out.
    expect(sheltersHref(parse("within=25mi"))).toBe("/shelters");
  });

  it("asks the API for the page, nearest first with near, in miles", () => {
    expect(sheltersApiPath(parse(""))).toBe("/v1/organizations?limit=20");
    expect(sheltersApiPath(parse("near=41.88,-87.62&within=10mi&cursor=c1"))).toBe("/v1/organizations?limit=20&near=41.88%2C-87.62&within=10mi&cursor=c1");
    expect(widerThan(25)).toBe(50);
    expect(widerThan(250)).toBeUndefined();
    expect(linkCursor('<http://x/v1/organizations?cursor=p1>; rel="prev", <http://x/v1/organizations?limit=20&cursor=n%2F2>; rel="next"', "next")).toBe("n/2");
    expect(linkCursor(null, "prev")).toBeUndefined();
  });

  it("says what is wrong with the place next to the box, and nothing for other refusals", () => {
    const t = translatorFor("en", "Shelters");
    const es = translatorFor("es", "Shelters");
    expect(nearProblem({ status: 400, code: "unknown_location", details: [{ field: "near" }] }, "00000", t)).toBe(
      "We don't know the ZIP code 00000: check it, or use your location instead.",
    );
    expect(nearProblem({ status: 400, code: "invalid_query", details: [{ field: "near" }] }, "Chicago", t)).toMatch(/^"Chicago" is not a ZIP code/);
    expect(nearProblem({ status: 400, code: "invalid_query", details: [{ field: "near" }] }, "95,10", t)).toMatch(/not on the map/);
    expect(nearProblem({ status: 400, code: "invalid_cursor" }, "60601", t)).toBeUndefined();
    expect(nearProblem({ status: 429, code: "rate_limited" }, "60601", t)).toBeUndefined();
    expect(nearProblem({ status: 400, code: "unknown_location" }, "00000", es)).toBe("No conocemos el código postal 00000: revíselo o use su ubicación.");
  });
});

describe("what adopters read", () => {
  it("distances in whole miles, in the page's language", () => {
    const t = translatorFor("en", "Shelters");
    expect(milesAway(t, 19.3, "en")).toBe("12 mi away");
    expect(milesAway(t, 0.4, "en")).toBe("Under 1 mi away");
    expect(milesAway(t, 130.6, "en")).toBe("81 mi away");
    expect(milesAway(t, 2000, "en")).toBe("1,243 mi away");
    const es = translatorFor("es", "Shelters");
    expect(milesAway(es, 19.3, "es")).toBe("a 12 mi");
    expect(milesAway(es, 0.4, "es")).toBe("a menos de 1 mi");
  });

  it("addresses, phone links and websites", () => {
    const address = { street: "233 S Wacker Dr", city: "Chicago", region: "IL", postcode: "60606", country: "US" };
    expect(placeLine(address)).toBe("Chicago, IL");
    expect(addressLines(address)).toEqual(["233 S Wacker Dr", "Chicago, IL 60606"]);
    expect(placeLine({ street: null, city: "Madrid", region: null, postcode: "28001", country: "ES" })).toBe("Madrid, Spain");
    expect(telHref("+1 (312) 555-0100")).toBe("tel:+13125550100");
    expect(telHref("312.555.0100")).toBe("tel:3125550100");
    expect(websiteLabel("https://www.lakeshore.example/adopt/")).toBe("lakeshore.example/adopt");
  });

  it("'Use my location' sends a position rounded to hundredths of a degree", () => {
    expect(nearOfPosition({ latitude: 41.881832, longitude: -87.623177 })).toBe("41.88,-87.62");
    expect(nearOfPosition({ latitude: -0.0012, longitude: 0.004 })).toBe("0.00,0.00");
  });
});

const organization: Organization = {
  id: 7,
  name: "Lakeshore Rescue",
  slug: "lakeshore-rescue",
  email: null,
  phone: "+1 312 555 0100",
  website: null,
  address: { street: "1 Main St", city: "Chicago", region: "IL", postcode: "60601", country: "US" },
  location: { lat: 41.9, lng: -87.65 },
  timeZone: "America/Chicago",
  fosterLocation: "fosterHome",
  createdAt: "2026-11-26T00:00:00.000Z",
};
const unchanged = {
  name: "Lakeshore Rescue",
  email: null,
  phone: "+1 312 555 0100",
  website: null,
  address: { ...organization.address! },
  location: { lat: 41.9, lng: -87.65 },
};

describe("what the staff profile form sends", () => {
  it("only what changed: the contact, the address field by field", () => {
    expect(profilePatch(unchanged, { organization, mode: "exact" }, "exact")).toEqual({});
    expect(
      profilePatch({ ...unchanged, phone: null, address: { ...unchanged.address, street: "2 Main St" } }, { organization, mode: "exact" }, "exact"),
    ).toEqual({
      phone: null,
      address: { street: "2 Main St" },
    });
  });

  it("a new exact position; back to the ZIP code's centre with location null; a new ZIP code alone lets the API place it", () => {
    expect(profilePatch({ ...unchanged, location: { lat: 41.95, lng: -87.7 } }, { organization, mode: "exact" }, "exact")).toEqual({
      location: { lat: 41.95, lng: -87.7 },
    });
    expect(profilePatch(unchanged, { organization, mode: "exact" }, "zip")).toEqual({ location: null });
    expect(profilePatch({ ...unchanged, address: { ...unchanged.address, postcode: "60202" } }, { organization, mode: "zip" }, "zip")).toEqual({
      address: { postcode: "60202" },
    });
  });

  it("a shelter with no address or position yet: the whole address, placed from its ZIP code", () => {
    const unplaced = { ...organization, address: null, location: null };
    const values = { ...unchanged, location: undefined };
    expect(profilePatch(values, { organization: unplaced, mode: "zip" }, "zip")).toEqual({ address: organization.address, location: null });
  });
});

describe("the header's one-shelter test", () => {
  const incoming = new Headers({ host: "localhost" });

  beforeAll(() => forgetShelterCount());
  afterEach(() => setClock());

  it("no Shelters link with one shelter; a second one shows within a minute, and then for good", async () => {
    const start = new Date("2027-03-01T12:00:00Z");
    setClock(start);
    // An adopter's browser session, as every page request carries one.
    incoming.set("cookie", `${sessionCookieName()}=${mintAnonymousToken(start).token}`);
    expect(await manyShelters(incoming)).toBe(false);
    await newOrganization({ name: "Second Shelter" });
    // Known for a minute: no request of the visitor's rate limit on every page.
    setClock(new Date(start.getTime() + 30_000));
    expect(await manyShelters(incoming)).toBe(false);
    setClock(new Date(start.getTime() + 61_000));
    expect(await manyShelters(incoming)).toBe(true);
    // Organisations are never deleted: asked no more.
    setClock(new Date(start.getTime() + 3_600_000));
    expect(await manyShelters(incoming)).toBe(true);
  });
});
