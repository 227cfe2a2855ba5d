import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/document";
import {
  LISTING_SITES_PER_ORGANIZATION,
  UPLOADS_LISTED,
  connectionTestBodySchema,
  connectionTestSchema,
  listingFeedParamsSchema,
  listingSiteIdParamsSchema,
  listingSitePatchSchema,
  listingSiteSchema,
  listingSitesSchema,
  listingUploadSchema,
  listingUploadsSchema,
  newListingSiteSchema,
} from "@/lib/listings/uploads/schemas";

// Listing sites (Petfinder, Adopt-a-Pet, RescueGroups accounts), their
// uploads, and the pull feeds, registered into the partner document. Only
// called from buildOpenApiDocument (module cycle: nothing runs at import).

type Security = { [name: string]: string[] }[];

export function registerListingSites(registry: OpenAPIRegistry, security: Security): void {
  const json = <S extends z.ZodType>(schema: S) => ({ "application/json": { schema } });
  const ok = <S extends z.ZodType>(description: string, schema: S, headers: Record<string, ReturnType<typeof header>> = {}) => ({
    description,
    headers: { ...COMMON_HEADERS, ...headers },
    content: json(schema),
  });
  const notFound = errorResponse(404, ["not_found"], {}, "No listing site with this id.");
  const otherOrg = errorResponse(403, ["forbidden"], {}, "The key lacks `listings:manage`, or the listing site belongs to another organisation.");
  const invalidPath = errorResponse(400, ["invalid_path"]);
  const manage = { tags: ["listing-sites"], security };

  registry.registerPath({
    method: "get",
    path: "/listing-sites",
    operationId: "listListingSites",
    summary: "List your organisation's listing sites",
    description: "Your organisation's accounts on listing sites (scope `listings:manage`), each with its last upload; a platform caller sees every organisation's. Passwords are never shown.",
    ...manage,
    responses: { 200: ok("The accounts, oldest first.", listingSitesSchema), ...commonErrors() },
  });

  registry.registerPath({
    method: "post",
    path: "/listing-sites",
    operationId: "createListingSite",
    summary: "Add a listing site account",
    description: `Your account on Petfinder, Adopt-a-Pet or RescueGroups. From now on, a change to a listed animal (available with \`listOnOtherSites\`; Petfinder also gets pending ones as H, hold) sends the site a full file after a quiet period (60 s by default; changes within it join one upload), and every site gets a full upload at 03:00 UTC daily. \`host\` defaults to the site's own FTP server and must resolve to public addresses. The password is stored encrypted and never shown again. At most ${LISTING_SITES_PER_ORGANIZATION} per organisation. Platform callers name \`organizationId\`.`,
    ...manage,
    request: { body: { required: true, content: json(newListingSiteSchema) } },
    responses: {
      201: ok("Added.", listingSiteSchema, { Location: header("URL of the new listing site.") }),
      400: errorResponse(400, ["invalid_json", "invalid_body", "invalid_listing_host", "unknown_organization"], {}, "The body is invalid (accountId is required for Petfinder and RescueGroups), or the host is not a public address."),
      409: errorResponse(409, ["listing_site_limit_reached"], {}, `The organisation already has ${LISTING_SITES_PER_ORGANIZATION} listing sites.`),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/listing-sites/test",
    operationId: "testListingSiteConnection",
    summary: "Test FTP credentials",
    description: "Connects, logs in and lists the account's root folder, storing nothing: how staff check credentials before saving them. A refused login is `ok: false` with the server's answer.",
    ...manage,
    request: { body: { required: true, content: json(connectionTestBodySchema) } },
    responses: {
      200: ok("The outcome.", connectionTestSchema),
      400: errorResponse(400, ["invalid_json", "invalid_body", "invalid_listing_host"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/listing-sites/{siteId}",
    operationId: "getListingSite",
    summary: "Get a listing site account",
    ...manage,
    request: { params: listingSiteIdParamsSchema },
    responses: { 200: ok("The account, with its last upload.", listingSiteSchema), 400: invalidPath, 403: otherOrg, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "patch",
    path: "/listing-sites/{siteId}",
    operationId: "updateListingSite",
    summary: "Change a listing site account",
    description: "Change its server, credentials or account id, or switch it off (`enabled: false`: no uploads until switched on; the site keeps what it last received).",
    ...manage,
    request: { params: listingSiteIdParamsSchema, body: { required: true, content: json(listingSitePatchSchema) } },
    responses: {
      200: ok("The account as changed.", listingSiteSchema),
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "invalid_listing_host"]),
      403: otherOrg,
      404: notFound,
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/listing-sites/{siteId}",
    operationId: "deleteListingSite",
    summary: "Remove a listing site account",
    description: "Removes it and its uploads log. The site keeps the animals it last received until you remove them there.",
    ...manage,
    request: { params: listingSiteIdParamsSchema },
    responses: { 204: { description: "Removed.", headers: COMMON_HEADERS }, 400: invalidPath, 403: otherOrg, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "get",
    path: "/listing-sites/{siteId}/uploads",
    operationId: "listListingUploads",
    summary: "List a listing site's uploads",
    description: `The last ${UPLOADS_LISTED} uploads, newest first: why, when, how many animals and photo files, the outcome, warnings (a breed the site does not know, sent as its mixed breed) and the error (the server's answer, such as "530 Login incorrect."). A failed upload is retried after 1, 5 and 15 minutes, except a refused login.`,
    ...manage,
    request: { params: listingSiteIdParamsSchema },
    responses: { 200: ok("Uploads, newest first.", listingUploadsSchema), 400: invalidPath, 403: otherOrg, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "post",
    path: "/listing-sites/{siteId}/uploads",
    operationId: "startListingUpload",
    summary: "Upload now",
    description: "Queues a full upload at once (after any upload of this site already running). Follow it with GET …/uploads: `outcome` is `running` until it ends.",
    ...manage,
    request: { params: listingSiteIdParamsSchema },
    responses: { 202: ok("Queued.", listingUploadSchema), 400: invalidPath, 403: otherOrg, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/listings/{file}",
    operationId: "getListingFeed",
    summary: "Pull an organisation's listing file",
    description:
      "For partners that fetch rather than receive: the file an upload to that site would send now, byte for byte (Petfinder's 39 columns with photo addresses, Adopt-a-Pet's pets.csv, RescueGroups' pets.csv). Strong `ETag`; send it back in `If-None-Match` for a 304 while nothing changed.",
    tags: ["organizations"],
    security,
    request: { params: listingFeedParamsSchema },
    responses: {
      200: { description: "The file (UTF-8 CSV).", headers: { ...COMMON_HEADERS, ETag: header("The file's hash.") }, content: { "text/csv": { schema: z.string() } } },
      304: { description: "Not changed since the ETag you sent.", headers: { ...COMMON_HEADERS, ETag: header("The file's hash.") } },
      400: invalidPath,
      404: errorResponse(404, ["not_found"], {}, "No such organisation."),
      ...commonErrors(),
    },
  });
}
