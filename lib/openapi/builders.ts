import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { errorSchema, type ErrorCode } from "@/lib/core/errors";
import { MAX_BODY_BYTES } from "@/lib/http/body";

// What every part of the OpenAPI document uses to describe an operation's
// headers and errors. A module of its own: lib/openapi/document.ts assembles
// the parts, and the parts import these builders, never the document.

export const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, schema });

export const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": header("The request limit of the window closest to exhaustion.", { type: "integer" }),
  "X-RateLimit-Remaining": header("Requests remaining in that window.", { type: "integer" }),
  "X-RateLimit-Reset": header("Unix time (seconds) at which that window resets.", { type: "integer" }),
  "RateLimit-Policy": header('IETF draft: the policies in force, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.'),
  RateLimit: header('IETF draft: the state of the closest-to-exhaustion policy, e.g. `"minute";r=59;t=42`.'),
};
export const COMMON_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  "X-Request-Id": header("Identifier of this request; quote it when reporting a problem."),
};
/** The animal's version: on answers that carry one, and on 412 (If-Match failed). */
export const ETAG = { ETag: header('The animal\'s version as a strong entity tag, e.g. `"3"` (its `version` field in quotes). Send it back in `If-Match`.') };
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The request is invalid: `details` names each offending field.",
  401: "API key missing or invalid.",
  403: "The API key lacks the scope this operation needs, or what it names belongs to another organisation.",
  404: "Not found.",
  405: "Method not allowed on this path (see the `Allow` header).",
  410: "The operation has been removed (past its sunset).",
  413: `Request body larger than ${MAX_BODY_BYTES / 1024} KiB.`,
  409: "A request with the same `Idempotency-Key` is still being processed; retry after `Retry-After` seconds to get its response.",
  412: "`If-Match` does not match the animal's current version: someone changed it since you read it. The `ETag` header gives the current version.",
  415: "Request body is not `application/json`.",
  422: "The `Idempotency-Key` was already used (within 24 hours, by the same caller) with a different request body.",
  429: "Rate limit exceeded (`rate_limited`), or the key is temporarily banned for continuing while limited (`key_temporarily_banned`). Wait `Retry-After` seconds.",
  503: "Temporarily unavailable; retry after `Retry-After` seconds.",
  500: "Unexpected error; nothing internal is disclosed. Quote X-Request-Id.",
};

/** Errors that say "wait, then retry": they carry Retry-After. */
const WAIT_AND_RETRY = new Set<ErrorCode>([
  "idempotency_in_progress",
  "delivery_in_progress",
  "import_in_progress",
  "rate_limited",
  "key_temporarily_banned",
  "service_unavailable",
]);

export function errorResponse(
  status: number,
  codes: ErrorCode[],
  extraHeaders: Record<string, ReturnType<typeof header>> = {},
  /** Instead of the status's usual description. */
  description?: string,
): ResponseConfig {
  const headers: Record<string, ReturnType<typeof header>> = { ...COMMON_HEADERS, ...extraHeaders };
  if (status === 401) headers["WWW-Authenticate"] = header("`Bearer` challenge.");
  if (codes.some((code) => WAIT_AND_RETRY.has(code))) headers["Retry-After"] = header("Seconds to wait before retrying.", { type: "integer" });
  if (status === 412) Object.assign(headers, ETAG);
  if (status === 405) headers.Allow = header("The methods this path supports.");
  return {
    description: `${description ?? ERROR_DESCRIPTIONS[status] ?? "Error."} Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
    headers,
    content: { "application/json": { schema: errorSchema } },
  };
}

export function commonErrors(extraHeaders = {}): Record<number, ResponseConfig> {
  return {
    401: errorResponse(401, ["unauthorized"], extraHeaders),
    403: errorResponse(403, ["forbidden"], extraHeaders),
    429: errorResponse(429, ["rate_limited", "key_temporarily_banned"], extraHeaders),
    500: errorResponse(500, ["internal_error"], extraHeaders),
    503: errorResponse(503, ["service_unavailable"], extraHeaders),
  };
}
