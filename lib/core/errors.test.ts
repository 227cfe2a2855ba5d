import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, errorBody, toApiError, validationError } from "@/lib/core/errors";

describe("error mapping", () => {
  it("keeps an ApiError as it is", () => {
    const error = new ApiError(404, "not_found", "gone fishing");
    expect(toApiError(error)).toBe(error);
    expect(errorBody(error)).toEqual({ code: "not_found", message: "gone fishing", status: 404 });
  });

  it("turns an unknown error into a 500 that discloses nothing of it", () => {
    const mapped = toApiError(new Error('relation "pets" does not exist at /app/lib/db.ts:12'));
    expect(mapped.status).toBe(500);
    expect(mapped.code).toBe("internal_error");
    expect(JSON.stringify(errorBody(mapped))).not.toMatch(/relation|pets|db\.ts/);
  });

  it("turns an unreachable database into 503 with Retry-After", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const mapped = toApiError(new Error("query failed", { cause: refused }));
    expect(mapped.status).toBe(503);
    expect(mapped.code).toBe("service_unavailable");
    expect(mapped.headers["Retry-After"]).toBe("5");
  });

  it("lists every zod issue as a detail with its field", () => {
    const schema = z.object({ name: z.string(), n: z.number() });
    const result = schema.safeParse({ name: 1, n: "x" });
    const error = validationError("invalid_body", result.error!);
    expect(error.status).toBe(400);
    expect(errorBody(error).details?.map((d) => d.field)).toEqual(["name", "n"]);
  });
});
