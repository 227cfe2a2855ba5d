import { writeContext } from "@/lib/http/actor";
import { readFormUpload } from "@/lib/http/form-upload";
import { otherMethods, withApi } from "@/lib/http/handler";
import { listImportsQuerySchema } from "@/lib/imports/schemas";
import { createImport, fileTooLarge, IMPORT_FORM_FIELDS, listImports } from "@/lib/imports/service";
import { MAX_FILE_BYTES } from "@/lib/listings/formats/errors";
import { organizationScope } from "@/lib/organizations/tenancy";

// GET /v1/imports - the organisation's imports, newest first
export const GET = withApi({ scope: "pets:write", tenant: "caller", query: listImportsQuerySchema }, async ({ query, caller }) => {
  const { imports, next } = await listImports(query, organizationScope(caller.tenancy));
  return { body: imports, headers: { "Cache-Control": "no-store", ...(next ? { "X-Next-Before": String(next) } : {}) } };
});

// POST /v1/imports - import a listing file (multipart: file, format, dryRun, missing, mapping, organizationId); runs in the background (a history, with stay columns: records:write too)
export const POST = withApi({ scope: "pets:write", tenant: "caller" }, async ({ request, caller, requestId, url }) => {
  const upload = await readFormUpload(request, { maxFileBytes: MAX_FILE_BYTES, tooLarge: fileTooLarge, fields: IMPORT_FORM_FIELDS });
  const created = await createImport(upload, { ...writeContext(caller, requestId), scopes: caller.scopes });
  return { status: 202, body: created, headers: { Location: new URL(`${url.pathname}/${created.id}`, url).toString(), "Cache-Control": "no-store" } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
