import { notFound } from "@/lib/core/errors";
import { withApi } from "@/lib/http/handler";

// Any other path under /v1 - 404 in the API's error shape, not an HTML page
const noEndpoint = withApi({ scope: null, tenant: "public" }, ({ url }) => {
  throw notFound(`There is no endpoint at ${url.pathname}. See /v1/openapi.json for the API.`);
});

export const GET = noEndpoint;
export const POST = noEndpoint;
export const PUT = noEndpoint;
export const PATCH = noEndpoint;
export const DELETE = noEndpoint;
// A preflight for a path that does not exist fails like the request would.
export const OPTIONS = noEndpoint;
