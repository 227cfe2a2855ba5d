import { describe, expect, it } from "vitest";
import { intakeInputSchema, outcomeInputSchema, stayPatchSchema, stayTimeOf, stayTimeSchema } from "@/lib/stays/schemas";

describe("at: an RFC 3339 time or a date", () => {
  it.each(["2026-11-28T14:30:00Z", "2026-11-28T14:30:00.123-06:00", "2026-11-28t14:30z", "2026-11-28T14:30:00+05:30", "2026-02-28", "1900-01-01"])(
    "takes %s",
    (at) => {
      expect(stayTimeSchema.safeParse(at).success).toBe(true);
    },
  );

  it.each(["2026-02-30", "2026-13-01", "28/11/2026", "2026-11-28T25:00:00Z", "2026-11-28T14:30:00", "1899-12-31", "now", "", "2026-11-28T14:30:00+5"])(
    "refuses %s",
    (at) => {
      expect(stayTimeSchema.safeParse(at).success).toBe(false);
    },
  );

  it("a date is a day (midnight in the organisation's zone, resolved by the service); a time an instant", () => {
    expect(stayTimeOf("2026-03-08")).toEqual({ day: "2026-03-08" });
    expect(stayTimeOf("2026-03-08T02:30:00-06:00")).toEqual({ instant: new Date("2026-03-08T08:30:00Z") });
  });
});

describe("intake, outcome and correction bodies", () => {
  it("types are the matrix's categories; subtype at most 100 characters, blank is none; unknown fields refused", () => {
    expect(intakeInputSchema.parse({ type: "stray", subtype: "  " })).toEqual({ type: "stray", subtype: null });
    expect(intakeInputSchema.safeParse({ type: "found" }).success).toBe(false);
    expect(outcomeInputSchema.safeParse({ type: "adoption", subtype: "x".repeat(101) }).success).toBe(false);
    expect(outcomeInputSchema.safeParse({ type: "adoption", by: "me" }).success).toBe(false);
    expect(outcomeInputSchema.parse({ type: "ownerIntendedEuthanasia" }).type).toBe("ownerIntendedEuthanasia");
  });

  it("a correction changes something of the intake or the outcome", () => {
    expect(stayPatchSchema.safeParse({}).success).toBe(false);
    expect(stayPatchSchema.safeParse({ intake: {} }).success).toBe(false);
    expect(stayPatchSchema.safeParse({ outcome: { type: "stray" } }).success).toBe(false);
    expect(stayPatchSchema.parse({ outcome: { type: "transferredOut" } })).toEqual({ outcome: { type: "transferredOut" } });
  });
});
