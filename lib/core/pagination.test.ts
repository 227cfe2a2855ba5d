import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { decodeCursor, encodeCursor, linkHeader, withCursor } from "@/lib/core/pagination";

describe("cursor codec", () => {
  it("round-trips a cursor", () => {
    const raw = encodeCursor({ d: "after", id: 12345 });
    expect(raw).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(raw)).toEqual({ v: 1, d: "after", id: 12345 });
  });

  it.each([
    ["not base64url", "%%%"],
    ["base64 of non-JSON", Buffer.from("hello").toString("base64url")],
    ["JSON of the wrong shape", Buffer.from(JSON.stringify({ id: "x" })).toString("base64url")],
    ["an unknown version", Buffer.from(JSON.stringify({ v: 2, d: "after", id: 1 })).toString("base64url")],
    ["a fractional id", Buffer.from(JSON.stringify({ v: 1, d: "after", id: 1.5 })).toString("base64url")],
    ["far too long", "a".repeat(500)],
  ])("refuses %s with invalid_cursor", (_label, raw) => {
    try {
      decodeCursor(raw);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("invalid_cursor");
      expect((error as ApiError).status).toBe(400);
    }
  });
});

describe("Link header", () => {
  it("is absent when there is no other page", () => {
    expect(linkHeader({})).toBeUndefined();
  });

  it("carries filters and limit over into the next page's URL", () => {
    const url = new URL("http://x.test/v1/pets?status=sold&limit=10&cursor=old");
    const next = withCursor(url, "NEW");
    expect(linkHeader({ next })).toBe('<http://x.test/v1/pets?status=sold&limit=10&cursor=NEW>; rel="next"');
  });
});
