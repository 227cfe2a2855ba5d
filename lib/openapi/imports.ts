import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { importIdParamsSchema, importSchema, importsSchema, importUploadSchema, listImportsQuerySchema } from "@/lib/imports/schemas";
import { MAX_FILE_BYTES, MAX_FILE_ROWS } from "@/lib/listings/formats/errors";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/document";

// Imports in the contract: a shelter's listing file (Petfinder, Adopt-a-Pet,
// RescueGroups, or any CSV with a mapping) sent once, run in the background,
// and read back while it runs.

export function registerImports(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  const json = { "application/json": { schema: importSchema } };
  registry.registerPath({
    method: "post",
    path: "/imports",
    operationId: "createImport",
    summary: "Import a listing file of animals",
    description: `Send the file as the \`file\` field of a \`multipart/form-data\` form. The file is read at once (its format found from its columns unless \`format\` says; UTF-8 with or without BOM, or Windows-1252), and its rows are then imported in the background: poll the \`Location\` until \`status\` is \`done\`. Each row is matched to the organisation's animals by \`externalId\` (the file's ID column): new ones are created, known ones changed only where the file differs (the same file twice changes nothing), every change with its audit record, change-feed event and webhooks. A row without a name, or whose species has no category, is rejected with its line and the reason; the others still import. Photos named by URL are fetched afterwards (public addresses only; at most 15 MB, 10 s and 3 redirects each); one that fails is counted and listed, and its animal is imported anyway. \`dryRun\` reports what the import would do and changes nothing. At most ${MAX_FILE_BYTES / 1024 / 1024} MB and ${MAX_FILE_ROWS.toLocaleString("en-US")} rows.`,
    tags: ["imports"],
    security,
    request: { body: { required: true, content: { "multipart/form-data": { schema: importUploadSchema } } } },
    responses: {
      202: { description: "The import, queued.", headers: { ...COMMON_HEADERS, Location: header("URL of the import: poll it.") }, content: json },
      400: errorResponse(400, ["invalid_body", "invalid_file", "invalid_mapping", "unknown_organization"], {}, "The form is invalid, the file cannot be read as a listing file (`invalid_file`, naming what was seen), or a generic file has no mapping (`invalid_mapping`)."),
      413: errorResponse(413, ["payload_too_large", "too_many_rows"], {}, `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB, or has more than ${MAX_FILE_ROWS.toLocaleString("en-US")} rows.`),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/imports",
    operationId: "listImports",
    summary: "The organisation's imports, newest first",
    description: "`X-Next-Before` names the id to pass as `before` for the next page. A platform caller sees every organisation's.",
    tags: ["imports"],
    security,
    request: { query: listImportsQuerySchema },
    responses: {
      200: { description: "A page of imports.", headers: { ...COMMON_HEADERS, "X-Next-Before": header("`before` for the next page, when there is one.") }, content: { "application/json": { schema: importsSchema } } },
      400: errorResponse(400, ["invalid_query"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/imports/{importId}",
    operationId: "getImport",
    summary: "One import: its status, counts, rejected rows and preview",
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
}
