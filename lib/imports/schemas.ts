import { z } from "zod";
import { genericMappingSchema } from "@/lib/listings/formats/generic";
import { LISTING_FORMATS } from "@/lib/core/listing-sites";
import { idSchema, queryInteger } from "@/lib/core/schemas";

// The import's shapes: what POST /v1/imports takes (multipart fields beside
// the file), and the import resource GET /v1/imports{,/id} answer with.

export const IMPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const MISSING_POLICIES = ["keep", "adopted"] as const;
export type MissingPolicy = (typeof MISSING_POLICIES)[number];

export const importFormatSchema = z.enum(LISTING_FORMATS).meta({
  id: "ImportFormat",
  description: "The file's format: Petfinder's FTP import file, Adopt-a-Pet's pets.csv, RescueGroups' pets.csv, or any CSV with a header row and a `mapping`.",
});

const booleanField = z.enum(["true", "false", "1", "0"], { error: () => "must be true or false" }).transform((v) => v === "true" || v === "1");

/** The multipart form's fields besides `file` (all text, as a form sends them). */
export const importFormSchema = z.strictObject(
  {
    format: importFormatSchema.optional(),
    dryRun: booleanField.default(false),
    missing: z.enum(MISSING_POLICIES, { error: () => "must be keep or adopted" }).default("keep"),
    mapping: z
      .string()
      .max(20_000, "is too long")
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: "must be a JSON object (our field -> their column)" });
          return z.NEVER;
        }
      })
      .pipe(genericMappingSchema)
      .optional(),
    organizationId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  },
  {
    error: (issue) => (issue.code === "unrecognized_keys" ? "is not a field of an import (file, format, dryRun, missing, mapping, organizationId)" : undefined),
  },
);
export type ImportForm = z.infer<typeof importFormSchema>;

/** The request body as OpenAPI describes it (multipart/form-data). */
export const importUploadSchema = z
  .object({
    file: z
      .string()
      .meta({ format: "binary", description: "The listing file (CSV), at most 10 MB and 20,000 rows; UTF-8 (with or without BOM) or Windows-1252." }),
    format: importFormatSchema.optional().meta({ description: "Found from the file when left out (a file with a mapping is generic)." }),
    dryRun: z.boolean().optional().meta({ description: "Report what the import would do, and change nothing. Default false." }),
    missing: z
      .enum(MISSING_POLICIES)
      .optional()
      .meta({ description: "`adopted`: the organisation's available animals (with an externalId) absent from the file are marked sold. Default `keep`." }),
    // Sent as a text field holding JSON; the operation's `encoding` says so (lib/openapi/imports.ts).
    // No .meta() here: a description on the wrapper would make the generator copy the schema inline
    // instead of referencing ImportMapping (the operation's description says what the field is for).
    mapping: genericMappingSchema.optional(),
    organizationId: idSchema
      .optional()
      .meta({ description: "The organisation the animals are for: required for platform callers; an organisation's own callers may leave it out." }),
  })
  .meta({ id: "ImportUpload" });

export const importCountsSchema = z
  .object({
    rows: z.number().int().meta({ description: "Rows in the file (animals)." }),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    rejected: z.number().int(),
    adopted: z.number().int().meta({ description: "Animals absent from the file marked sold (`missing=adopted`)." }),
  })
  .meta({ id: "ImportCounts" });
export type ImportCounts = z.infer<typeof importCountsSchema>;

export const importPhotoCountsSchema = z
  .object({
    queued: z.number().int().meta({ description: "Photo addresses to fetch (those fetched before for the same animal are not)." }),
    stored: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int().meta({
      description:
        "Photo addresses not fetched: past the 10 photos an animal holds, or past the fetches an import (or an organisation, in a day) may make. Each is in the report.",
    }),
  })
  .meta({ id: "ImportPhotoCounts" });
export type ImportPhotoCounts = z.infer<typeof importPhotoCountsSchema>;

export const ISSUE_RESULTS = ["refused", "importedWithWarning"] as const;
export type IssueResult = (typeof ISSUE_RESULTS)[number];

export const importIssueSchema = z
  .object({
    line: z.number().int().meta({ description: "The file's line the row starts on (1 is the first line); 0 for the import as a whole." }),
    field: z.string().nullable().meta({ description: "The file's column, when the problem is one cell's; `photo` for a photo not stored." }),
    message: z.string().meta({ description: "What is wrong, quoting at most the first 40 characters of a value." }),
    result: z.enum(ISSUE_RESULTS).meta({
      description:
        "What became of the row: `refused` (not imported; for line 0, the import as a whole or an animal it could not change), or `importedWithWarning` (its animal or stay was imported, and something was read loosely or left out: a nameless animal named by its ID, a photo not stored).",
    }),
  })
  .meta({
    id: "ImportIssue",
    description: "One entry of an import's report: a refused row, or a row imported with a warning (a photo not stored among them).",
  });
export type ImportIssue = z.infer<typeof importIssueSchema>;

/**
 * A report entry as the job keeps it: `withRecords` is its message for a
 * reader who may read the animal's records (records:read: the dates and
 * outcomes of stays recorded here); every other reader gets `message`, which
 * says what conflicts without them (issue 48).
 */
export type ReportEntry = ImportIssue & { withRecords?: string };

export const IMPORT_ACTIONS = ["create", "update", "unchanged", "reject"] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

export const importPreviewRowSchema = z
  .object({
    line: z.number().int(),
    action: z.enum(IMPORT_ACTIONS),
    externalId: z.string().nullable(),
    name: z.string().nullable(),
    species: z.string().nullable(),
    petId: z.number().int().nullable().meta({ description: "The animal it matched (or became); null for a new one in a dry run." }),
    fields: z.record(z.string(), z.unknown()).meta({ description: "The fields as they would be saved (for an update: those that change)." }),
  })
  .meta({ id: "ImportPreviewRow" });
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

/**
 * Photo addresses an import fetches: at most this many per import, and per
 * organisation in any 24 hours (those stored are never fetched again, so a
 * shelter moving in with more photos imports the same file again later).
 */
export const PHOTO_FETCH_ALLOWANCE = { perImport: 2_000, perDay: 5_000 };

/** How long an import's report (issues and preview) is kept after the import finished. */
export const REPORT_RETENTION_DAYS = 90;

export const importSummarySchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    format: importFormatSchema,
    encoding: z.string().meta({ description: "How the file was read: utf-8, utf-8-bom or windows-1252." }),
    fileName: z.string().nullable(),
    dryRun: z.boolean(),
    missing: z.enum(MISSING_POLICIES),
    status: z.enum(IMPORT_STATUSES).meta({ description: "queued, then running (rows, then photos), then done or failed." }),
    createdAt: z.string().meta({ format: "date-time" }),
    startedAt: z.string().nullable().meta({ format: "date-time" }),
    finishedAt: z.string().nullable().meta({ format: "date-time" }),
    counts: importCountsSchema,
    photos: importPhotoCountsSchema,
    issues: z.number().int().meta({
      description: "Entries in the report (refused rows, rows imported with a warning, photos not stored): read them from GET /imports/{importId}/issues.",
    }),
    reportExpiresAt: z
      .string()
      .nullable()
      .meta({
        format: "date-time",
        description: `When the report (issues and preview) is deleted: ${REPORT_RETENTION_DAYS} days after the import finished; null until it has. The import itself stays listed.`,
      }),
  })
  .meta({ id: "ImportSummary", description: "An import as the list shows it: what it was asked to do, where it is, and its counts." });
export type ImportSummary = z.infer<typeof importSummarySchema>;

/** Words listed per field in an import's unknownWords, the most frequent first (a free-text column mapped by mistake would have thousands). */
export const UNKNOWN_WORDS_MAX = 200;

export const unknownWordsSchema = z.record(z.string(), z.array(z.object({ word: z.string(), count: z.number().int() }))).meta({
  id: "ImportUnknownWords",
  description: `The report's summary of the words that refused rows: for each field with a closed vocabulary (species, sex, size, coatLength, status, ageGroup, intakeType, outcomeType, the yes/no fields), each word of the file that is neither ours nor in the mapping's \`values\`, with how many rows have it, the most frequent first (at most ${UNKNOWN_WORDS_MAX} a field). Add them to \`values\` and send the file again: a dry run shows this first.`,
  example: { intakeType: [{ word: "WELFARE SEIZED", count: 108 }], outcomeType: [{ word: "HOMEFIRST", count: 803 }] },
});
export type UnknownWords = z.infer<typeof unknownWordsSchema>;

export const importSchema = importSummarySchema
  .extend({
    // The generic file's mapping; null for a site's format. A union, not .nullable() nor .meta(): either
    // would make the generator copy ImportMapping or state it as an object that is also null.
    mapping: z.union([genericMappingSchema, z.null()]),
    unknownWords: unknownWordsSchema,
    preview: z.array(importPreviewRowSchema).meta({ description: "The first 20 rows as they are (or would be) saved; empty once the report is deleted." }),
  })
  .meta({
    id: "Import",
    description:
      "A listing file's import: what it was asked to do, and what it did (or, for a dry run, would do). Its report is paged apart: GET /imports/{importId}/issues.",
  });
export type Import = z.infer<typeof importSchema>;

export const importsSchema = z.array(importSummarySchema).meta({ id: "ImportSummaries" });

export const importIssuesSchema = z.array(importIssueSchema).meta({ id: "ImportIssues" });

export const importIdParamsSchema = z.object({
  importId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the import.", example: 1 }),
});

export const ISSUES_PAGE_MAX = 500;

export const listImportIssuesQuerySchema = z.object({
  limit: queryInteger(1, ISSUES_PAGE_MAX, "int32")
    .default(100)
    .meta({ default: 100, description: `Entries per page (1 to ${ISSUES_PAGE_MAX}).`, example: 100 }),
  cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header." }),
});
export type ListImportIssuesQuery = z.infer<typeof listImportIssuesQuerySchema>;

export const listImportsQuerySchema = z.object({
  before: queryInteger(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: "Imports older than this id (the previous answer's X-Next-Before)." }),
  limit: queryInteger(1, 100).default(20),
});
export type ListImportsQuery = z.infer<typeof listImportsQuerySchema>;
