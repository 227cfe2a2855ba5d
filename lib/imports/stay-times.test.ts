import { describe, expect, it } from "vitest";
import { instantOf, readStayTime, startOfDay } from "@/lib/imports/stay-times";

// A file's days are the shelter's: midnight there, whatever the offset of
// the day (daylight saving included); an RFC 3339 time is that instant.

describe("readStayTime", () => {
  it.each([
    ["4/6/2022", { day: "2022-04-06", at: null }],
    ["04/06/2022", { day: "2022-04-06", at: null }],
    ["2022-04-06", { day: "2022-04-06", at: null }],
    ["2022-04-06T14:30:00-07:00", { day: "2022-04-06", at: "2022-04-06T21:30:00.000Z" }],
    ["2022-04-06T14:30Z", { day: "2022-04-06", at: "2022-04-06T14:30:00.000Z" }],
    ["", null],
  ])("%s", (cell, expected) => expect(readStayTime(cell)).toEqual(expected));

  it.each(["2/30/2022", "2022-13-01", "2022-04-06 14:30", "2022-04-06T25:00:00Z", "yesterday", "6/4/22"])("refuses %s", (cell) =>
    expect(readStayTime(cell)).toBeUndefined(),
  );
});

describe("startOfDay", () => {
  it("is midnight in the zone, winter and summer", () => {
    expect(startOfDay("2021-01-15", "America/Los_Angeles").toISOString()).toBe("2021-01-15T08:00:00.000Z");
    expect(startOfDay("2021-07-15", "America/Los_Angeles").toISOString()).toBe("2021-07-15T07:00:00.000Z");
    expect(startOfDay("2021-03-14", "America/Los_Angeles").toISOString()).toBe("2021-03-14T08:00:00.000Z");
    expect(startOfDay("2021-11-07", "America/Los_Angeles").toISOString()).toBe("2021-11-07T07:00:00.000Z");
    expect(startOfDay("2021-06-01", "UTC").toISOString()).toBe("2021-06-01T00:00:00.000Z");
    expect(startOfDay("2021-06-01", "Asia/Tokyo").toISOString()).toBe("2021-05-31T15:00:00.000Z");
  });

  it("a day whose midnight is skipped starts when the clocks jump", () => {
    // Santiago moved its clocks from 00:00 to 01:00 on 2022-09-11.
    expect(startOfDay("2022-09-11", "America/Santiago").toISOString()).toBe("2022-09-11T04:00:00.000Z");
  });

  it("an instant is itself; a day is its start", () => {
    expect(instantOf({ day: "2022-04-06", at: "2022-04-06T21:30:00.000Z" }, "America/Los_Angeles").toISOString()).toBe("2022-04-06T21:30:00.000Z");
    expect(instantOf({ day: "2022-04-06", at: null }, "America/Los_Angeles").toISOString()).toBe("2022-04-06T07:00:00.000Z");
  });
});
