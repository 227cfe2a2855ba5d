"use client";

import { ApiClientError } from "@/lib/site/api-error";

// The pages' one way to call /v1: `callApi((api) => api.GET("/pets", ...))`,
// where `api` is the openapi-fetch client typed from the OpenAPI document
// (lib/site/typed-client.ts). Same-origin with the session cookie (sent
// automatically); every failure becomes an ApiClientError carrying the API's
// { code, message, status, details }.
//
// The call itself and the Link cursors are in lib/site/api-client-core.ts,
// which loads the client on the first call, and the error type in
// lib/site/api-error.ts; the browse page's first load imports only those.
// This one adds the errors' wording for people.

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
