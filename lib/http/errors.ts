import { z } from "zod";

// The one error type of the API and its one rendering. Every failure under
// /v1, expected or not, leaves as the spec's Error body { code, message,
// status } (plus details for validation), so clients need one error parser.

export const ERROR_CODES = [
  "invalid_json",
  "invalid_body",
  "invalid_query",
  "invalid_path",
  "invalid_cursor",
  "unknown_category",
  "invalid_header",
  "precondition_failed",
  "idempotency_key_reused",
  "idempotency_in_progress",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "key_temporarily_banned",
  "gone",
  "service_unavailable",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorDetailSchema = z
  .object({
    field: z.string().meta({ description: "Dotted path of the offending field; empty for the whole input.", example: "name" }),
    issue: z.string().meta({ description: "What is wrong with it.", example: "must be 1 to 100 characters" }),
  })
  .meta({ id: "ErrorDetail" });

export const errorSchema = z
  .object({
    code: z.enum(ERROR_CODES).meta({ description: "Machine-readable error code; stable.", example: "invalid_body" }),
    message: z.string().meta({ description: "Human-readable description of the error.", example: "The request body is invalid." }),
    status: z.number().int().meta({ description: "The HTTP status code of the response.", example: 400 }),
    details: z.array(errorDetailSchema).optional().meta({ description: "Per-field problems, for validation errors." }),
  })
  .meta({ id: "Error" });

export type ErrorBody = z.infer<typeof errorSchema>;
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Headers the error needs (Allow, Retry-After, WWW-Authenticate...). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** zod issues as the API's details: a field path and a sentence a developer can act on. */
export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.flatMap((issue) =>
    // A strict object's unknown fields: one detail naming each, not one for the whole object.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: [...issue.path, key].map(String).join("."), issue: issue.message }))
      : [{ field: issue.path.map(String).join("."), issue: issue.message }],
  );
}

export function validationError(code: "invalid_body" | "invalid_query" | "invalid_path", error: z.ZodError): ApiError {
  const what = { invalid_body: "request body", invalid_query: "query parameters", invalid_path: "path parameters" }[code];
  const details = zodDetails(error);
  const first = details[0];
  const summary = first ? ` ${first.field ? `${first.field}: ` : ""}${first.issue}` : "";
  return new ApiError(400, code, `The ${what} ${details.length > 1 ? "are" : "is"} invalid.${summary}`, details);
}

/**
 * Anything thrown becomes an ApiError. Unknown errors become a generic 500
 * whose message says nothing about the internals (the log has them).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError(503, "service_unavailable", "The service is temporarily unavailable. Please retry shortly.", undefined, {
      "Retry-After": "5",
    });
  }
  return new ApiError(500, "internal_error", "Something went wrong on our side. Please retry; if it persists, contact support with the X-Request-Id.");
}

export function errorBody(error: ApiError): ErrorBody {
  return {
    code: error.code,
    message: error.message,
    status: error.status,
    ...(error.details?.length ? { details: error.details } : {}),
  };
}

const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "57P01", "57P03", "53300"]);

/** True for failures that mean "the database (or counter store) cannot be reached", not "the request is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const record = e as { code?: unknown; name?: string; message?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof record.code === "string" && UNAVAILABLE_CODES.has(record.code)) return true;
    if (record.name === "PrismaClientInitializationError") return true;
    if (typeof record.message === "string" && /connect(ion)? (refused|terminated|timeout)|Can't reach database|DatabaseNotReachable|too many clients/i.test(record.message)) return true;
    if (Array.isArray(record.errors) && record.errors.some((x) => isDatabaseUnavailable(x))) return true;
    e = record.cause;
  }
  return false;
}
