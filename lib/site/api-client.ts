"use client";

import type { ErrorBody, ErrorDetail } from "@/lib/http/errors";

// The pages' one way to call /v1: same-origin fetch with the session cookie
// (sent automatically), JSON in and out, and every failure turned into an
// ApiClientError carrying the API's { code, message, status, details }.

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

export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<ApiResponse<T>> {
  const { json, ...rest } = init;
  let res: Response;
  try {
    res = await fetch(path, {
      ...rest,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(json !== undefined ? { "Content-Type": "application/json" } : {}), ...rest.headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch {
    throw new ApiClientError(0, "network_error", "Could not reach the server. Check your connection and try again.");
  }
  const text = await res.text();
  const body: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const error = (body ?? {}) as Partial<ErrorBody>;
    const retry = res.headers.get("retry-after");
    throw new ApiClientError(
      res.status,
      error.code ?? "unknown_error",
      error.message ?? `The server answered ${res.status}.`,
      error.details ?? [],
      retry && /^\d+$/.test(retry) ? Number(retry) : undefined,
    );
  }
  return { data: body as T, headers: res.headers, status: res.status };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
