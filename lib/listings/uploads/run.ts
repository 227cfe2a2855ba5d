import sharp from "sharp";
import { db, query } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListingSite } from "@/lib/core/listing-sites";
import { describeFtpError, openFtp, type FtpSession } from "@/lib/listings/uploads/ftp";
import { RETRY_DELAYS_SECONDS, uploadJobSql, type UploadJob } from "@/lib/listings/uploads/jobs";
import { buildSnapshot, type Snapshot } from "@/lib/listings/uploads/snapshot";
import type { ListingUpload } from "@/lib/listings/uploads/schemas";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { photoStore } from "@/lib/photos/store";
import { tryOpenPassword } from "@/lib/listings/uploads/password";

// One upload of one listing site: the job `listing-upload` (its queue holds
// one at a time per site). It writes the snapshot, puts the photos the site
// has not had yet, then the data file last (so every photo the file names is
// there when the site reads it), and records the outcome. A failure the
// server answered for good (a refused login) is not retried: another try
// would only be refused again, and too many could lock the account. Others
// are retried after 1, 5 and 15 minutes, then wait for the next change or
// the daily upload. Log lines name the site and the outcome, never the
// password nor the user name. The whole upload has a deadline
// (LISTINGS_UPLOAD_TIMEOUT_SECONDS) beside each step's own: a slow server
// holds a job slot that long at most, and the photos it did receive are
// remembered, so the retry sends only the rest.

export interface SiteRow {
  id: bigint;
  organizationId: bigint;
  site: ListingSite;
  host: string;
  port: number;
  secure: boolean;
  username: string;
  password: string;
  accountId: string | null;
  enabled: boolean;
  sentPhotos: Prisma.JsonValue;
}

export type Warning = ListingUpload["warnings"][number];

/** The photo as the sites take it: a JPEG (our variants are WebP). */
async function jpegOf(key: string): Promise<Buffer | null> {
  const file = await (await photoStore()).get(key);
  if (!file) return null;
  return sharp(file.bytes).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Sends a snapshot over an open session; returns the photo files sent. `sent`
 * (remote path -> content key) is filled in as each photo arrives, so that
 * after a failure midway the caller still knows what the server holds.
 */
async function send(session: FtpSession, snapshot: Snapshot, sentBefore: Record<string, string>, sent: Record<string, string>): Promise<{ photos: number }> {
  let photos = 0;
  for (const photo of snapshot.photos) {
    // Keys name content: the same key under the same name is the same picture already there.
    if (sentBefore[photo.remotePath] !== photo.key) {
      const bytes = await jpegOf(photo.key);
      if (!bytes) continue;
      await session.put(photo.remotePath, bytes);
      photos += 1;
    }
    sent[photo.remotePath] = photo.key;
  }
  for (const extra of snapshot.extras) await session.put(extra.remotePath, extra.bytes);
  await session.put(snapshot.file.remotePath, snapshot.file.bytes);
  return { photos };
}

async function startUploadRow(siteId: bigint, job: UploadJob): Promise<bigint> {
  if (job.uploadId) {
    // updateMany, as in finish: the site (and its uploads) may be removed meanwhile.
    await db().listingUpload.updateMany({ where: { id: BigInt(job.uploadId) }, data: { startedAt: new Date() } });
    return BigInt(job.uploadId);
  }
  const row = await db().listingUpload.create({ data: { siteId, reason: job.reason }, select: { id: true } });
  return row.id;
}

/** Runs the upload a job asks for. Throws only on our own failures (the database): the queue then tries the job again. */
export async function runUpload(job: UploadJob, now: () => Date = () => new Date()): Promise<void> {
  const siteId = BigInt(job.siteId);
  const site = (await db().listingSite.findUnique({ where: { id: siteId } })) as SiteRow | null;
  if (!site) return;
  // A site switched off keeps its log; only someone's explicit "Upload now" still sends.
  if (!site.enabled && job.reason !== "manual") {
    if (job.uploadId) await finish(BigInt(job.uploadId), site.site, { outcome: "failed", error: "The site is switched off." });
    return;
  }
  if (job.failedUploadId) {
    const later = await db().listingUpload.findFirst({ where: { siteId, id: { gt: BigInt(job.failedUploadId) }, outcome: "sent" }, select: { id: true } });
    if (later) return;
  }
  const uploadId = await startUploadRow(siteId, job);
  const log = { siteId: Number(siteId), site: site.site, uploadId: Number(uploadId), reason: job.reason };
  let snapshot: Snapshot;
  try {
    snapshot = await buildSnapshot(Number(site.organizationId), site.site, site.accountId, now());
  } catch (error) {
    await finish(uploadId, site.site, { outcome: "failed", error: "The file could not be written." });
    throw error;
  }
  const warnings = warningsOfRows(snapshot);
  const password = tryOpenPassword(site.password);
  if (password === null) {
    logger().error(log, "listing site password cannot be opened (SESSION_SECRET replaced without SESSION_SECRET_PREVIOUS?)");
    await finish(uploadId, site.site, {
      outcome: "failed",
      animals: snapshot.animals,
      warnings,
      error: "The stored password cannot be read any more: enter it again.",
    });
    return;
  }
  const seconds = env().LISTINGS_UPLOAD_TIMEOUT_SECONDS;
  const deadline = { at: Date.now() + seconds * 1000, message: `The upload took longer than ${seconds} s and was stopped.` };
  const sentBefore = (site.sentPhotos ?? {}) as Record<string, string>;
  const sent: Record<string, string> = {};
  let session: FtpSession | undefined;
  try {
    session = await openFtp({ host: site.host, port: site.port, secure: site.secure, username: site.username, password }, deadline);
    const result = await send(session, snapshot, sentBefore, sent);
    await db().listingSite.updateMany({ where: { id: siteId, host: site.host, port: site.port, username: site.username }, data: { sentPhotos: sent } });
    await finish(uploadId, site.site, { outcome: "sent", animals: snapshot.animals, photos: result.photos, warnings });
    logger().info({ ...log, animals: snapshot.animals, photos: result.photos }, "listing upload sent");
  } catch (error) {
    const failure = describeFtpError(error);
    const retry = job.retry ?? 0;
    const delay = failure.permanent ? undefined : RETRY_DELAYS_SECONDS[retry];
    // The photos that did arrive are on the server: the next try skips them
    // (as on success, only while the site is still the same account: a
    // change of host, port or user meanwhile forgot them on purpose).
    if (Object.keys(sent).length) {
      await db().listingSite.updateMany({
        where: { id: siteId, host: site.host, port: site.port, username: site.username },
        data: { sentPhotos: { ...sentBefore, ...sent } },
      });
    }
    await finish(uploadId, site.site, { outcome: "failed", animals: snapshot.animals, warnings, error: failure.message.slice(0, 1000) });
    logger().warn({ ...log, error: failure.message, retryInSeconds: delay ?? null }, "listing upload failed");
    if (delay !== undefined) {
      await query(
        Prisma.sql`SELECT ${uploadJobSql(Prisma.sql`${siteId}::bigint`, { reason: job.reason, delaySeconds: delay, key: "retry", retry: retry + 1, failedUploadId: uploadId })}`,
      );
    }
  } finally {
    session?.close();
  }
}

function warningsOfRows(snapshot: Snapshot): Warning[] {
  return snapshot.written.rows.flatMap((row, i) =>
    row.warnings.map((w) => ({ animalId: snapshot.animalIds[i] ?? 0, rowId: row.rowId, field: w.field, message: w.message })),
  );
}

async function finish(
  uploadId: bigint,
  site: ListingSite,
  result: { outcome: "sent" | "failed"; animals?: number; photos?: number; warnings?: Warning[]; error?: string },
): Promise<void> {
  // updateMany: staff may remove the site (and with it this row) while its
  // upload runs; there is nothing left to record then, and no reason to fail the job.
  await db().listingUpload.updateMany({
    where: { id: uploadId },
    data: {
      finishedAt: new Date(),
      outcome: result.outcome,
      animals: result.animals ?? 0,
      photos: result.photos ?? 0,
      warnings: (result.warnings ?? []) as unknown as Prisma.InputJsonValue,
      error: result.error ?? null,
    },
  });
  metrics().listingUploads.inc({ site, outcome: result.outcome });
}
