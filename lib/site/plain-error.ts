import type { ErrorBody } from "@/lib/core/errors";

/** An API failure as plain data, so it can cross from a server component to the client. */
export interface PlainApiError {
  status: number;
  code: string;
  message: string;
  retryAfter?: number;
}

/** A /v1 refusal from a server render as plain data (it crosses to client components): the body's words, and Retry-After. */
export function plainError(res: { status: number; body: unknown; headers: Headers }): PlainApiError & { details?: ErrorBody["details"] } {
  const error = (res.body ?? {}) as Partial<ErrorBody>;
  const retry = res.headers.get("retry-after");
  return {
    status: res.status,
    code: error.code ?? "unknown_error",
    message: error.message ?? `The server answered ${res.status}.`,
    ...(error.details ? { details: error.details } : {}),
    ...(retry && /^\d+$/.test(retry) ? { retryAfter: Number(retry) } : {}),
  };
}
