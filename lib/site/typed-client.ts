"use client";

import createClient from "openapi-fetch";
import type { paths } from "@/lib/site/openapi-types";

// The openapi-fetch client typed by the types generated from the OpenAPI
// document (lib/site/openapi-types.ts, `npm run openapi:types`), so a path,
// parameter or field that the contract renames breaks the build instead of a
// page. Pages never import this module directly: they go through `callApi`
// (lib/site/api-client.ts), which loads it on the first call, so a page that
// renders from server data does not download it until it asks /v1 again.

export const api = createClient<paths>({
  baseUrl: "/v1",
  credentials: "same-origin",
  headers: { Accept: "application/json" },
  // `id=12,15`, as the API documents it (style form, explode false); it refuses repeated parameters.
  querySerializer: { array: { style: "form", explode: false } },
});

export type Api = typeof api;
