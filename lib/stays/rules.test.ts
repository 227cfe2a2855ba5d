import { describe, expect, it } from "vitest";
import { afterLastStay } from "@/lib/stays/rules";

// Decision 023's rule, written once (issue 48): the stays' service and the
// history import both ask it.

describe("what the last stay makes of the animal", () => {
  it.each([
    [null, "available", { status: "available", inCare: true }],
    [null, "pending", { status: "pending", inCare: true }],
    [null, "sold", { status: "available", inCare: true }],
    ["adoption", "available", { status: "sold", inCare: true }],
    ["adoption", "pending", { status: "sold", inCare: true }],
    ["shelterEuthanasia", "pending", { status: "pending", inCare: false }],
    ["transferredOut", "sold", { status: "available", inCare: false }],
    ["returnedToOwner", "available", { status: "available", inCare: false }],
  ] as const)("outcome %s, status %s: %o", (outcome, status, expected) => {
    expect(afterLastStay(outcome, status)).toEqual(expected);
  });
});
