import { describe, expect, it } from "vitest";
import { describeProfileFilters } from "@/components/pets/browse-empty-state";
import { browseHref, parseBrowseQuery, sameQuery } from "@/components/pets/browse-query";
import { petsApiPath } from "@/components/pets/pets-api-query";

const parse = (search: string) => {
  const params = new URLSearchParams(search);
  return parseBrowseQuery((name) => params.get(name));
};

describe("the browse URL", () => {
  it("reads the profile filters as the API spells them, and writes them back", () => {
    const query = parse("sex=female&size=medium,small&age=baby&goodWith=cats,children&status=available");
    expect(query).toMatchObject({ sex: "female", size: ["small", "medium"], age: ["baby"], goodWith: ["children", "cats"], status: "available" });
    expect(browseHref(query)).toBe("/?status=available&sex=female&size=small%2Cmedium&age=baby&goodWith=children%2Ccats");
    expect(parse(new URL(browseHref(query), "http://x").search)).toEqual(query);
  });

  it("asks the API for the same filters", () => {
    const path = petsApiPath(parse("sex=male&size=xlarge,large&age=senior,adult&goodWith=dogs"));
    const params = new URL(path, "http://x").searchParams;
    expect(Object.fromEntries(params)).toMatchObject({ sex: "male", size: "large,xlarge", age: "adult,senior", goodWith: "dogs" });
  });

  it("drops values it cannot show instead of failing, and keeps one spelling per view", () => {
    const query = parse("sex=unknown&size=huge,small,small&age=&goodWith=ferrets");
    expect(query).toEqual({ limit: 20, size: ["small"] });
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

describe("a form sent without JavaScript", () => {
  it("ticks boxes as repeated parameters, which join; other repeats count once", () => {
    const params = new URLSearchParams("size=small&size=large&goodWith=cats&q=rex&q=max");
    expect(parseBrowseQuery((name) => params.getAll(name))).toMatchObject({ q: "rex", size: ["small", "large"], goodWith: ["cats"] });
  });
});
