"use client";

import type { ErrorBody, ErrorDetail } from "@/lib/http/errors";
import type { Api } from "@/lib/site/typed-client";

// The pages' one way to call /v1: `callApi((api) => api.GET("/pets", ...))`,
// where `api` is the openapi-fetch client typed from the OpenAPI document
// (lib/site/typed-client.ts). Same-origin with the session cookie (sent
// automatically); every failure becomes an ApiClientError carrying the API's
// { code, message, status, details }.
//
// The client itself is loaded on the first call, not with the page: pages
// render from data fetched on the server, and the browse page's first load
// stays inside its JavaScript budget (e2e/ui/page-weight.spec.ts) without
// openapi-fetch's 3 kB. This module stays light: errors and helpers only.

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Seconds to wait, from Retry-After (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
  status: number;
}

/** openapi-fetch's answer: data on success, the error body otherwise. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Makes one typed call and unwraps it: the data with the headers, or an
 * ApiClientError (a network failure, including failing to load the client,
 * is status 0, `network_error`).
 */
export async function callApi<T>(request: (api: Api) => Promise<FetchResult<T>>): Promise<ApiResponse<T>> {
  let result: FetchResult<T>;
  try {
    const { api } = await import("@/lib/site/typed-client");
    result = await request(api);
  } catch {
    throw new ApiClientError(0, "network_error", "Could not reach the server. Check your connection and try again.");
  }
  const { response } = result;
  if (!response.ok) {
    const error = (typeof result.error === "object" && result.error !== null ? result.error : {}) as Partial<ErrorBody>;
    const retry = response.headers.get("retry-after");
    throw new ApiClientError(
      response.status,
      error.code ?? "unknown_error",
      error.message ?? `The server answered ${response.status}.`,
      error.details ?? [],
      retry && /^\d+$/.test(retry) ? Number(retry) : undefined,
    );
  }
  return { data: result.data as T, headers: response.headers, status: response.status };
}

/** A sentence for people, for any error the pages show. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiClientError)) return "Something went wrong. Please try again.";
  if (error.status === 429) {
    const wait = error.retryAfter;
    return wait !== undefined
      ? `You're going a little fast. Please wait ${formatWait(wait)} and try again.`
      : "You're going a little fast. Please wait a moment and try again.";
  }
  return error.message;
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/** The cursor of a Link header's relation, e.g. rel="next". */
export function linkCursor(link: string | null, rel: "next" | "prev"): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (match && match[2] === rel) return new URL(match[1]!, "http://x").searchParams.get("cursor") ?? undefined;
  }
  return undefined;
}
