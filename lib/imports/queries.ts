import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { longWorkQueue, QUEUE_SCHEMA } from "@/lib/jobs/queue";
import type {
  ImportCounts,
  ImportPhotoCounts,
  ImportPreviewRow,
  ImportStatus,
  IssueResult,
  MissingPolicy,
  ReportEntry,
  UnknownWords,
} from "@/lib/imports/schemas";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import type { ListingFormatName } from "@/lib/core/listing-sites";

// Data access for imports: the row per file, its job, its run's lease, its
// progress, and its report (import_issues, appended as the job goes).

export const IMPORT_SUMMARY_SELECT = {
  id: true,
  organizationId: true,
  format: true,
  encoding: true,
  fileName: true,
  dryRun: true,
  missing: true,
  status: true,
  counts: true,
  photos: true,
  issueCount: true,
  reportDeletedAt: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

export const IMPORT_SELECT = { ...IMPORT_SUMMARY_SELECT, mapping: true, preview: true, unknownWords: true } as const;

export type ImportSummaryRow = Prisma.ImportGetPayload<{ select: typeof IMPORT_SUMMARY_SELECT }>;
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

export const EMPTY_PHOTOS: ImportPhotoCounts = { queued: 0, stored: 0, failed: 0, skipped: 0 };

export function emptyCounts(rows: number): ImportCounts {
  return { rows, created: 0, updated: 0, unchanged: 0, rejected: 0, adopted: 0 };
}

const ACTIVE: ImportStatus[] = ["queued", "running"];

/**
 * The import's row and its job, committed together: a queued import always
 * has a job to run it. Refused, with the import in the way, while another
 * import of the organisation (a dry run too) is queued or running: the
 * partial unique index imports_one_active_per_organization holds that even
 * for two requests at once (the second waits for the first's commit, then
 * inserts nothing).
 */
export async function insertImport(row: NewImportRow): Promise<{ created: ImportRow } | { active: { id: number; status: ImportStatus } }> {
  for (;;) {
    const result = await db().$transaction(async (tx) => {
      const [inserted] = await tx.$queryRaw<{ id: bigint }[]>`
        INSERT INTO imports (organization_id, format, encoding, file_name, file, dry_run, missing, mapping, counts, photos, actor_kind, actor_id, actor_name)
        VALUES (${BigInt(row.organizationId)}, ${row.format}, ${row.encoding}, ${row.fileName}, ${new Uint8Array(row.file)}, ${row.dryRun}, ${row.missing},
                ${row.mapping === null ? null : JSON.stringify(row.mapping)}::jsonb, ${JSON.stringify(emptyCounts(row.rows))}::jsonb, ${JSON.stringify(EMPTY_PHOTOS)}::jsonb,
                ${row.actor.kind}::"ActorKind", ${BigInt(row.actor.id)}, ${row.actor.name})
        ON CONFLICT (organization_id) WHERE status IN ('queued', 'running') DO NOTHING
        RETURNING id`;
      if (!inserted) {
        const active = await tx.import.findFirst({
          where: { organizationId: BigInt(row.organizationId), status: { in: ACTIVE } },
          select: { id: true, status: true },
        });
        return active ? { active: { id: Number(active.id), status: active.status } } : null;
      }
      // One job per import (job_key): queued twice, it still runs once. Its retries are for waiting on
      // another process that holds the import's lease (the job records every other failure in the import itself).
      // In the organisation's queue of long work: one of its imports or uploads at a time (lib/jobs/queue.ts).
      await tx.$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.add_job('run-import', json_build_object('importId', ${String(inserted.id)}::text),
                                   queue_name := ${longWorkQueue(row.organizationId)}, job_key := ${`import-${inserted.id}`}, max_attempts := 25)`;
      return { created: await tx.import.findUniqueOrThrow({ where: { id: inserted.id }, select: IMPORT_SELECT }) };
    });
    // null: the import in the way finished between the insert and the look: try again.
    if (result) return result;
  }
}

/** One import, if it is `organizationId`'s (undefined: anyone's, for a platform caller). */
export async function findImport(id: number, organizationId: number | undefined): Promise<ImportRow | null> {
  return db().import.findFirst({
    where: { id: BigInt(id), ...(organizationId !== undefined ? { organizationId: BigInt(organizationId) } : {}) },
    select: IMPORT_SELECT,
  });
}

export async function findImports(organizationId: number | undefined, before: number | undefined, take: number): Promise<ImportSummaryRow[]> {
  return db().import.findMany({
    where: { ...(organizationId !== undefined ? { organizationId: BigInt(organizationId) } : {}), ...(before ? { id: { lt: BigInt(before) } } : {}) },
    orderBy: { id: "desc" },
    take,
    select: IMPORT_SUMMARY_SELECT,
  });
}

/** A page of an import's report, in the order the job found its entries (`recordsMessage`: the message for a reader of the records, when it differs). */
export async function findIssues(
  importId: number,
  afterId: number | undefined,
  take: number,
): Promise<{ id: bigint; line: number; field: string | null; message: string; recordsMessage: string | null; result: IssueResult }[]> {
  const rows = await db().importIssue.findMany({
    where: { importId: BigInt(importId), ...(afterId !== undefined ? { id: { gt: BigInt(afterId) } } : {}) },
    orderBy: { id: "asc" },
    take,
    select: { id: true, line: true, field: true, message: true, recordsMessage: true, result: true },
  });
  return rows.map((row) => ({ ...row, result: row.result as IssueResult }));
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

/** What the job needs to run an import (its file only while the rows still have to run). */
export async function loadForRun(id: number) {
  return db().import.findUnique({
    where: { id: BigInt(id) },
    select: { ...IMPORT_SELECT, file: true, actorKind: true, actorId: true, actorName: true },
  });
}

export async function statusOf(id: number): Promise<ImportStatus | undefined> {
  return (await db().import.findUnique({ where: { id: BigInt(id) }, select: { status: true } }))?.status;
}

/** A run that starts over (its job retried after a crash) starts its report over too: the rows are planned again. */
export async function resetReport(id: number, owner: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.import.updateMany({ where: { id: BigInt(id), leaseOwner: owner, issueCount: { gt: 0 } }, data: { issueCount: 0 } });
    if (count) await tx.importIssue.deleteMany({ where: { importId: BigInt(id) } });
  });
}

/** How long a run's lease lasts without being renewed (IMPORT_LEASE_SECONDS): a runner that died lets another take the import over after this. */
export function leaseSeconds(): number {
  return env().IMPORT_LEASE_SECONDS;
}

/**
 * Takes the import's lease for `owner` (one run in one process) and marks
 * it running: false while another run holds a lease that has not expired
 * (the CLI and a server's worker given the same import, or a job retried
 * while the first still runs). A run that died leaves a lease that expires,
 * and the job's retry then takes the import over.
 */
export async function claimImport(id: number, owner: string): Promise<boolean> {
  const claimed = await db().$executeRaw`
    UPDATE imports SET status = 'running', started_at = COALESCE(started_at, now()),
                       lease_owner = ${owner}, lease_expires_at = now() + make_interval(secs => ${leaseSeconds()})
     WHERE id = ${BigInt(id)} AND status IN ('queued', 'running')
       AND (lease_owner IS NULL OR lease_owner = ${owner} OR lease_expires_at < now())`;
  return claimed > 0;
}

/** Keeps the lease another leaseSeconds(); false when `owner` no longer holds it (it expired and another run took it). */
export async function renewLease(id: number, owner: string): Promise<boolean> {
  const renewed = await db().$executeRaw`
    UPDATE imports SET lease_expires_at = now() + make_interval(secs => ${leaseSeconds()})
     WHERE id = ${BigInt(id)} AND lease_owner = ${owner} AND status = 'running'`;
  return renewed > 0;
}

export class LeaseLostError extends Error {
  constructor(id: number) {
    super(`import ${id}: another run took the import over (this one's lease expired)`);
    this.name = "LeaseLostError";
  }
}

export interface Progress {
  status?: ImportStatus;
  counts: ImportCounts;
  photos: ImportPhotoCounts;
  /** Written only when given (it changes in the first chunks only). */
  preview?: ImportPreviewRow[];
  /** The report's new entries since the last save: appended, never rewritten. */
  issues: ReportEntry[];
  /** Written only when given (known once the rows are read). */
  unknownWords?: UnknownWords;
  finished?: boolean;
}

/**
 * Saves the run's progress (small: counts and photo counts) and appends the
 * report's new entries, if `owner` still holds the lease (LeaseLostError
 * otherwise: another run has the import now, and this one must stop
 * writing). Finished, the lease and the file are let go.
 */
export async function saveProgress(id: number, owner: string, progress: Progress): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.import.updateMany({
      where: { id: BigInt(id), leaseOwner: owner },
      data: {
        ...(progress.status ? { status: progress.status } : {}),
        counts: progress.counts as unknown as Prisma.InputJsonValue,
        photos: progress.photos as unknown as Prisma.InputJsonValue,
        ...(progress.preview ? { preview: progress.preview as unknown as Prisma.InputJsonValue } : {}),
        ...(progress.unknownWords ? { unknownWords: progress.unknownWords as unknown as Prisma.InputJsonValue } : {}),
        ...(progress.issues.length ? { issueCount: { increment: progress.issues.length } } : {}),
        ...(progress.finished ? { finishedAt: now(), file: null, leaseOwner: null, leaseExpiresAt: null } : {}),
      },
    });
    if (count === 0) throw new LeaseLostError(id);
    if (progress.issues.length) {
      await tx.importIssue.createMany({
        data: progress.issues.map((issue) => ({
          importId: BigInt(id),
          line: issue.line,
          field: issue.field,
          message: issue.message,
          recordsMessage: issue.withRecords ?? null,
          result: issue.result,
        })),
      });
    }
  });
}

/** The file is let go once the rows have run: the photos that follow do not need it, and 10 MB a row is not kept for nothing. */
export async function dropFile(id: number, owner: string): Promise<void> {
  const { count } = await db().import.updateMany({ where: { id: BigInt(id), leaseOwner: owner }, data: { file: null } });
  if (count === 0) throw new LeaseLostError(id);
}

/** Photo addresses the organisation's imports tried to fetch since `since` (stored or failed): the daily allowance's use. */
export async function photoFetchesSince(organizationId: number, since: Date, except: number): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT COALESCE(sum((photos->>'stored')::int + (photos->>'failed')::int), 0)::int AS n
      FROM imports WHERE organization_id = ${BigInt(organizationId)} AND NOT dry_run AND id <> ${BigInt(except)}
       AND COALESCE(finished_at, now()) >= ${since}`;
  return row?.n ?? 0;
}

/** Imports whose reports are due for deletion at a time, each with up to 25,000 entries. */
const SWEEP_IMPORTS = 20;

/**
 * Deletes the reports (issues and preview) of imports that finished before
 * `cutoff`; the imports themselves stay listed, with their counts. Returns
 * how many reports went.
 */
export async function deleteReportsBefore(cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const swept = await db().$executeRaw`
      WITH due AS (
        SELECT id FROM imports WHERE report_deleted_at IS NULL AND finished_at < ${cutoff}
         ORDER BY finished_at LIMIT ${SWEEP_IMPORTS} FOR UPDATE SKIP LOCKED
      ), gone AS (
        DELETE FROM import_issues WHERE import_id IN (SELECT id FROM due)
      )
      UPDATE imports SET preview = '[]', unknown_words = '{}', report_deleted_at = now() WHERE id IN (SELECT id FROM due)`;
    total += swept;
    if (swept < SWEEP_IMPORTS) return total;
  }
}

/** An import whose run stopped without an end (lib/imports/recovery.ts), with the state of its job. */
export interface StalledImport {
  id: bigint;
  /** Its job, locked by the run that let the lease expire: that worker's id (its process is gone or stalled). */
  lockedBy: string | null;
  jobId: bigint | null;
  /** No job, or one that failed for good: nothing will run it again. */
  noRetry: boolean;
}

/**
 * Imports left active with nothing running them: running with an expired
 * lease (its process was killed or stalled past the lease), or queued or
 * running with a job that is gone or has used its attempts. A job locked
 * after the lease expired is a live worker's that is taking the import over:
 * left alone.
 */
export async function findStalledImports(): Promise<StalledImport[]> {
  const Q = Prisma.raw(QUEUE_SCHEMA);
  return db().$queryRaw<StalledImport[]>`
    SELECT i.id, j.id AS "jobId",
           CASE WHEN j.locked_at IS NOT NULL AND j.locked_at < i.lease_expires_at THEN j.locked_by END AS "lockedBy",
           (j.id IS NULL OR j.attempts >= j.max_attempts) AS "noRetry"
      FROM imports i LEFT JOIN ${Q}._private_jobs j ON j.key = 'import-' || i.id::text
     WHERE i.status IN ('queued', 'running')
       AND (i.lease_expires_at IS NULL OR i.lease_expires_at < now())
       AND ((i.status = 'running' AND i.lease_expires_at IS NOT NULL AND (j.locked_at IS NULL OR j.locked_at < i.lease_expires_at))
            OR j.id IS NULL OR (j.attempts >= j.max_attempts AND j.locked_at IS NULL))`;
}

/** Lets go of the jobs (and the organisation's queue of long work) a dead worker holds, so a live one takes them at once. */
export async function unlockWorker(workerId: string): Promise<void> {
  await db().$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.force_unlock_workers(ARRAY[${workerId}]::text[])`;
}

/** A job waiting out its retry's back-off (an ImportBusyError while the dead run's lease held): due now. */
export async function runJobNow(jobId: bigint): Promise<void> {
  await db().$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.reschedule_jobs(ARRAY[${jobId}]::bigint[], run_at := now())`;
}

/**
 * Ends a stalled import as failed, with `message` as its report's last
 * entry; false when it is no longer stalled (a run took it meanwhile).
 */
export async function failStalled(id: bigint, message: string): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.import.updateMany({
      where: { id, status: { in: ACTIVE }, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now() } }] },
      data: { status: "failed", finishedAt: now(), file: null, leaseOwner: null, leaseExpiresAt: null, issueCount: { increment: 1 } },
    });
    if (count) await tx.importIssue.create({ data: { importId: id, line: 0, field: null, message, result: "refused" } });
    return count > 0;
  });
}
