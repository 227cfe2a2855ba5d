import type { WriteContext } from "@/lib/audit/schemas";
import { now } from "@/lib/clock";
import { ApiError, notFound, validationError } from "@/lib/core/errors";
import { decodeCursor, encodeCursor, invalidCursorFor } from "@/lib/core/pagination";
import * as queries from "@/lib/imports/queries";
import {
  importFormSchema,
  REPORT_RETENTION_DAYS,
  type Import,
  type ImportCounts,
  type ImportIssue,
  type ImportPhotoCounts,
  type ImportPreviewRow,
  type ImportSummary,
  type ListImportIssuesQuery,
  type ListImportsQuery,
  type UnknownWords,
} from "@/lib/imports/schemas";
import { ListingFileError, MAX_FILE_BYTES } from "@/lib/listings/formats/errors";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import { inspectListingFile } from "@/lib/listings/formats/read";
import { historyColumns } from "@/lib/imports/history";
import type { Scope } from "@/lib/keys/schemas";
import { listingRowReader } from "@/lib/listings/formats/registry";
import type { ListingFormatName } from "@/lib/core/listing-sites";
import { organizationExists } from "@/lib/organizations/queries";
import { organizationForCreate, unknownOrganization, type Tenancy } from "@/lib/organizations/tenancy";
import { findCategories } from "@/lib/pets/queries/lookups";

// The rules of imports, on the request's side: the file's shape, format and
// size are checked here, so a file that cannot be imported at all is refused
// at once (400 invalid_file, 413 past the limits) and nothing is queued; the
// rows themselves are read and written by the background job
// (lib/imports/run.ts).

export const IMPORT_FORM_FIELDS = ["format", "dryRun", "missing", "mapping", "organizationId"] as const;

export function fileTooLarge(): ApiError {
  return new ApiError(413, "payload_too_large", `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; import it in parts.`);
}

function fileError(error: ListingFileError): ApiError {
  if (error.overLimit) return new ApiError(413, error.code === "too_large" ? "payload_too_large" : "too_many_rows", error.message);
  if (error.code === "invalid_mapping")
    return new ApiError(400, "invalid_mapping", error.message, [{ field: "mapping", issue: "is required for a generic CSV file" }]);
  return new ApiError(400, "invalid_file", error.message, [{ field: "file", issue: error.code }]);
}

/** When a finished import's report is deleted; null while it runs. */
function reportExpiry(finishedAt: Date | null): Date | null {
  return finishedAt && new Date(finishedAt.getTime() + REPORT_RETENTION_DAYS * 86_400_000);
}

/** The report is gone once its time is up, whether or not the sweep has deleted it yet. */
function reportGone(row: Pick<queries.ImportSummaryRow, "finishedAt" | "reportDeletedAt">): boolean {
  const expiry = reportExpiry(row.finishedAt);
  return row.reportDeletedAt !== null || (expiry !== null && expiry <= now());
}

export function presentSummary(row: queries.ImportSummaryRow): ImportSummary {
  const photos = row.photos as unknown as Partial<ImportPhotoCounts>;
  return {
    id: Number(row.id),
    organizationId: Number(row.organizationId),
    format: row.format as ListingFormatName,
    encoding: row.encoding,
    fileName: row.fileName,
    dryRun: row.dryRun,
    missing: row.missing as ImportSummary["missing"],
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    counts: row.counts as unknown as ImportCounts,
    // Imports from before `skipped` have none.
    photos: { ...queries.EMPTY_PHOTOS, ...photos },
    issues: reportGone(row) ? 0 : row.issueCount,
    reportExpiresAt: reportExpiry(row.finishedAt)?.toISOString() ?? null,
  };
}

export function presentImport(row: queries.ImportRow): Import {
  return {
    ...presentSummary(row),
    mapping: (row.mapping as Record<string, unknown> | null) ?? null,
    preview: reportGone(row) ? [] : (row.preview as unknown as ImportPreviewRow[]),
    unknownWords: reportGone(row) ? {} : (row.unknownWords as unknown as UnknownWords),
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
export async function createImport(upload: ImportUpload, context: WriteContext & { tenancy: Tenancy; scopes: readonly Scope[] }): Promise<Import> {
  const form = importFormSchema.safeParse(upload.fields);
  if (!form.success) throw validationError("invalid_body", form.error);
  const { format, dryRun, missing, organizationId: requested } = form.data;
  mayWriteStays(form.data.mapping, context.scopes);
  const organizationId = organizationForCreate(context.tenancy, requested, "import");
  if (context.tenancy.kind === "platform" && !(await organizationExists(organizationId))) throw unknownOrganization(organizationId);
  if (upload.file.length > MAX_FILE_BYTES) throw fileTooLarge();

  const categories = (await findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
  // The file's shape checked in one pass, its format found from its first
  // record (and a generic file's mapping checked against its header), its
  // rows counted: what the answer needs. The rows are parsed by the job
  // alone: a request that spent half a second of CPU on 20,000 rows would
  // delay the others, and then the job would do it again.
  const parse = async (mapping: GenericMapping | undefined, named = format) => {
    try {
      const file = await inspectListingFile(upload.file, { format: named ?? (mapping ? "generic" : undefined) });
      listingRowReader(file, { categories, mapping });
      return { file, rows: file.rows };
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
  // A remembered mapping may be a history's too.
  mayWriteStays(mapping, context.scopes);
  const actor = context.actor;
  const inserted = await queries.insertImport({
    organizationId,
    format: parsed.file.format,
    encoding: parsed.file.encoding,
    fileName: upload.fileName,
    file: upload.file,
    dryRun,
    missing,
    mapping: parsed.file.format === "generic" ? (mapping ?? null) : null,
    rows: parsed.rows,
    actor: { kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null },
  });
  if ("active" in inserted) throw importInProgress(inserted.active);
  return presentImport(inserted.created);
}

/**
 * A history (a mapping with stay columns) records intakes and outcomes,
 * euthanasia among them, rewrites recorded ones and takes animals out of
 * care: writing stays needs records:write, as POST /v1/pets/{id}/stays does,
 * for its dry run too (the plan of that write). Refused before any work.
 */
function mayWriteStays(mapping: GenericMapping | undefined, scopes: readonly Scope[]): void {
  if (!historyColumns(mapping) || scopes.includes("records:write")) return;
  throw new ApiError(
    403,
    "forbidden",
    'A history import (a mapping with stay columns) records the animals\' stays, which needs the "records:write" scope; this caller lacks it. Import the file without its stay columns, or with a key that holds the scope.',
  );
}

/**
 * One import (dry runs too) of an organisation at a time: each holds its
 * file and a share of the job worker until it has run, so a second one
 * waits for the first, in the client, rather than in the queue.
 */
function importInProgress(active: { id: number; status: string }): ApiError {
  return new ApiError(
    409,
    "import_in_progress",
    `Import ${active.id} of this organisation is still ${active.status}, and an organisation runs one import (or dry run) at a time. Send the file again when it has finished (GET /v1/imports/${active.id}).`,
    [{ field: "file", issue: `waits for import ${active.id}` }],
    { "Retry-After": "5" },
  );
}

/** One import, if it is `organizationId`'s (undefined: anyone's, for a platform caller). */
export async function getImport(id: number, organizationId: number | undefined): Promise<Import> {
  const row = await queries.findImport(id, organizationId);
  if (!row) throw notFound("import", id);
  return presentImport(row);
}

export async function listImports(query: ListImportsQuery, organizationId: number | undefined): Promise<{ imports: ImportSummary[]; next: number | null }> {
  const rows = await queries.findImports(organizationId, query.before, query.limit + 1);
  const page = rows.slice(0, query.limit).map(presentSummary);
  return { imports: page, next: rows.length > query.limit ? page.at(-1)!.id : null };
}

/**
 * A page of an import's report, in the order the job found its entries.
 * 410 once the report is deleted (REPORT_RETENTION_DAYS after the import
 * finished); the import itself stays.
 */
export async function listImportIssues(
  id: number,
  organizationId: number | undefined,
  query: ListImportIssuesQuery,
  /** records:read: the entries name the recorded stays' dates and outcomes they conflict with; without it, only that they do (issue 48). */
  readsRecords: boolean,
): Promise<{ issues: ImportIssue[]; next?: string }> {
  const row = await queries.findImport(id, organizationId);
  if (!row) throw notFound("import", id);
  if (reportGone(row)) {
    throw new ApiError(
      410,
      "gone",
      `The report of import ${id} was deleted ${REPORT_RETENTION_DAYS} days after the import finished; its counts are still at GET /v1/imports/${id}.`,
    );
  }
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && cursor.d !== "after") throw invalidCursorFor("another list");
  const rows = await queries.findIssues(id, cursor?.id, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    issues: page.map(({ line, field, message, recordsMessage, result }) => ({ line, field, message: (readsRecords && recordsMessage) || message, result })),
    ...(rows.length > query.limit && last ? { next: encodeCursor({ d: "after", id: Number(last.id) }) } : {}),
  };
}

/** Deletes the reports whose time is up (the imports stay listed, with their counts). */
export async function sweepImportReports(at: Date = now()): Promise<number> {
  return queries.deleteReportsBefore(new Date(at.getTime() - REPORT_RETENTION_DAYS * 86_400_000));
}

/** The organisation's last generic mapping (the staff page's starting point). */
export async function rememberedMapping(organizationId: number): Promise<GenericMapping | null> {
  return queries.lastMapping(organizationId);
}
