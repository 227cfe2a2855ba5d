import type { WriteContext } from "@/lib/audit/schemas";
import { ApiError, validationError } from "@/lib/http/errors";
import * as queries from "@/lib/imports/queries";
import { importFormSchema, type Import, type ImportCounts, type ImportIssue, type ImportPhotoCounts, type ImportPreviewRow, type ListImportsQuery } from "@/lib/imports/schemas";
import { ListingFileError, MAX_FILE_BYTES } from "@/lib/listings/formats/errors";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import { readListingFile } from "@/lib/listings/formats/read";
import { listingRowReader } from "@/lib/listings/formats/registry";
import type { ListingFormatName } from "@/lib/listings/sites";
import { organizationExists } from "@/lib/organizations/queries";
import { organizationForCreate, unknownOrganization, type Tenancy } from "@/lib/organizations/tenancy";
import { findCategories } from "@/lib/pets/queries";

// The rules of imports, on the request's side: the file is read whole once
// here, so a file that cannot be imported at all is refused at once (400
// invalid_file, 413 past the limits) and nothing is queued; the rows
// themselves are written by the background job (lib/imports/run.ts).

export const IMPORT_FORM_FIELDS = ["format", "dryRun", "missing", "mapping", "organizationId"] as const;

export function fileTooLarge(): ApiError {
  return new ApiError(413, "payload_too_large", `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; import it in parts.`);
}

function fileError(error: ListingFileError): ApiError {
  if (error.overLimit) return new ApiError(413, error.code === "too_large" ? "payload_too_large" : "too_many_rows", error.message);
  if (error.code === "invalid_mapping") return new ApiError(400, "invalid_mapping", error.message, [{ field: "mapping", issue: "is required for a generic CSV file" }]);
  return new ApiError(400, "invalid_file", error.message, [{ field: "file", issue: error.code }]);
}

export function presentImport(row: queries.ImportRow): Import {
  return {
    id: Number(row.id),
    organizationId: Number(row.organizationId),
    format: row.format as ListingFormatName,
    encoding: row.encoding,
    fileName: row.fileName,
    dryRun: row.dryRun,
    missing: row.missing as Import["missing"],
    mapping: (row.mapping as Record<string, unknown> | null) ?? null,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    counts: row.counts as unknown as ImportCounts,
    photos: row.photos as unknown as ImportPhotoCounts,
    errors: row.errors as unknown as ImportIssue[],
    preview: row.preview as unknown as ImportPreviewRow[],
  };
}

export interface ImportUpload {
  file: Buffer;
  fileName: string | null;
  fields: Record<string, string>;
}

/**
 * Checks the file (its format found, or checked against the one named; a
 * generic one's mapping given or remembered) and queues its import.
 */
export async function createImport(upload: ImportUpload, context: WriteContext & { tenancy: Tenancy }): Promise<Import> {
  const form = importFormSchema.safeParse(upload.fields);
  if (!form.success) throw validationError("invalid_body", form.error);
  const { format, dryRun, missing, organizationId: requested } = form.data;
  const organizationId = organizationForCreate(context.tenancy, requested, "import");
  if (context.tenancy.kind === "platform" && !(await organizationExists(organizationId))) throw unknownOrganization(organizationId);
  if (upload.file.length > MAX_FILE_BYTES) throw fileTooLarge();

  const categories = (await findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
  // The file read and its format found (and a generic file's mapping checked
  // against its header); its rows are read by the job, not here: a request
  // that spent half a second of CPU on 20,000 rows would delay the others.
  const parse = async (mapping: GenericMapping | undefined, named = format) => {
    try {
      const file = await readListingFile(upload.file, { format: named ?? (mapping ? "generic" : undefined) });
      listingRowReader(file, { categories, mapping });
      return { file, rows: file.records };
    } catch (error) {
      throw error instanceof ListingFileError ? fileError(error) : error;
    }
  };
  // Without a mapping, the file is first read as it is (a site's file is
  // found by its columns); only a generic file takes the organisation's
  // remembered mapping, which must not turn a site's file into a generic one.
  let mapping: GenericMapping | undefined = form.data.mapping;
  let parsed;
  if (mapping || (format && format !== "generic")) parsed = await parse(mapping);
  else {
    parsed = await parse(undefined).catch(async (error: unknown) => {
      // Not a site's file (or named generic): the remembered mapping, if there is one.
      const generic = error instanceof ApiError && (error.code === "invalid_mapping" || error.details?.[0]?.issue === "unknown_format");
      if (!generic) throw error;
      mapping = (await queries.lastMapping(organizationId)) ?? undefined;
      if (!mapping) throw error;
      return parse(mapping, "generic");
    });
  }
  const actor = context.actor;
  const row = await queries.insertImport({
    organizationId,
    format: parsed.file.format,
    encoding: parsed.file.encoding,
    fileName: upload.fileName,
    file: upload.file,
    dryRun,
    missing,
    mapping: parsed.file.format === "generic" ? (mapping ?? null) : null,
    rows: parsed.rows.length,
    actor: { kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null },
  });
  return presentImport(row);
}

const noSuchImport = (id: number) => new ApiError(404, "not_found", `There is no import with id ${id}.`);

/** One import, if it is `organizationId`'s (undefined: anyone's, for a platform caller). */
export async function getImport(id: number, organizationId: number | undefined): Promise<Import> {
  const row = await queries.findImport(id, organizationId);
  if (!row) throw noSuchImport(id);
  return presentImport(row);
}

export async function listImports(query: ListImportsQuery, organizationId: number | undefined): Promise<{ imports: Import[]; next: number | null }> {
  const rows = await queries.findImports(organizationId, query.before, query.limit + 1);
  const page = rows.slice(0, query.limit).map(presentImport);
  return { imports: page, next: rows.length > query.limit ? page.at(-1)!.id : null };
}

/** The organisation's last generic mapping (the staff page's starting point). */
export async function rememberedMapping(organizationId: number): Promise<GenericMapping | null> {
  return queries.lastMapping(organizationId);
}
