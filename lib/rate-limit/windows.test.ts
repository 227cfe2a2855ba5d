import { describe, expect, it } from "vitest";
import { windowAt } from "@/lib/rate-limit/windows";

// Fixed windows aligned to UTC (product.md "Rate limits"): a minute window
// opens at :00 of each minute, a day window at 00:00 UTC; end = start + length.

const at = (iso: string) => new Date(iso);

describe("windowAt('minute')", () => {
  it.each([
    ["2030-03-04T10:15:30.123Z", "2030-03-04T10:15:00.000Z", "2030-03-04T10:16:00.000Z"],
    ["2030-03-04T10:15:00.000Z", "2030-03-04T10:15:00.000Z", "2030-03-04T10:16:00.000Z"], // exactly at the start: that window
    ["2030-03-04T10:15:59.999Z", "2030-03-04T10:15:00.000Z", "2030-03-04T10:16:00.000Z"], // last millisecond: still that window
    ["2030-03-04T23:59:59.999Z", "2030-03-04T23:59:00.000Z", "2030-03-05T00:00:00.000Z"], // crosses into the next day
    ["2030-12-31T23:59:30.000Z", "2030-12-31T23:59:00.000Z", "2031-01-01T00:00:00.000Z"], // and the next year
    ["2032-02-29T12:00:01.000Z", "2032-02-29T12:00:00.000Z", "2032-02-29T12:01:00.000Z"], // leap day
  ])("at %s opens at %s and ends at %s", (now, start, end) => {
    const w = windowAt("minute", at(now));
    expect(w).toEqual({ name: "minute", start: at(start), end: at(end), seconds: 60 });
  });

  it("is aligned to UTC whatever the local offset of the instant as written", () => {
    // 10:15:30+05:30 is 04:45:30Z: the window is 04:45Z, not 10:15 local.
    const w = windowAt("minute", at("2030-03-04T10:15:30+05:30"));
    expect(w.start.toISOString()).toBe("2030-03-04T04:45:00.000Z");
    expect(w.end.toISOString()).toBe("2030-03-04T04:46:00.000Z");
  });

  it("end = start + 60 s, starts on a whole minute, and contains now", () => {
    for (let ms = Date.UTC(2030, 2, 4, 10, 0, 0); ms < Date.UTC(2030, 2, 4, 10, 3, 0); ms += 7_919) {
      const now = new Date(ms);
      const w = windowAt("minute", now);
      expect(w.end.getTime() - w.start.getTime()).toBe(60_000);
      expect(w.seconds).toBe(60);
      expect(w.start.getTime() % 60_000).toBe(0);
      expect(w.start.getUTCSeconds()).toBe(0);
      expect(w.start.getUTCMilliseconds()).toBe(0);
      expect(w.start.getTime()).toBeLessThanOrEqual(ms);
      expect(w.end.getTime()).toBeGreaterThan(ms);
    }
  });

  it("two instants in the same minute share the window; one millisecond across the edge does not", () => {
    const a = windowAt("minute", at("2030-03-04T10:15:00.000Z"));
    const b = windowAt("minute", at("2030-03-04T10:15:59.999Z"));
    const c = windowAt("minute", at("2030-03-04T10:16:00.000Z"));
    expect(b.start).toEqual(a.start);
    expect(c.start).toEqual(a.end);
  });

  it("returns fresh Date objects (mutating one does not change the next result)", () => {
    const now = at("2030-03-04T10:15:30.000Z");
    const w = windowAt("minute", now);
    w.start.setTime(0);
    expect(windowAt("minute", now).start.toISOString()).toBe("2030-03-04T10:15:00.000Z");
    expect(now.toISOString()).toBe("2030-03-04T10:15:30.000Z");
  });
});

describe("windowAt('day')", () => {
  it.each([
    ["2030-03-04T10:15:30.123Z", "2030-03-04T00:00:00.000Z", "2030-03-05T00:00:00.000Z"],
    ["2030-03-04T00:00:00.000Z", "2030-03-04T00:00:00.000Z", "2030-03-05T00:00:00.000Z"], // midnight UTC: the new day
    ["2030-03-04T23:59:59.999Z", "2030-03-04T00:00:00.000Z", "2030-03-05T00:00:00.000Z"],
    ["2030-12-31T18:00:00.000Z", "2030-12-31T00:00:00.000Z", "2031-01-01T00:00:00.000Z"],
    ["2032-02-29T12:00:00.000Z", "2032-02-29T00:00:00.000Z", "2032-03-01T00:00:00.000Z"], // leap day
    ["2030-03-31T01:30:00.000Z", "2030-03-31T00:00:00.000Z", "2030-04-01T00:00:00.000Z"], // EU DST day: UTC has no DST
  ])("at %s opens at %s and ends at %s", (now, start, end) => {
    const w = windowAt("day", at(now));
    expect(w).toEqual({ name: "day", start: at(start), end: at(end), seconds: 86_400 });
  });

  it("is the UTC day, not the local one: 2030-03-04T22:00-05:00 is in the day 2030-03-05 UTC", () => {
    const w = windowAt("day", at("2030-03-04T22:00:00-05:00"));
    expect(w.start.toISOString()).toBe("2030-03-05T00:00:00.000Z");
    expect(w.end.toISOString()).toBe("2030-03-06T00:00:00.000Z");
  });

  it("end = start + 86 400 s, starts at 00:00:00.000 UTC, and contains now", () => {
    for (let ms = Date.UTC(2030, 0, 1); ms < Date.UTC(2030, 0, 4); ms += 3_599_999) {
      const w = windowAt("day", new Date(ms));
      expect(w.end.getTime() - w.start.getTime()).toBe(86_400_000);
      expect(w.seconds).toBe(86_400);
      expect([w.start.getUTCHours(), w.start.getUTCMinutes(), w.start.getUTCSeconds(), w.start.getUTCMilliseconds()]).toEqual([0, 0, 0, 0]);
      expect(w.start.getTime()).toBeLessThanOrEqual(ms);
      expect(w.end.getTime()).toBeGreaterThan(ms);
    }
  });

  it("the minute window lies inside the day window at the same instant", () => {
    for (const iso of ["2030-03-04T00:00:00.000Z", "2030-03-04T12:34:56.789Z", "2030-03-04T23:59:59.999Z"]) {
      const minute = windowAt("minute", at(iso));
      const day = windowAt("day", at(iso));
      expect(minute.start.getTime()).toBeGreaterThanOrEqual(day.start.getTime());
      expect(minute.end.getTime()).toBeLessThanOrEqual(day.end.getTime());
    }
  });
});
