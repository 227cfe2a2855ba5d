import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import {
  listOrganizationsQuerySchema,
  newOrganizationSchema,
  organizationIdParamsSchema,
  organizationPatchSchema,
  organizationSchema,
  organizationsSchema,
} from "@/lib/organizations/schemas";

// Organisations in the contract: the directory (with near search), one
// organisation, and adding or changing one (organizations:manage).

export function registerOrganizations(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  registry.registerPath({
    method: "get",
    path: "/organizations",
    operationId: "listOrganizations",
    summary: "List organisations (shelters and rescues)",
    description:
      "In name order; with `near`, nearest first (newest first at one distance), each with `distanceKm`, within `within` (default 100km). `q` searches names (case and accents ignored); `id` lists these organisations only; `slug` finds one by its slug (as its page `/shelters/<slug>` does). Page with `limit` and the `Link` header's cursors, as for animals.",
    tags: ["organizations"],
    security,
    request: { query: listOrganizationsQuerySchema },
    responses: {
      200: {
        description: "A page of organisations.",
        headers: { ...COMMON_HEADERS, Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`.') },
        content: { "application/json": { schema: organizationsSchema } },
      },
      400: errorResponse(
        400,
        ["invalid_query", "invalid_cursor", "unknown_location"],
        {},
        "A parameter is invalid (`details` names it), a cursor is not from a `Link` header of this search, or `near` names a ZIP code we do not know (`unknown_location`).",
      ),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/organizations",
    operationId: "createOrganization",
    summary: "Add an organisation",
    description:
      "Platform keys (and platform admins) with `organizations:manage`. Without `location`, a US ZIP code in `address.postcode` (with `country` `US`) places it at the ZIP code's centre; otherwise `location` is required (`unknown_location`). The slug is made from the name when not given.",
    tags: ["organizations"],
    security,
    request: { body: { required: true, content: { "application/json": { schema: newOrganizationSchema } } } },
    responses: {
      201: {
        description: "Added.",
        headers: { ...COMMON_HEADERS, Location: header("URL of the organisation.") },
        content: { "application/json": { schema: organizationSchema } },
      },
      400: errorResponse(400, ["invalid_json", "invalid_body", "unknown_location"]),
      403: errorResponse(403, ["forbidden"], {}, "The key lacks `organizations:manage`, or is an organisation's key (only the platform adds organisations)."),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}",
    operationId: "getOrganization",
    summary: "Get an organisation",
    tags: ["organizations"],
    security,
    request: { params: organizationIdParamsSchema },
    responses: {
      200: { description: "The organisation.", headers: COMMON_HEADERS, content: { "application/json": { schema: organizationSchema } } },
      400: errorResponse(400, ["invalid_path"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/organizations/{organizationId}",
    operationId: "updateOrganization",
    summary: "Change an organisation's profile",
    description:
      "A JSON merge patch: `address` merges field by field, `location` is replaced whole; a new US ZIP code without a `location` moves the organisation to its centre, and `location: null` moves it back there after an explicit position. An organisation's key with `organizations:manage` changes its own organisation only; a platform key any.",
    tags: ["organizations"],
    security,
    request: {
      params: organizationIdParamsSchema,
      body: {
        required: true,
        content: { "application/merge-patch+json": { schema: organizationPatchSchema }, "application/json": { schema: organizationPatchSchema } },
      },
    },
    responses: {
      200: { description: "Changed.", headers: COMMON_HEADERS, content: { "application/json": { schema: organizationSchema } } },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "unknown_location"]),
      403: errorResponse(403, ["forbidden"], {}, "The key lacks `organizations:manage`, or the organisation is not the key's own."),
      404: errorResponse(404, ["not_found"]),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });
}
