"use client";

import { networkError, type ApiResponse } from "@/lib/site/api-error";
import type { Api, FetchResult } from "@/lib/site/typed-client";

// What a page needs of lib/site/api-client.ts before anything goes wrong:
// the error type, the call, and the Link header's cursors. It is apart from
// the error wording (describeError, in api-client.ts) so that the browse
// page's first load, which shows no error, does not ship that. That page's
// modules and the layout's provider import this one; the error type is
// lib/site/api-error.ts's.
//
// The typed client, with the unwrapping of its answers, is loaded on the
// first call, not with the page: pages render from data fetched on the
// server, and the browse page's first load stays inside its JavaScript
// budget (e2e/ui/page-weight.spec.ts) without openapi-fetch's 3 kB.

/**
 * Makes one typed call and unwraps it: the data with the headers, or an
 * ApiClientError (a network failure, including failing to load the client,
 * is status 0, `network_error`).
 */
export async function callApi<T>(request: (api: Api) => Promise<FetchResult<T>>): Promise<ApiResponse<T>> {
  let client: typeof import("@/lib/site/typed-client");
  try {
    client = await import("@/lib/site/typed-client");
  } catch {
    throw networkError();
  }
  return client.call(request);
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
