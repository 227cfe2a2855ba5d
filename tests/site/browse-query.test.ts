import { describe, expect, it } from "vitest";
import { describeProfileFilters } from "@/components/pets/browse-empty-state";
import { activeFilterCount, browseHeading, browseHref, nearWords, parseBrowseQuery, sameQuery, withoutFilters } from "@/components/pets/browse-query";
import { milesAway } from "@/lib/core/units";
import { petsApiPath } from "@/components/pets/pets-api-query";
import { translator } from "../i18n";

const t = translator("en", "Browse");

const parse = (search: string) => {
  const params = new URLSearchParams(search);
  return parseBrowseQuery((name) => params.get(name));
};

describe("the browse URL", () => {
  it("reads the profile filters as the API spells them, and writes them back", () => {
    const query = parse("sex=female&size=medium,small&age=baby&goodWith=cats,children&status=available");
    expect(query).toMatchObject({ sex: "female", size: ["small", "medium"], age: ["baby"], goodWith: ["children", "cats"], status: "available" });
    expect(browseHref(query)).toBe("/?sex=female&size=small%2Cmedium&age=baby&goodWith=children%2Ccats");
    expect(parse(new URL(browseHref(query), "http://x").search)).toEqual(query);
  });

  it("asks the API for the same filters", () => {
    const path = petsApiPath(parse("sex=male&size=xlarge,large&age=senior,adult&goodWith=dogs"));
    const params = new URL(path, "http://x").searchParams;
    expect(Object.fromEntries(params)).toMatchObject({ sex: "male", size: "large,xlarge", age: "adult,senior", goodWith: "dogs" });
  });

  it("reads house-trained and special needs as the API spells them, counts each as a filter, and asks the API for them", () => {
    const query = parse("houseTrained=true&specialNeeds=false&category=2");
    expect(query).toMatchObject({ houseTrained: true, specialNeeds: false, category: 2 });
    expect(browseHref(query)).toBe("/?category=2&houseTrained=true&specialNeeds=false");
    expect(activeFilterCount(query)).toBe(3);
    expect(withoutFilters(query)).toEqual({ status: "available", limit: 20 });
    expect(Object.fromEntries(new URL(petsApiPath(query), "http://x").searchParams)).toMatchObject({
      houseTrained: "true",
      specialNeeds: "false",
      categoryId: "2",
    });
    expect(parse("specialNeeds=true").specialNeeds).toBe(true);
    // Nobody looks for the animals that are not house-trained: only "true" is a filter.
    expect(parse("houseTrained=false&specialNeeds=maybe")).toEqual({ status: "available", limit: 20 });
    expect(describeProfileFilters(query)).toBe("house-trained, without special needs");
  });

  it("drops values it cannot show instead of failing, and keeps one spelling per view", () => {
    const query = parse("sex=unknown&size=huge,small,small&age=&goodWith=ferrets");
    expect(query).toEqual({ status: "available", limit: 20, size: ["small"] });
    expect(sameQuery(parse("age=young,baby"), parse("age=baby,young"))).toBe(true);
    expect(sameQuery(parse("age=young"), parse("age=baby,young"))).toBe(false);
  });

  it("names the filters in words for the empty state", () => {
    expect(describeProfileFilters(parse("sex=female&size=small,xlarge&age=baby,young,senior&goodWith=children,dogs,cats"))).toBe(
      "female, small or extra large, baby, young or senior, good with children, dogs and cats",
    );
    expect(describeProfileFilters(parse("goodWith=cats,children"))).toBe("good with children and cats");
    expect(describeProfileFilters(parse("q=rex"))).toBe("");
  });
});

describe("the status of a view", () => {
  it("opens on Available: the plain URL is the Available view, and an old Available link is the same view", () => {
    expect(parse("").status).toBe("available");
    expect(browseHeading(parse("").status, t)).toBe("Available animals");
    expect(sameQuery(parse("status=available"), parse(""))).toBe(true);
    expect(browseHref(parse("status=available&category=2"))).toBe("/?category=2");
  });

  it("writes every status as ?status=all, and never sends it to the API, whose own default it is", () => {
    const all = parse("status=all&category=2");
    expect(all.status).toBe("all");
    expect(browseHeading(all.status, t)).toBe("All animals");
    expect(browseHref(all)).toBe("/?status=all&category=2");
    expect(Object.fromEntries(new URL(petsApiPath(all), "http://x").searchParams)).toEqual({ limit: "20", categoryId: "2" });
    // The page's default is asked for by name: the API's default is every status.
    expect(new URL(petsApiPath(parse("")), "http://x").searchParams.get("status")).toBe("available");
    expect(new URL(petsApiPath(parse("status=sold")), "http://x").searchParams.get("status")).toBe("sold");
  });

  it("reads a status it cannot show as the default", () => {
    expect(parse("status=bogus").status).toBe("available");
    expect(parse("status=ALL").status).toBe("available");
  });
});

describe("the Filters button and the sheet's Clear all", () => {
  it("counts each filter that differs from the plain view, not the search or the page size", () => {
    expect(activeFilterCount(parse(""))).toBe(0);
    expect(activeFilterCount(parse("q=rex&limit=50&status=available"))).toBe(0);
    expect(activeFilterCount(parse("status=all"))).toBe(1);
    expect(activeFilterCount(parse("status=sold&category=1&sex=male&size=small,large&age=baby&goodWith=cats"))).toBe(6);
  });

  it("clears every filter, keeping the search and the page size", () => {
    const cleared = withoutFilters(parse("q=rex&status=sold&category=1&sex=male&size=small&age=baby&goodWith=cats&limit=50&cursor=abc"));
    expect(browseHref(cleared)).toBe("/?q=rex&limit=50");
    expect(activeFilterCount(cleared)).toBe(0);
  });
});

describe("a form sent without JavaScript", () => {
  it("ticks boxes as repeated parameters, which join; other repeats count once", () => {
    const params = new URLSearchParams("size=small&size=large&goodWith=cats&q=rex&q=max");
    expect(parseBrowseQuery((name) => params.getAll(name))).toMatchObject({ q: "rex", size: ["small", "large"], goodWith: ["cats"] });
  });
});

describe("a search near a place", () => {
  it("keeps a ZIP code (ZIP+4 by its five digits) or a point rounded to four decimals, and the distance in miles", () => {
    expect(parse("near=60601")).toMatchObject({ near: "60601" });
    expect(parse("near=60601-1234")).toMatchObject({ near: "60601" });
    expect(parse("near=41.878612,-87.635917&within=25mi")).toMatchObject({ near: "41.8786,-87.6359", within: 25 });
    expect(browseHref(parse("near=60601&within=25mi&status=all"))).toBe("/?near=60601&within=25mi&status=all");
    // The page's default distance, and distances it does not offer, are left out of the URL.
    expect(browseHref(parse("near=60601&within=50mi"))).toBe("/?near=60601");
    expect(browseHref(parse("near=60601&within=37mi"))).toBe("/?near=60601");
    // Text that is neither is kept for the API to refuse with its own message.
    expect(parse("near=chicago")).toMatchObject({ near: "chicago" });
  });

  it("asks the API for the place and the distance in miles, whatever the page's default", () => {
    const params = (search: string) => Object.fromEntries(new URL(petsApiPath(parse(search)), "http://x").searchParams);
    expect(params("near=60601")).toMatchObject({ near: "60601", within: "50mi", status: "available" });
    expect(params("near=60601&within=250mi")).toMatchObject({ within: "250mi" });
    expect(params("status=all")).not.toHaveProperty("within");
  });

  it("counts Within as a filter of the sheet only when it is not the default, and Clear all keeps the place", () => {
    expect(activeFilterCount(parse("near=60601"))).toBe(0);
    expect(activeFilterCount(parse("near=60601&within=10mi"))).toBe(1);
    expect(withoutFilters(parse("near=60601&within=10mi&sex=male&q=rex"))).toEqual({ q: "rex", near: "60601", status: "available", limit: 20 });
  });

  it("says what it covers, and how far an animal is, in miles", () => {
    expect(nearWords(parse("near=60601&within=25mi"), t)).toBe("within 25 mi of 60601");
    expect(nearWords(parse("near=41.88,-87.62"), t)).toBe("within 50 mi of your location");
    expect(nearWords(parse(""), t)).toBeUndefined();
    expect(milesAway(19.3)).toBe("12 mi away");
    expect(milesAway(0.8)).toBe("Less than a mile away");
    expect(milesAway(1287.5)).toBe("800 mi away");
  });
});
