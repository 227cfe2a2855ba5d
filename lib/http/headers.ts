import { randomUUID } from "node:crypto";

// Headers every /v1 response carries, in one place so the OpenAPI document,
// CORS, the wrapper and the HTTP server's own refusals agree.

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id of a request: the client's X-Request-Id when it is sane, a fresh one otherwise. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Response headers a browser script on another origin may read (CORS). */
export const EXPOSED_HEADERS = [
  "Link",
  "Location",
  "Retry-After",
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
  "Deprecation",
  "Sunset",
  "WWW-Authenticate",
  "ETag",
  "Idempotent-Replayed",
];

/**
 * Bearer callers may call from any origin. No credentials mode: a cookie is
 * never sent cross-origin to us with CORS approval, so sessions stay same-site.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
};

export function corsHeaders(): Record<string, string> {
  return { ...CORS_HEADERS };
}

export function preflightHeaders(allowedMethods: string[]): Record<string, string> {
  return {
    ...corsHeaders(),
    "Access-Control-Allow-Methods": [...allowedMethods, "OPTIONS"].join(", "),
    "Access-Control-Allow-Headers": "Authorization, Content-Type, X-Request-Id, If-Match, Idempotency-Key",
    "Access-Control-Max-Age": "86400",
  };
}

export const COMMON_HEADERS: Record<string, string> = {
  // Responses depend on the caller; no shared cache may keep them.
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

export const DEPRECATION = {
  /** RFC 9745: when getPet became deprecated (the day this API launched with it so marked). */
  deprecatedAt: new Date("2026-11-22T00:00:00Z"),
  /** RFC 8594: removal announced in the spec. */
  sunset: new Date("2030-12-05T00:00:00Z"),
  successor: "/v1/pets",
};

export function deprecationHeaders(d: typeof DEPRECATION): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(d.deprecatedAt.getTime() / 1000)}`,
    Sunset: d.sunset.toUTCString(),
    Link: `<${d.successor}>; rel="successor-version"`,
  };
}

/** getPet's successor for one animal: the list filtered by its id (`/v1/pets?id=12`). */
export function petSuccessor(petId: string | string[] | undefined): string | undefined {
  const id = typeof petId === "string" && /^[0-9]{1,20}$/.test(petId) ? Number(petId) : 0;
  return id >= 1 && id <= Number.MAX_SAFE_INTEGER ? `${DEPRECATION.successor}?id=${id}` : undefined;
}
