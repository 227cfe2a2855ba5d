import { z } from "zod";

/**
 * A numeric id in a path ("/v1/webhooks/12"): digits only, 1 up to the
 * largest integer JavaScript holds exactly, so "12abc", "0" or
 * "99999999999999999999" get a 400 naming the parameter rather than a 404
 * or a database error. Documented as an int64 in the OpenAPI document.
 */
export const integerId = (name: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(Number.MAX_SAFE_INTEGER, "is too large"))
    .meta({
      type: "integer",
      format: "int64",
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      pattern: undefined,
      description: `Identifier of the ${name}.`,
      example: 1,
    });
