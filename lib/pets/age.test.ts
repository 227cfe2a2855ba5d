import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ageGroupOf, yearsBefore } from "@/lib/pets/age";

// The age groups exist twice: in TypeScript (the API's ageGroup, the filter's
// birth-date ranges) and in SQL (the stored copy the filter's index walks).
// They must agree to the day, leap days and month ends included.

describe("yearsBefore", () => {
  it.each([
    ["2026-11-24", 1, "2025-11-24"],
    ["2028-02-29", 1, "2027-02-28"],
    ["2028-02-29", 4, "2024-02-29"],
    ["2027-03-01", 3, "2024-03-01"],
    ["2026-01-31", 8, "2018-01-31"],
  ])("%s minus %i years is %s", (day, years, expected) => {
    expect(yearsBefore(day, years)).toBe(expected);
  });
});

describe("ageGroupOf", () => {
  it("has its boundaries on birthdays", () => {
    expect(ageGroupOf("2024-06-15", "2025-06-14")).toBe("baby");
    expect(ageGroupOf("2024-06-15", "2025-06-15")).toBe("young");
    expect(ageGroupOf("2024-06-15", "2027-06-14")).toBe("young");
    expect(ageGroupOf("2024-06-15", "2027-06-15")).toBe("adult");
    expect(ageGroupOf("2024-06-15", "2032-06-15")).toBe("senior");
    expect(ageGroupOf(null, "2025-01-01")).toBeNull();
  });

  it("counts a 29 February birthday from 1 March in other years", () => {
    expect(ageGroupOf("2024-02-29", "2025-02-28")).toBe("baby");
    expect(ageGroupOf("2024-02-29", "2025-03-01")).toBe("young");
  });

  it("agrees with PostgreSQL's pet_age_group on every day around the boundaries for births across four years", async () => {
    const births: string[] = [];
    for (let t = Date.parse("2016-01-01"); t < Date.parse("2020-12-31"); t += 13 * 86_400_000) births.push(new Date(t).toISOString().slice(0, 10));
    births.push("2016-02-29", "2020-02-29", "2019-12-31", "2020-01-01");
    const days = ["2021-02-28", "2021-03-01", "2024-02-28", "2024-02-29", "2024-03-01", "2025-12-31", "2026-01-01", "2028-02-29"];
    const rows = await db().$queryRaw<{ birth: string; day: string; group: string | null }[]>`
      SELECT b::text AS birth, d::text AS day, pet_age_group(b::date, d::date)::text AS "group"
        FROM unnest(${births}::text[]) b, unnest(${days}::text[]) d`;
    const disagreements = rows.filter((r) => ageGroupOf(r.birth, r.day) !== r.group);
    expect(disagreements).toEqual([]);
    expect(rows.length).toBe(births.length * days.length);
  });
});
