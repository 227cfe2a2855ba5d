import { z } from "zod";
import { meantField } from "@/lib/core/unknown-fields";

// The one error type of the API and its one rendering. Every failure under
// /v1, expected or not, leaves as the spec's Error body { code, message,
// status } (plus details for validation), so clients need one error parser.

export const ERROR_CODES = [
  "invalid_json",
  "invalid_body",
  "invalid_query",
  "invalid_path",
  "invalid_request",
  "invalid_cursor",
  "invalid_webhook_url",
  "invalid_listing_host",
  "password_required",
  "unknown_category",
  "unknown_organization",
  "unknown_location",
  "invalid_header",
  "precondition_failed",
  "idempotency_key_reused",
  "idempotency_in_progress",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "request_timeout",
  "payload_too_large",
  "uri_too_long",
  "unsupported_media_type",
  "header_fields_too_large",
  "rate_limited",
  "key_temporarily_banned",
  "gone",
  "cursor_expired",
  "webhook_limit_reached",
  "listing_site_limit_reached",
  "upload_already_queued",
  "delivery_in_progress",
  "too_many_photos",
  "image_too_large",
  "not_available",
  "already_applied",
  "invalid_transition",
  "adoption_in_progress",
  "external_id_taken",
  "stay_open",
  "stay_ended",
  "stay_overlap",
  "too_many_stays",
  "no_open_stay",
  "foster_not_active",
  "foster_in_blackout",
  "foster_species",
  "foster_full",
  "placement_open",
  "placement_ended",
  "placement_overlap",
  "placement_outside_stay",
  "too_many_alerts",
  "too_many_keys",
  "not_confirmed",
  "invalid_file",
  "invalid_mapping",
  "too_many_rows",
  "import_in_progress",
  "person_exists",
  "person_has_animals",
  "person_erased",
  "link_expired",
  "not_a_foster",
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

/**
 * The one "not found" answer (404 not_found), so every look-up says it the same way:
 * `notFound("animal", 7)` says "There is no animal with id 7."; a look-up by something
 * other than an id (a link, an e-mail) passes its own sentence: `notFound("There is no …")`.
 */
export function notFound(what: string, id?: number | string): ApiError {
  return new ApiError(404, "not_found", id === undefined ? what : `There is no ${what} with id ${id}.`);
}

/**
 * The client hung up before its request had arrived (it reset or closed the
 * connection halfway through the body): thrown by the body readers
 * (lib/http/body.ts, upload.ts, form-upload.ts) instead of the stream's own
 * error, whose ECONNRESET read like the database's and made the request a 503
 * "dependency unavailable". Nobody is there to answer: the request is logged
 * and counted as nginx logs it, 499, and never as a failure of ours.
 */
export class ClientClosedRequest extends Error {
  constructor(cause: unknown) {
    super("The client closed the connection before the request body arrived.", { cause });
    this.name = "ClientClosedRequest";
  }
}

/** nginx's "client closed request": not a status any client sees, only logs and metrics. */
export const CLIENT_CLOSED_REQUEST = 499;

/** How many unknown fields an answer names; the others are counted, one detail per object. */
export const UNKNOWN_FIELDS_NAMED = 5;

/** zod's own words for an unknown key (`Unrecognized key: "x"`), replaced by ours when a schema gave none of its own. */
const ZOD_UNRECOGNIZED = /^Unrecognized keys?:/;

/**
 * zod issues as the API's details: a field path and a sentence a developer
 * can act on. `schema`, the one that refused the input, lets an unknown
 * field name the known one it most likely meant (lib/core/unknown-fields.ts).
 */
export function zodDetails(error: z.ZodError, schema?: z.ZodType): ErrorDetail[] {
  // Unknown fields are named up to UNKNOWN_FIELDS_NAMED in the whole answer and the rest counted: a body of
  // thousands of made-up keys gets a short answer, and the look-up of the field each one meant (a walk of
  // the schema) runs for the named ones only.
  let named = 0;
  return error.issues.flatMap((issue) => {
    if (issue.code !== "unrecognized_keys") return [{ field: issue.path.map(String).join("."), issue: issue.message }];
    // A strict object's unknown fields: one detail naming each, not one for the whole object.
    const what = ZOD_UNRECOGNIZED.test(issue.message) ? "is not a known field" : issue.message;
    const shown = issue.keys.slice(0, Math.max(0, UNKNOWN_FIELDS_NAMED - named));
    named += shown.length;
    const details = shown.map((key) => {
      const meant = schema ? meantField(schema, issue.path, key) : null;
      return { field: [...issue.path, key].map(String).join("."), issue: meant ? `${what}: did you mean ${meant}?` : what };
    });
    const rest = issue.keys.length - shown.length;
    if (rest > 0) {
      const where = issue.path.length ? ` in ${issue.path.map(String).join(".")}` : "";
      details.push({
        field: issue.path.map(String).join("."),
        issue: `and ${rest} more field${rest === 1 ? "" : "s"}${where} that ${rest === 1 ? "is" : "are"} not known`,
      });
    }
    return details;
  });
}

export function validationError(code: "invalid_body" | "invalid_query" | "invalid_path", error: z.ZodError, schema?: z.ZodType): ApiError {
  const what = { invalid_body: "request body", invalid_query: "query parameters", invalid_path: "path parameters" }[code];
  const details = zodDetails(error, schema);
  const first = details[0];
  const summary = first ? ` ${first.field ? `${first.field}: ` : ""}${first.issue}` : "";
  return new ApiError(400, code, `The ${what} ${code === "invalid_body" ? "is" : "are"} invalid.${summary}`, details);
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

// "The database (or counter store) cannot serve right now", in every form
// it takes on the way up through pg, the Prisma driver adapter and Prisma:
// PostgreSQL's SQLSTATE, Node's socket error codes, the adapter's error
// kinds, Prisma's P-codes and pg-pool's plain messages. Found by breaking
// the connection every way tests/api/database-outage.test.ts does.
const UNAVAILABLE_CODES = new Set([
  // SQLSTATE: shutting down, crashed, starting up (57P01-03); out of
  // connection slots (53300, 53400); our statement_timeout fired (57014);
  // lost to a concurrent transaction (40001, 40P01): all pass if retried.
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "53400",
  "57014",
  "40001",
  "40P01",
  // Node sockets.
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
  // Prisma: cannot reach, timed out, closed, pool timeout, too many connections.
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "P2037",
]);
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TransactionWriteConflict"]);
const UNAVAILABLE_MESSAGE =
  /connect(ion)? (refused|terminated|timeout)|timeout exceeded when trying to connect|Query read timeout|Can't reach database|DatabaseNotReachable|too many clients|not queryable|pool after calling end|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)/i;

/**
 * Every error object in a failure, the failure first: pg's, the Prisma driver
 * adapter's and Prisma's own wrap one another (`cause`,
 * `meta.driverAdapterError`, an AggregateError's `errors`). Bounded, and
 * safe against cycles.
 */
export function* errorChain(error: unknown): Generator<ErrorPart> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && seen.size < 20) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const part = e as ErrorPart;
    yield part;
    queue.push(part.cause, part.meta?.driverAdapterError);
    if (Array.isArray(part.errors)) queue.push(...part.errors);
  }
}

/** What the error objects of a failure may carry. */
export interface ErrorPart {
  code?: unknown;
  kind?: unknown;
  name?: unknown;
  message?: unknown;
  constraint?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: unknown; [key: string]: unknown };
}

/** True for failures that mean "the database (or counter store) cannot be reached", not "the request is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const record of errorChain(error)) {
    if (typeof record.code === "string" && (UNAVAILABLE_CODES.has(record.code) || /^08[0-9A-Z]{3}$/.test(record.code))) return true;
    if (typeof record.kind === "string" && UNAVAILABLE_KINDS.has(record.kind)) return true;
    if (record.name === "PrismaClientInitializationError") return true;
    if (typeof record.message === "string" && UNAVAILABLE_MESSAGE.test(record.message)) return true;
  }
  return false;
}
