"use client";

import type { ErrorDetail } from "@/lib/core/errors";

// A call's outcome as pages see it: its data with the headers, or an
// ApiClientError. Apart from lib/site/api-client-core.ts so that the typed
// client it loads on the first call (lib/site/typed-client.ts) can build both
// without importing the module that imports it.

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

/** A request that never got an answer: the network, or the client's own code failing to load. */
export function networkError(): ApiClientError {
  return new ApiClientError(0, "network_error", "Could not reach the server. Check your connection and try again.");
}
