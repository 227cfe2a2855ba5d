import { ApiError } from "@/lib/http/errors";
import { withApi } from "@/lib/http/handler";
import { preflightHeaders } from "@/lib/http/headers";

// Any other path under /v1 - 404 in the API's error shape, not an HTML page
const notFound = withApi({ scope: null }, ({ url }) => {
  throw new ApiError(404, "not_found", `There is no endpoint at ${url.pathname}. See /v1/openapi.json for the API.`);
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = async () => new Response(null, { status: 204, headers: preflightHeaders(["GET", "POST"]) });
