import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { longWorkQueue, QUEUE_SCHEMA } from "@/lib/jobs/queue";
import type { ImportCounts, ImportIssue, ImportPhotoCounts, ImportPreviewRow, ImportStatus, MissingPolicy } from "@/lib/imports/schemas";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import type { ListingFormatName } from "@/lib/listings/sites";

// Data access for imports: the row per file, its job, and its progress.

export const IMPORT_SELECT = {
  id: true,
  organizationId: true,
  format: true,
  encoding: true,
  fileName: true,
  dryRun: true,
  missing: true,
  mapping: true,
  status: true,
  counts: true,
  photos: true,
  errors: true,
  preview: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

export type ImportRow = Prisma.ImportGetPayload<{ select: typeof IMPORT_SELECT }>;

export interface NewImportRow {
  organizationId: number;
  format: ListingFormatName;
  encoding: string;
  fileName: string | null;
  file: Buffer;
  dryRun: boolean;
  missing: MissingPolicy;
  mapping: GenericMapping | null;
  rows: number;
  actor: { kind: "api_key" | "staff"; id: number; name: string | null };
}

export const EMPTY_PHOTOS: ImportPhotoCounts = { queued: 0, stored: 0, failed: 0 };

export function emptyCounts(rows: number): ImportCounts {
  return { rows, created: 0, updated: 0, unchanged: 0, rejected: 0, adopted: 0 };
}

/** The import's row and its job, committed together: a queued import always has a job to run it. */
export async function insertImport(row: NewImportRow): Promise<ImportRow> {
  return db().$transaction(async (tx) => {
    const created = await tx.import.create({
      data: {
        organizationId: BigInt(row.organizationId),
        format: row.format,
        encoding: row.encoding,
        fileName: row.fileName,
        file: new Uint8Array(row.file),
        dryRun: row.dryRun,
        missing: row.missing,
        mapping: row.mapping ?? Prisma.DbNull,
        counts: emptyCounts(row.rows) as unknown as Prisma.InputJsonValue,
        photos: EMPTY_PHOTOS as unknown as Prisma.InputJsonValue,
        actorKind: row.actor.kind,
        actorId: BigInt(row.actor.id),
        actorName: row.actor.name,
      },
      select: IMPORT_SELECT,
    });
    // One job per import (job_key): queued twice, it still runs once. Its retries are for waiting on
    // another import of the organisation (the job records every other failure in the import itself).
    // In the organisation's queue of long work: one of its imports or uploads at a time (lib/jobs/queue.ts).
    await tx.$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.add_job('run-import', json_build_object('importId', ${String(created.id)}::text),
                                 queue_name := ${longWorkQueue(row.organizationId)}, job_key := ${`import-${created.id}`}, max_attempts := 25)`;
    return created;
  });
}

/** One import, if it is `organizationId`'s (undefined: anyone's, for a platform caller). */
export async function findImport(id: number, organizationId: number | undefined): Promise<ImportRow | null> {
  return db().import.findFirst({
    where: { id: BigInt(id), ...(organizationId !== undefined ? { organizationId: BigInt(organizationId) } : {}) },
    select: IMPORT_SELECT,
  });
}

export async function findImports(organizationId: number | undefined, before: number | undefined, take: number): Promise<ImportRow[]> {
  return db().import.findMany({
    where: { ...(organizationId !== undefined ? { organizationId: BigInt(organizationId) } : {}), ...(before ? { id: { lt: BigInt(before) } } : {}) },
    orderBy: { id: "desc" },
    take,
    select: IMPORT_SELECT,
  });
}

export async function organizationOfImport(id: number): Promise<bigint | undefined> {
  const row = await db().import.findUnique({ where: { id: BigInt(id) }, select: { organizationId: true } });
  return row?.organizationId;
}

/** The organisation's last generic mapping: the default of its next generic file. */
export async function lastMapping(organizationId: number): Promise<GenericMapping | null> {
  const row = await db().import.findFirst({
    where: { organizationId: BigInt(organizationId), format: "generic", mapping: { not: Prisma.DbNull } },
    orderBy: { id: "desc" },
    select: { mapping: true },
  });
  return (row?.mapping as GenericMapping | null | undefined) ?? null;
}

/** What the job needs to run an import. */
export async function loadForRun(id: number) {
  return db().import.findUnique({
    where: { id: BigInt(id) },
    select: { ...IMPORT_SELECT, file: true, actorKind: true, actorId: true, actorName: true },
  });
}

/**
 * Marks the import running, unless another import of the same organisation
 * is running (two imports writing the same animals at once would race on
 * their externalIds): false then, and the job is retried later. A job run
 * again after a crash finds its own import running and carries on.
 */
export async function claimImport(id: number, organizationId: number, exclusive: boolean): Promise<boolean> {
  const claimed = await db().$executeRaw`
    UPDATE imports SET status = 'running', started_at = COALESCE(started_at, now())
     WHERE id = ${BigInt(id)} AND status IN ('queued', 'running')
       AND (NOT ${exclusive} OR NOT EXISTS (SELECT 1 FROM imports o WHERE o.organization_id = ${BigInt(organizationId)} AND o.status = 'running' AND o.id <> ${BigInt(id)} AND NOT o.dry_run))`;
  return claimed > 0;
}

export interface Progress {
  status?: ImportStatus;
  counts: ImportCounts;
  photos: ImportPhotoCounts;
  errors: ImportIssue[];
  preview: ImportPreviewRow[];
  finished?: boolean;
}

export async function saveProgress(id: number, progress: Progress): Promise<void> {
  await db().import.update({
    where: { id: BigInt(id) },
    data: {
      ...(progress.status ? { status: progress.status } : {}),
      counts: progress.counts as unknown as Prisma.InputJsonValue,
      photos: progress.photos as unknown as Prisma.InputJsonValue,
      errors: progress.errors as unknown as Prisma.InputJsonValue,
      preview: progress.preview as unknown as Prisma.InputJsonValue,
      // The file is not needed once the import has run; 10 MB a row is not kept for nothing.
      ...(progress.finished ? { finishedAt: new Date(), file: null } : {}),
    },
  });
}
