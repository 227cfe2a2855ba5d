"use client";

import createClient from "openapi-fetch";
import type { ErrorBody } from "@/lib/core/errors";
import { ApiClientError, networkError, type ApiResponse } from "@/lib/site/api-error";
import type { paths } from "@/lib/site/openapi-types";

// The openapi-fetch client typed by the types generated from the OpenAPI
// document (lib/site/openapi-types.ts, `npm run openapi:types`), so a path,
// parameter or field that the contract renames breaks the build instead of a
// page. Pages never import this module directly: they go through `callApi`
// (lib/site/api-client.ts), which loads it on the first call, so a page that
// renders from server data does not download it until it asks /v1 again
// (or use `call` from a module that is itself loaded lazily, like
// components/pets/browse-later.ts). The unwrapping of answers is here too:
// it only ever runs after a call.

export const api = createClient<paths>({
  baseUrl: "/v1",
  credentials: "same-origin",
  headers: { Accept: "application/json" },
  // `id=12,15`, as the API documents it (style form, explode false); it refuses repeated parameters.
  querySerializer: { array: { style: "form", explode: false } },
});

export type Api = typeof api;

/** openapi-fetch's answer: data on success, the error body otherwise. */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** callApi's work once the client is here: one call, its data with the headers, or an ApiClientError. */
export async function call<T>(request: (api: Api) => Promise<FetchResult<T>>): Promise<ApiResponse<T>> {
  let result: FetchResult<T>;
  try {
    result = await request(api);
  } catch {
    throw networkError();
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
