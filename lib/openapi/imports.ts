import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import {
  importIdParamsSchema,
  importIssuesSchema,
  importSchema,
  importsSchema,
  importUploadSchema,
  ISSUES_PAGE_MAX,
  listImportIssuesQuerySchema,
  listImportsQuerySchema,
  PHOTO_FETCH_ALLOWANCE,
  REPORT_RETENTION_DAYS,
} from "@/lib/imports/schemas";
import { MAX_CELL_BYTES, MAX_FILE_BYTES, MAX_FILE_COLUMNS, MAX_FILE_ROWS } from "@/lib/listings/formats/errors";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { STAYS_PER_ANIMAL_MAX } from "@/lib/stays/schemas";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";

// Imports in the contract: a shelter's listing file (Petfinder, Adopt-a-Pet,
// RescueGroups, or any CSV with a mapping) sent once, run in the background,
// and read back while it runs; its report a page at a time.

const LIMITS = `At most ${MAX_FILE_BYTES / 1024 / 1024} MB, ${MAX_FILE_ROWS.toLocaleString("en-US")} rows, ${MAX_FILE_COLUMNS} values a row and ${MAX_CELL_BYTES / 1024} KB a value.`;

export function registerImports(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  const json = { "application/json": { schema: importSchema } };
  registry.registerPath({
    method: "post",
    path: "/imports",
    operationId: "createImport",
    summary: "Import a listing file of animals",
    description: `Send the file as the \`file\` field of a \`multipart/form-data\` form. The file's shape, format (found from its columns unless \`format\` says; UTF-8 with or without BOM, or Windows-1252) and rows are checked at once, and its rows are then imported in the background: poll the \`Location\` until \`status\` is \`done\`. Each row is matched to the organisation's animals by \`externalId\` (the file's ID column): new ones are created, known ones changed only where the file differs (the same file twice changes nothing), every change with its audit record, change-feed event and webhooks. A row without a name, or whose species has no category, is rejected with its line and the reason; the others still import. Photos named by URL are fetched afterwards (public addresses only; at most 15 MB, 10 s and 3 redirects each; at most the ${PHOTOS_MAX} photos an animal holds, ${PHOTO_FETCH_ALLOWANCE.perImport.toLocaleString("en-US")} per import and ${PHOTO_FETCH_ALLOWANCE.perDay.toLocaleString("en-US")} per organisation a day); one that fails is counted and listed, and its animal is imported anyway. \`dryRun\` reports what the import would do and changes nothing. \`mapping\` (an \`ImportMapping\` sent as a text field of JSON, as the \`encoding\` says) tells which columns of a generic CSV hold which fields; left out, the organisation's last one is used. The import's \`mapping\` is the one used (null for a site's format). An organisation runs one import (or dry run) at a time: another sent meanwhile is \`409 import_in_progress\`. A history (a mapping with stay columns) records the animals' stays: it needs \`records:write\` besides \`pets:write\`, for a dry run too (\`403 forbidden\` naming the scope, before anything is read); each known animal's stays, care and profile change as one change of the animal (one version, audit record and event), planned again under its lock, and an animal keeps at most ${STAYS_PER_ANIMAL_MAX} stays (the file's oldest new ones past them are refused, each in the report). ${LIMITS}`,
    tags: ["imports"],
    security,
    request: {
      body: {
        required: true,
        // The mapping is an object sent as one text field of JSON: `encoding` tells generators to serialise it so.
        content: {
          "multipart/form-data": {
            schema: importUploadSchema,
            encoding: { mapping: { contentType: "application/json" }, file: { contentType: "text/csv, application/octet-stream" } },
          },
        },
      },
    },
    responses: {
      202: { description: "The import, queued.", headers: { ...COMMON_HEADERS, Location: header("URL of the import: poll it.") }, content: json },
      400: errorResponse(
        400,
        ["invalid_body", "invalid_file", "invalid_mapping", "unknown_organization"],
        {},
        `The form is invalid, the file cannot be read as a listing file (\`invalid_file\`, naming what was seen; \`details[0].issue\` is \`too_many_columns\` past ${MAX_FILE_COLUMNS} values in a row, \`cell_too_long\` past ${MAX_CELL_BYTES / 1024} KB in a value), or a generic file has no mapping (\`invalid_mapping\`).`,
      ),
      409: errorResponse(
        409,
        ["import_in_progress"],
        {},
        "Another import of the organisation (a dry run too) is queued or running; the message names it. Send the file again when it has finished.",
      ),
      413: errorResponse(
        413,
        ["payload_too_large", "too_many_rows"],
        {},
        `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB, or has more than ${MAX_FILE_ROWS.toLocaleString("en-US")} rows.`,
      ),
      ...commonErrors(),
      403: errorResponse(403, ["forbidden"], {}, "The caller lacks `pets:write`, or a history's `records:write` (the message names the scope)."),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/imports",
    operationId: "listImports",
    summary: "The organisation's imports, newest first",
    description:
      "Each with its status and counts (its report is paged apart: `GET /imports/{importId}/issues`). `X-Next-Before` names the id to pass as `before` for the next page. A platform caller sees every organisation's.",
    tags: ["imports"],
    security,
    request: { query: listImportsQuerySchema },
    responses: {
      200: {
        description: "A page of imports.",
        headers: { ...COMMON_HEADERS, "X-Next-Before": header("`before` for the next page, when there is one.") },
        content: { "application/json": { schema: importsSchema } },
      },
      400: errorResponse(400, ["invalid_query"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/imports/{importId}",
    operationId: "getImport",
    summary: "One import: its status, counts, mapping and preview",
    tags: ["imports"],
    security,
    request: { params: importIdParamsSchema },
    responses: {
      200: { description: "The import.", headers: COMMON_HEADERS, content: json },
      400: errorResponse(400, ["invalid_path"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/imports/{importId}/issues",
    operationId: "listImportIssues",
    summary: "An import's report: its rejected rows and the photos not stored, a page at a time",
    description: `In the order the job found them (by line, then the photos). Page with \`limit\` (1 to ${ISSUES_PAGE_MAX}, default 100) and the opaque \`cursor\` from the \`Link\` header (\`rel="next"\` while there are more). Each message quotes at most the first 40 characters of a value. An entry about a stay recorded here (a history's row that overlaps it, an outcome kept) names that stay's dates and outcome only to a caller with \`records:read\`; others read that there is a conflict, without them. Read it while the import runs: entries are added as it goes. The report is kept ${REPORT_RETENTION_DAYS} days after the import finished (\`reportExpiresAt\`), then deleted: 410.`,
    tags: ["imports"],
    security,
    request: { params: importIdParamsSchema, query: listImportIssuesQuerySchema },
    responses: {
      200: {
        description: "A page of the report.",
        headers: { ...COMMON_HEADERS, Link: header('RFC 8288 link to the next page: `<…?cursor=…>; rel="next"`.') },
        content: { "application/json": { schema: importIssuesSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_cursor"]),
      404: errorResponse(404, ["not_found"]),
      410: errorResponse(
        410,
        ["gone"],
        {},
        `The report was deleted (${REPORT_RETENTION_DAYS} days after the import finished); the import and its counts remain.`,
      ),
      ...commonErrors(),
    },
  });
}
