import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import {
  CONNECTION_TEST_BUDGETS,
  LISTING_SITES_PER_ORGANIZATION,
  SITE_FTP_PORT,
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
    description:
      "Your organisation's accounts on listing sites (scope `listings:manage`), each with its last upload; a platform caller sees every organisation's. Passwords are never shown.",
    ...manage,
    responses: { 200: ok("The accounts, oldest first.", listingSitesSchema), ...commonErrors() },
  });

  registry.registerPath({
    method: "post",
    path: "/listing-sites",
    operationId: "createListingSite",
    summary: "Add a listing site account",
    description: `Your account on Petfinder, Adopt-a-Pet or RescueGroups. From now on, a change to a listed animal (available with \`listOnOtherSites\`; Petfinder also gets pending ones as H, hold) sends the site a full file after a quiet period (60 s by default; changes within it join one upload), and every site gets a full upload at 03:00 UTC daily. \`host\` defaults to the site's own FTP server and must resolve to public addresses; the sites' own servers are reached on port ${SITE_FTP_PORT} only. The password is stored encrypted and never shown again. At most ${LISTING_SITES_PER_ORGANIZATION} per organisation. Platform callers name \`organizationId\`. Recorded in the organisation's listing-site history (who, which fields; never the password).`,
    ...manage,
    request: { body: { required: true, content: json(newListingSiteSchema) } },
    responses: {
      201: ok("Added.", listingSiteSchema, { Location: header("URL of the new listing site.") }),
      400: errorResponse(
        400,
        ["invalid_json", "invalid_body", "invalid_listing_host", "unknown_organization"],
        {},
        `The body is invalid (accountId is required for Petfinder and RescueGroups; a site's own server on another port than ${SITE_FTP_PORT}), or the host is not a public address.`,
      ),
      409: errorResponse(409, ["listing_site_limit_reached"], {}, `The organisation already has ${LISTING_SITES_PER_ORGANIZATION} listing sites.`),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/listing-sites/test",
    operationId: "testListingSiteConnection",
    summary: "Test FTP credentials",
    description: `Connects, logs in and lists the account's root folder, storing nothing: how staff check credentials before saving them. A failure is \`ok: false\` with why in our words (\"Login refused: check the user name and password.\", \"Connection refused.\"), never the server's own text. The sites' own servers are reached on port ${SITE_FTP_PORT} only. Budgeted, each test counted before it connects: ${CONNECTION_TEST_BUDGETS.organization.perHour} an hour per organisation, and ${CONNECTION_TEST_BUDGETS.account.perHour} an hour and ${CONNECTION_TEST_BUDGETS.account.perDay} a day per account tried (host and user name, whoever tries it); over either, \`429 rate_limited\` with \`Retry-After\`. Saving a site needs no test.`,
    ...manage,
    request: { body: { required: true, content: json(connectionTestBodySchema) } },
    responses: {
      200: ok("The outcome.", connectionTestSchema),
      400: errorResponse(
        400,
        ["invalid_json", "invalid_body", "invalid_listing_host"],
        {},
        `The body is invalid (a site's own server on another port than ${SITE_FTP_PORT}), or the host is not a public address.`,
      ),
      ...commonErrors(),
      429: errorResponse(
        429,
        ["rate_limited", "key_temporarily_banned"],
        {},
        "The organisation's or the account's connection tests are used up (or the key's rate limit): wait `Retry-After` seconds.",
      ),
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
    description:
      "Change its server, credentials or account id, or switch it off (`enabled: false`: no uploads until switched on; the site keeps what it last received). A change of `host`, `port`, `secure` or `username` needs `password` in the same request: the stored password is never sent to another server or account (`400 password_required`, nothing changed). Recorded in the organisation's listing-site history (who, which fields with their values before and after; never the password).",
    ...manage,
    request: { params: listingSiteIdParamsSchema, body: { required: true, content: json(listingSitePatchSchema) } },
    responses: {
      200: ok("The account as changed.", listingSiteSchema),
      400: errorResponse(
        400,
        ["invalid_path", "invalid_json", "invalid_body", "invalid_listing_host", "password_required"],
        {},
        "The request is invalid, the host is not a public address, or `host`, `port`, `secure` or `username` changes without `password` (`password_required`).",
      ),
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
    description:
      "Removes it and its uploads log (its listing-site history stays, with the removal). The site keeps the animals it last received until you remove them there.",
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
    description:
      "Queues a full upload at once (after any upload of this site already running). Follow it with GET …/uploads: `outcome` is `running` until it ends. One at a time: while an upload asked for this way still waits to run, another is `409 upload_already_queued`. A whole upload is stopped after `LISTINGS_UPLOAD_TIMEOUT_SECONDS` (10 minutes unless the operator says otherwise), failed and retried like any failure.",
    ...manage,
    request: { params: listingSiteIdParamsSchema },
    responses: {
      202: ok("Queued.", listingUploadSchema),
      400: invalidPath,
      403: otherOrg,
      404: notFound,
      409: errorResponse(409, ["upload_already_queued"], {}, "An upload of this site asked for by hand is already waiting to run."),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/listings/{file}",
    operationId: "getListingFeed",
    summary: "Pull an organisation's listing file",
    description:
      "For partners that fetch rather than receive: the file an upload to that site would send now, byte for byte (Petfinder's 39 columns with photo addresses, Adopt-a-Pet's pets.csv, RescueGroups' pets.csv), as a download (`Content-Disposition: attachment`). Strong `ETag`; send it back in `If-None-Match` for a 304 while nothing changed. Never older than the organisation's animals: a change to any of them is in the next answer.",
    tags: ["organizations"],
    security,
    request: { params: listingFeedParamsSchema },
    responses: {
      200: {
        description: "The file (UTF-8 CSV).",
        headers: {
          ...COMMON_HEADERS,
          ETag: header("The file's hash."),
          "Content-Disposition": header('`attachment; filename="petfinder.csv"` (the file asked for).'),
          "X-Content-Type-Options": header("`nosniff`: a browser saves the file, never renders it."),
        },
        content: { "text/csv": { schema: z.string() } },
      },
      304: { description: "Not changed since the ETag you sent.", headers: { ...COMMON_HEADERS, ETag: header("The file's hash.") } },
      400: invalidPath,
      404: errorResponse(404, ["not_found"], {}, "No such organisation."),
      ...commonErrors(),
    },
  });
}
