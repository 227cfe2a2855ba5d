import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import type { AlertFilters, AlertFrequency } from "@/lib/alerts/schemas";
import type { AgeGroup } from "@/lib/pets/age";
import type { PetSex, PetSize } from "@/lib/pets/profile";

// Data access for alerts. The email address leaves this room only towards
// the alerts' own mail (lib/alerts/mail.ts) and the personal-data commands
// (export, erase): views select what they show.

export const VIEW_SELECT = {
  id: true,
  email: true,
  status: true,
  frequency: true,
  timeZone: true,
  filters: true,
  categoryId: true,
  createdAt: true,
  confirmedAt: true,
} as const satisfies Prisma.AlertSelect;

export type AlertViewRow = Prisma.AlertGetPayload<{ select: typeof VIEW_SELECT }>;

export interface AlertToInsert {
  email: string;
  /** The address as its inbox sees it (lib/mail/inbox.ts): what the cap of alerts per address counts. */
  inbox: string;
  tokenHash: string;
  sealedToken: string;
  frequency: AlertFrequency;
  timeZone: string;
  /** The language of its emails. */
  locale: string;
  filters: AlertFilters;
  categoryId: number | null;
  sex: PetSex | null;
  size: PetSize | null;
  ageGroup: AgeGroup | null;
  goodWithMask: number;
  search: string | null;
  near: { lat: number; lng: number; chord: number } | null;
  now: Date;
}

/**
 * Inserts an unconfirmed alert and queues its confirmation email, in one
 * transaction (as an application and its first email): a rolled-back alert
 * sends nothing. The job's payload is the alert's id only.
 */
export async function insertAlertWithConfirmation(a: AlertToInsert): Promise<bigint> {
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO alerts (email, inbox, token_hash, sealed_token, frequency, time_zone, locale, filters, category_id, sex, size, age_group, good_with_mask,
                          search_pattern, near_lat, near_lng, within_chord, consent_at, created_at)
      VALUES (${a.email}, ${a.inbox}, ${a.tokenHash}, ${a.sealedToken}, ${a.frequency}::"AlertFrequency", ${a.timeZone}, ${a.locale}, ${JSON.stringify(a.filters)}::jsonb,
              ${a.categoryId === null ? null : BigInt(a.categoryId)}::bigint, ${a.sex}::"PetSex", ${a.size}::"PetSize", ${a.ageGroup}::"PetAgeGroup",
              ${a.goodWithMask}::smallint,
              -- The name test as the list's (lib/pets/queries.ts): the key first, then LIKE's wildcards escaped.
              CASE WHEN ${a.search}::text IS NULL THEN NULL
                   ELSE '%' || replace(replace(replace(pet_search_key(${a.search}::text), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' END,
              ${a.near?.lat ?? null}::float8, ${a.near?.lng ?? null}::float8, ${a.near?.chord ?? null}::float8, ${a.now}, ${a.now})
      RETURNING id`;
    await queueAlertMail(tx, { alertId: String(row!.id), kind: "confirm" });
    return row!.id;
  });
}

export interface AlertMailJob {
  alertId: string;
  /** The confirmation (on creation), or the renewal question (an alert untouched for 12 months). */
  kind: "confirm" | "renewal";
}

/** Queues one of an alert's own emails, as part of the caller's transaction (matches go by the sender: lib/alerts/mail.ts). */
export async function queueAlertMail(tx: Prisma.TransactionClient, job: AlertMailJob): Promise<void> {
  await tx.$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.add_job('alert-mail', ${JSON.stringify(job)}::json,
    queue_name := ${`alert-mail:${job.alertId}`}, max_attempts := 10)`;
}

/** How many alerts go to this inbox, however its address was spelled. */
export async function countAlertsOfInbox(inbox: string): Promise<number> {
  return db().alert.count({ where: { inbox } });
}

export async function findAlertByTokenHash(tokenHash: string): Promise<AlertViewRow | null> {
  return db().alert.findUnique({ where: { tokenHash }, select: VIEW_SELECT });
}

/** Someone followed a link to the alert: it is alive (the 12-month renewal starts over). */
export async function noteOpened(id: bigint, now: Date): Promise<void> {
  await db().alert.update({ where: { id }, data: { lastOpenedAt: now, renewalSentAt: null } });
}

/** Confirms (idempotently: a confirmed alert keeps its first confirmation); null when there is no such alert. */
export async function confirmByTokenHash(tokenHash: string, now: Date): Promise<AlertViewRow | null> {
  await db().$executeRaw`
    UPDATE alerts SET status = 'active', confirmed_at = ${now}, last_opened_at = ${now}, renewal_sent_at = NULL
     WHERE token_hash = ${tokenHash} AND status = 'unconfirmed'`;
  const row = await findAlertByTokenHash(tokenHash);
  if (row) await noteOpened(row.id, now);
  return row;
}

/** Pauses or resumes a confirmed alert; the row as it is after (an unconfirmed one is unchanged). */
export async function setPausedByTokenHash(tokenHash: string, paused: boolean, now: Date): Promise<AlertViewRow | null> {
  await db().$executeRaw`
    UPDATE alerts SET status = ${paused ? "paused" : "active"}::"AlertStatus", last_opened_at = ${now}, renewal_sent_at = NULL
     WHERE token_hash = ${tokenHash} AND status <> 'unconfirmed'`;
  return findAlertByTokenHash(tokenHash);
}

/** Deletes the alert and (cascade) whatever it had waiting; how many rows went (0 or 1). */
export async function deleteByTokenHash(tokenHash: string): Promise<number> {
  return db().$executeRaw`DELETE FROM alerts WHERE token_hash = ${tokenHash}`;
}

/** Deletes alert `id` (and what it had waiting) only if it goes to `inbox`; how many rows went (0 or 1). */
export async function deleteByIdAndInbox(id: bigint, inbox: string): Promise<number> {
  return db().$executeRaw`DELETE FROM alerts WHERE id = ${id} AND inbox = ${inbox}`;
}

export async function categoryName(id: bigint): Promise<string | null> {
  return (await db().category.findUnique({ where: { id }, select: { name: true } }))?.name ?? null;
}

/** Unconfirmed alerts created before `before` go (their link was never opened). */
export async function deleteUnconfirmedBefore(before: Date): Promise<number> {
  return db().$executeRaw`DELETE FROM alerts WHERE status = 'unconfirmed' AND created_at < ${before}`;
}

/** Sent matches older than `before` are only history: an animal that comes back after that is news again. */
export async function deleteSentMatchesBefore(before: Date): Promise<number> {
  return db().$executeRaw`DELETE FROM alert_matches WHERE sent_at < ${before}`;
}
