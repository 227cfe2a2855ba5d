import { ApiError } from "@/lib/core/errors";
import { withApi } from "@/lib/http/handler";

// Any other path under /v1 - 404 in the API's error shape, not an HTML page
const notFound = withApi({ scope: null, tenant: "public" }, ({ url }) => {
  throw new ApiError(404, "not_found", `There is no endpoint at ${url.pathname}. See /v1/openapi.json for the API.`);
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
// A preflight for a path that does not exist fails like the request would.
export const OPTIONS = notFound;
