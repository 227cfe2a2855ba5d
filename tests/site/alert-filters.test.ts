import { describe, expect, it } from "vitest";
import { alertFiltersOf, alertFilterWords } from "@/components/alerts/alert-filters";
import { parseBrowseQuery } from "@/components/pets/browse-query";
import { newAlertSchema } from "@/lib/alerts/schemas";

// The browse page's view as an alert (issue 27): what its URL says maps to
// POST /v1/alerts' filters, which the API's own schema accepts.
const view = (search: string) => parseBrowseQuery((name) => new URLSearchParams(search).get(name));

describe("alertFiltersOf", () => {
  it("keeps every filter of the view, status aside, near with its distance", () => {
    const { filters, widened } = alertFiltersOf(
      view("status=sold&category=1&sex=female&size=small&age=young&goodWith=cats,children&q=bis&near=60601&within=25mi&limit=50"),
    );
    expect(filters).toEqual({
      categoryId: 1,
      sex: "female",
      size: "small",
      ageGroup: "young",
      goodWith: ["children", "cats"],
      q: "bis",
      near: "60601",
      within: "25mi",
    });
    expect(widened).toEqual([]);
    expect(newAlertSchema.safeParse({ email: "a@example.org", frequency: "hourly", consent: true, filters }).success).toBe(true);
  });

  it("gives near the page's default distance", () => {
    expect(alertFiltersOf(view("near=41.88,-87.63")).filters).toEqual({ near: "41.88,-87.63", within: "50mi" });
  });

  it("watches every size (or age) when the view has several, and says so", () => {
    const { filters, widened } = alertFiltersOf(view("size=small,medium&age=baby,young"));
    expect(filters).toEqual({});
    expect(widened).toEqual(["size", "age"]);
  });

  it("does not watch the care filters, and says so", () => {
    const { filters, unwatched } = alertFiltersOf(view("category=1&houseTrained=true&specialNeeds=false"));
    expect(filters).toEqual({ categoryId: 1 });
    expect(unwatched).toEqual(["houseTrained", "specialNeeds"]);
    expect(alertFiltersOf(view("category=1")).unwatched).toEqual([]);
  });

  it("is every new animal for the plain view", () => {
    expect(alertFiltersOf(view("")).filters).toEqual({});
    expect(alertFilterWords({})).toBe("All animals");
  });
});

describe("alertFilterWords", () => {
  it("says the filters as the form shows them", () => {
    expect(alertFilterWords({ categoryId: 1, size: "small", goodWith: ["children"], q: "bis", near: "60601", within: "25mi" }, "Dogs")).toBe(
      "Dogs · small · good with children · named like “bis” · within 25 mi of 60601",
    );
    expect(alertFilterWords({ near: "41.88,-87.63", within: "50mi" })).toBe("All animals · within 50 mi of your location");
    expect(alertFilterWords({ sex: "female", ageGroup: "senior", goodWith: ["dogs", "cats"] })).toBe("All animals · female · senior · good with dogs and cats");
  });
});
