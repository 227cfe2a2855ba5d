import { apiKeyName } from "@/lib/audit/queries";
import type { HistoryActor, WriteContext } from "@/lib/audit/schemas";
import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/sessions/caller";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, encodeCursor } from "@/lib/core/pagination";
import { organizationExists } from "@/lib/organizations/queries";
import { organizationForCreate, organizationScope, unknownOrganization, type Tenancy } from "@/lib/organizations/tenancy";
import type { ListingSite } from "@/lib/core/listing-sites";
import { checkFtpHost, describeFtpError, openFtp } from "@/lib/listings/uploads/ftp";
import { manualUploadWaitingSql, uploadJobSql } from "@/lib/listings/uploads/jobs";
import { sealPassword } from "@/lib/listings/uploads/password";
import {
  CONNECTION_FIELDS,
  DEFAULT_HOSTS,
  LISTING_SITES_PER_ORGANIZATION,
  NEEDS_ACCOUNT_ID,
  SITE_FTP_PORT,
  UPLOADS_LISTED,
  isSiteHost,
  type AuditedField,
  type ConnectionTest,
  type ConnectionTestBody,
  type ListingSiteHistoryEntry,
  type ListingSiteHistoryQuery,
  type ListingSitePatch,
  type ListingSiteSettings,
  type ListingSiteView,
  type ListingUpload,
  type NewListingSite,
} from "@/lib/listings/uploads/schemas";
import { spendConnectionTest } from "@/lib/listings/uploads/test-budget";
import { OutboundUrlError, type CheckedTarget } from "@/lib/outbound/address-guard";

// The rules of listing sites. A site belongs to an organisation: its staff
// and its keys with listings:manage see and change only their own (the
// wrapper refuses another's with 403, lib/http/tenant.ts), and every write
// names the organisation again in the statement that changes the row. The
// password goes in sealed (lib/listings/uploads/password.ts) and never comes
// out but to the FTP connection (lib/listings/uploads/run.ts), and only to
// the server and account it was given for: a change of host, port, FTPS or
// user name needs it again in the same request. Every create, change and
// delete writes an audit record (listing_site_audit) in its transaction:
// who, in which request, which fields, never the password.

/** Every column but the password. */
const PUBLIC_COLUMNS = {
  id: true,
  organizationId: true,
  site: true,
  host: true,
  port: true,
  secure: true,
  username: true,
  accountId: true,
  enabled: true,
  createdAt: true,
  updatedAt: true,
} as const;

type SiteRow = Prisma.ListingSiteGetPayload<{ select: typeof PUBLIC_COLUMNS }>;
type UploadRow = Prisma.ListingUploadGetPayload<object>;

export function toUpload(row: UploadRow): ListingUpload {
  return {
    id: Number(row.id),
    siteId: Number(row.siteId),
    reason: row.reason,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    outcome: row.outcome,
    animals: row.animals,
    photos: row.photos,
    warnings: row.warnings as ListingUpload["warnings"],
    error: row.error,
  };
}

async function present(rows: SiteRow[]): Promise<ListingSiteView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [last, sent] = await Promise.all([
    query<UploadRow & { site_id: bigint }>(Prisma.sql`
      SELECT DISTINCT ON (site_id) id, site_id AS "siteId", reason, started_at AS "startedAt", finished_at AS "finishedAt", outcome, animals, photos, warnings, error
        FROM listing_uploads WHERE site_id = ANY(${ids}::bigint[]) ORDER BY site_id, id DESC`),
    query<{ siteId: bigint; at: Date }>(Prisma.sql`
      SELECT site_id AS "siteId", max(finished_at) AS at FROM listing_uploads WHERE site_id = ANY(${ids}::bigint[]) AND outcome = 'sent' GROUP BY site_id`),
  ]);
  const lastBySite = new Map(last.map((u) => [String(u.siteId), u]));
  const sentBySite = new Map(sent.map((s) => [String(s.siteId), s.at]));
  return rows.map((row) => {
    const upload = lastBySite.get(String(row.id));
    return {
      id: Number(row.id),
      organizationId: Number(row.organizationId),
      site: row.site,
      host: row.host,
      port: row.port,
      secure: row.secure,
      username: row.username,
      accountId: row.accountId,
      enabled: row.enabled,
      lastUpload: upload ? toUpload({ ...upload, id: BigInt(upload.id), siteId: BigInt(upload.siteId) }) : null,
      lastSentAt: sentBySite.get(String(row.id))?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** Refuses a host we would never connect to (the same guard as webhooks), as 400 invalid_listing_host; answers the address that passed. */
async function assertReachable(host: string): Promise<CheckedTarget> {
  try {
    return await checkFtpHost(host);
  } catch (error) {
    if (!(error instanceof OutboundUrlError)) throw error;
    const message = error.message;
    throw new ApiError(400, "invalid_listing_host", `The FTP host cannot be used. ${message}`, [{ field: "host", issue: message }]);
  }
}

/** The sites' own hosts take FTP on their own port only: refused as 400 before anything connects (nor is a site's other port stored). */
function assertSitePort(host: string, port: number): void {
  if (isSiteHost(host) && port !== SITE_FTP_PORT) {
    throw new ApiError(400, "invalid_body", `${host} is a listing site's own FTP server: it is reached on port ${SITE_FTP_PORT} only.`, [
      { field: "port", issue: `must be ${SITE_FTP_PORT} for ${host}` },
    ]);
  }
}

function assertAccountId(site: ListingSite, accountId: string | null | undefined): void {
  if (NEEDS_ACCOUNT_ID[site] && !accountId) {
    const what = site === "petfinder" ? "Petfinder's shelter ID (the file on the server is named after it)" : "RescueGroups' orgID (every row carries it)";
    throw new ApiError(400, "invalid_body", `This site needs accountId: ${what}.`, [{ field: "accountId", issue: `is required for ${site}` }]);
  }
  if (!NEEDS_ACCOUNT_ID[site] && accountId) {
    throw new ApiError(400, "invalid_body", "Adopt-a-Pet takes no account id: its FTP user name is the account.", [
      { field: "accountId", issue: "is not used by adoptapet" },
    ]);
  }
}

/** The settings a history entry may show: everything but the password. */
function settingsOf(row: {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  accountId: string | null;
  enabled: boolean;
}): Required<ListingSiteSettings> {
  return { host: row.host, port: row.port, secure: row.secure, username: row.username, accountId: row.accountId, enabled: row.enabled };
}

/** Appends one audit record, in the transaction of the change it describes. */
async function recordSiteChange(
  tx: Prisma.TransactionClient,
  site: { id: bigint; organizationId: bigint; site: ListingSite },
  change: { action: "created" | "updated" | "deleted"; fields: AuditedField[]; before: ListingSiteSettings | null; after: ListingSiteSettings | null },
  context: WriteContext,
): Promise<void> {
  const { actor } = context;
  const actorName = actor.kind === "staff" ? actor.email : await apiKeyName(tx, actor.id);
  // The key authenticated this very request, so it exists; a missing one is a bug, not a user error.
  if (actorName === null) throw new Error(`listing site audit: API key ${actor.id} not found`);
  await tx.listingSiteAudit.create({
    data: {
      organizationId: site.organizationId,
      siteId: site.id,
      site: site.site,
      action: change.action,
      fields: change.fields,
      before: change.before ?? undefined,
      after: change.after ?? undefined,
      actorKind: actor.kind,
      actorId: BigInt(actor.id),
      actorName,
      requestId: context.requestId,
    },
    select: { id: true },
  });
}

type Context = WriteContext & { tenancy: Tenancy };

export async function createListingSite(input: NewListingSite, context: Context): Promise<ListingSiteView> {
  const organizationId = organizationForCreate(context.tenancy, input.organizationId, "listing site");
  if (!(await organizationExists(organizationId))) throw unknownOrganization(organizationId);
  assertAccountId(input.site, input.accountId);
  const host = input.host ?? DEFAULT_HOSTS[input.site];
  assertSitePort(host, input.port);
  await assertReachable(host);
  // Sealed before the transaction: with no SESSION_SECRET, the local setup's own secret (lib/app-secret.ts) may be read from disk.
  const password = sealPassword(input.password);
  const row = await db().$transaction(async (tx) => {
    // The organisation's row, locked: two requests at once cannot both pass the count.
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${BigInt(organizationId)} FOR UPDATE`;
    const count = await tx.listingSite.count({ where: { organizationId: BigInt(organizationId) } });
    if (count >= LISTING_SITES_PER_ORGANIZATION) {
      throw new ApiError(
        409,
        "listing_site_limit_reached",
        `An organisation can have at most ${LISTING_SITES_PER_ORGANIZATION} listing sites; delete one first.`,
      );
    }
    const created = await tx.listingSite.create({
      data: {
        organizationId: BigInt(organizationId),
        site: input.site,
        host,
        port: input.port,
        secure: input.secure,
        username: input.username,
        password,
        accountId: input.accountId ?? null,
        enabled: input.enabled,
      },
      select: PUBLIC_COLUMNS,
    });
    const fields: AuditedField[] = ["host", "port", "secure", "username", "password", ...(created.accountId ? (["accountId"] as const) : []), "enabled"];
    await recordSiteChange(tx, created, { action: "created", fields, before: null, after: settingsOf(created) }, context);
    return created;
  });
  return (await present([row]))[0]!;
}

/** The organisation condition every statement on a site carries (none for the platform). */
function owned(tenancy: Tenancy): { organizationId?: bigint } {
  const scope = organizationScope(tenancy);
  return scope === undefined ? {} : { organizationId: BigInt(scope) };
}

export async function listListingSites(tenancy: Tenancy): Promise<ListingSiteView[]> {
  const rows = await db().listingSite.findMany({ where: owned(tenancy), select: PUBLIC_COLUMNS, orderBy: { id: "asc" } });
  return present(rows);
}

export async function getListingSite(id: number, tenancy: Tenancy): Promise<ListingSiteView> {
  const row = await db().listingSite.findFirst({ where: { id: BigInt(id), ...owned(tenancy) }, select: PUBLIC_COLUMNS });
  if (!row) throw notFound("listing site", id);
  return (await present([row]))[0]!;
}

function passwordRequired(changed: string[]): ApiError {
  return new ApiError(
    400,
    "password_required",
    `Changing ${changed.join(", ")} sends the password to another server or account: give the password again in the same request.`,
    [{ field: "password", issue: `is required when ${CONNECTION_FIELDS.join(", ")} change` }],
  );
}

/** The connection fields the patch gives a value other than the row's. */
function connectionChanges(patch: ListingSitePatch, row: { host: string; port: number; secure: boolean; username: string }): string[] {
  return CONNECTION_FIELDS.filter((field) => patch[field] !== undefined && patch[field] !== row[field]);
}

export async function updateListingSite(id: number, patch: ListingSitePatch, context: Context): Promise<ListingSiteView> {
  const where = { id: BigInt(id), ...owned(context.tenancy) };
  const current = await db().listingSite.findFirst({ where, select: { site: true, accountId: true, host: true, port: true, secure: true, username: true } });
  if (!current) throw notFound("listing site", id);
  // Refused before any lookup or lock: the stored password goes only where it was given for.
  const changing = connectionChanges(patch, current);
  if (changing.length && patch.password === undefined) throw passwordRequired(changing);
  if (patch.accountId !== undefined) assertAccountId(current.site, patch.accountId);
  assertSitePort(patch.host ?? current.host, patch.port ?? current.port);
  if (patch.host !== undefined && patch.host !== current.host) await assertReachable(patch.host);
  const password = patch.password === undefined ? undefined : sealPassword(patch.password);
  await db().$transaction(async (tx) => {
    // Locked, and everything decided again on what is locked: a change that
    // committed since the read above is neither overwritten unseen nor
    // allowed to turn this request into a move of the password.
    const [locked] = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM listing_sites WHERE id = ${BigInt(id)} ${where.organizationId === undefined ? Prisma.empty : Prisma.sql`AND organization_id = ${where.organizationId}`} FOR UPDATE`;
    if (!locked) throw notFound("listing site", id);
    const row = await tx.listingSite.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { ...PUBLIC_COLUMNS } });
    const moved = connectionChanges(patch, row);
    if (moved.length && password === undefined) throw passwordRequired(moved);
    // Checked above unless it was the host then (and another request has moved the site since).
    if (patch.host !== undefined && patch.host !== row.host && patch.host === current.host) await assertReachable(patch.host);
    assertSitePort(patch.host ?? row.host, patch.port ?? row.port);
    const before = settingsOf(row);
    const after: Required<ListingSiteSettings> = {
      host: patch.host ?? row.host,
      port: patch.port ?? row.port,
      secure: patch.secure ?? row.secure,
      username: patch.username ?? row.username,
      accountId: patch.accountId === undefined ? row.accountId : patch.accountId,
      enabled: patch.enabled ?? row.enabled,
    };
    const changed = (Object.keys(after) as (keyof ListingSiteSettings)[]).filter((field) => after[field] !== before[field]);
    const data: Prisma.ListingSiteUpdateInput = { updatedAt: new Date() };
    for (const field of changed) Object.assign(data, { [field]: after[field] });
    if (password !== undefined) data.password = password;
    // Another server or account has none of the photos sent before.
    if (changed.some((field) => field === "host" || field === "username" || field === "port")) data.sentPhotos = {};
    await tx.listingSite.update({ where: { id: BigInt(id) }, data, select: { id: true } });
    const fields: AuditedField[] = [...changed, ...(password !== undefined ? (["password"] as const) : [])];
    // A request that changes nothing (the values it already has) leaves no record.
    if (fields.length) {
      const pick = (values: Required<ListingSiteSettings>) => Object.fromEntries(changed.map((field) => [field, values[field]])) as ListingSiteSettings;
      await recordSiteChange(tx, row, { action: "updated", fields, before: pick(before), after: pick(after) }, context);
    }
  });
  return getListingSite(id, context.tenancy);
}

export async function deleteListingSite(id: number, context: Context): Promise<void> {
  const scope = owned(context.tenancy).organizationId;
  await db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM listing_sites WHERE id = ${BigInt(id)} ${scope === undefined ? Prisma.empty : Prisma.sql`AND organization_id = ${scope}`} FOR UPDATE`;
    if (!row) throw notFound("listing site", id);
    const site = await tx.listingSite.delete({ where: { id: BigInt(id) }, select: PUBLIC_COLUMNS });
    await recordSiteChange(tx, site, { action: "deleted", fields: [], before: settingsOf(site), after: null }, context);
  });
}

function uploadAlreadyQueued(id: number): ApiError {
  return new ApiError(
    409,
    "upload_already_queued",
    `An upload of listing site ${id} asked for by hand is already waiting to run: follow it with GET /v1/listing-sites/${id}/uploads.`,
  );
}

/**
 * Queues an upload now (it runs on the queue, after any upload of the site
 * already running); answers with its row. One at a time: while a manual
 * upload of the site waits to run, another is 409, so repeated presses
 * cannot fill the job queue.
 */
export async function startUpload(id: number, tenancy: Tenancy): Promise<ListingUpload> {
  const scope = organizationScope(tenancy);
  const row = await db().$transaction(async (tx) => {
    // The site's row, locked: two presses at once are one after the other,
    // and the second (a statement of its own, so it sees the first's job) is refused.
    const [site] = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM listing_sites WHERE id = ${BigInt(id)} ${scope === undefined ? Prisma.empty : Prisma.sql`AND organization_id = ${BigInt(scope)}`} FOR UPDATE`;
    if (!site) throw notFound("listing site", id);
    const [waiting] = await tx.$queryRaw<{ waiting: boolean }[]>(Prisma.sql`SELECT ${manualUploadWaitingSql(Prisma.sql`${site.id}::bigint`)} AS waiting`);
    if (waiting?.waiting) throw uploadAlreadyQueued(id);
    // The row and its job in one statement: an upload asked for is never left without a job.
    const [upload] = await tx.$queryRaw<UploadRow[]>(Prisma.sql`
      WITH upload AS (
        INSERT INTO listing_uploads (site_id, reason) VALUES (${site.id}, 'manual'::"ListingUploadReason")
        RETURNING id, site_id AS "siteId", reason, started_at AS "startedAt", finished_at AS "finishedAt", outcome, animals, photos, warnings, error
      ), job AS (
        SELECT ${uploadJobSql(Prisma.sql`upload."siteId"`, { reason: "manual", delaySeconds: 0, key: "manual", uploadId: Prisma.sql`upload.id` })} AS job FROM upload
      )
      SELECT upload.*, (SELECT count(*) FROM job) AS jobs FROM upload`);
    return upload!;
  });
  return toUpload({ ...row, id: BigInt(row.id), siteId: BigInt(row.siteId) });
}

export async function listUploads(id: number, tenancy: Tenancy): Promise<ListingUpload[]> {
  const site = await db().listingSite.findFirst({ where: { id: BigInt(id), ...owned(tenancy) }, select: { id: true } });
  if (!site) throw notFound("listing site", id);
  const rows = await db().listingUpload.findMany({ where: { siteId: site.id }, orderBy: { id: "desc" }, take: UPLOADS_LISTED });
  return rows.map(toUpload);
}

/**
 * Logs in with these credentials and lists the root folder: nothing is
 * stored. Budgeted (lib/listings/uploads/test-budget.ts), the sites' own
 * hosts on their own port only, and a failure said in our words, never the
 * server's: it must be neither a password oracle nor a banner reader.
 */
export async function testConnection(input: ConnectionTestBody, caller: Caller, now: Date): Promise<ConnectionTest> {
  const host = input.host ?? DEFAULT_HOSTS[input.site];
  assertSitePort(host, input.port);
  const target = await assertReachable(host);
  await spendConnectionTest(caller, { host, address: target.address, username: input.username }, now);
  try {
    const session = await openFtp({ host, port: input.port, secure: input.secure, username: input.username, password: input.password });
    try {
      return { ok: true, entries: (await session.list("/")).slice(0, 100), error: null };
    } finally {
      session.close();
    }
  } catch (error) {
    return { ok: false, entries: [], error: describeFtpError(error).plain };
  }
}

function toHistoryEntry(row: Prisma.ListingSiteAuditGetPayload<object>): ListingSiteHistoryEntry {
  const actor: HistoryActor =
    row.actorKind === "staff"
      ? { kind: "staff", id: Number(row.actorId), email: row.actorName }
      : { kind: "api_key", id: Number(row.actorId), name: row.actorName };
  return {
    id: Number(row.id),
    at: row.createdAt.toISOString(),
    organizationId: Number(row.organizationId),
    siteId: Number(row.siteId),
    site: row.site,
    action: row.action,
    actor,
    requestId: row.requestId,
    fields: row.fields as AuditedField[],
    before: (row.before as ListingSiteSettings | null) ?? null,
    after: (row.after as ListingSiteSettings | null) ?? null,
  };
}

/** The organisation's listing-site changes (every organisation's for the platform), newest first, deleted sites' included; paged by cursor. */
export async function listSiteHistory(query: ListingSiteHistoryQuery, tenancy: Tenancy): Promise<{ entries: ListingSiteHistoryEntry[]; next?: string }> {
  const scope = owned(tenancy);
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && cursor.d !== "after") {
    throw new ApiError(400, "invalid_cursor", "The cursor is malformed. Use the URL from the previous response's Link header as it is.", [
      { field: "cursor", issue: "is not a cursor this API issued" },
    ]);
  }
  const rows = await db().listingSiteAudit.findMany({
    where: {
      ...scope,
      ...(query.siteId !== undefined ? { siteId: BigInt(query.siteId) } : {}),
      ...(cursor ? { id: { lt: BigInt(cursor.id) } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  const entries = rows.slice(0, query.limit).map(toHistoryEntry);
  const oldest = entries.at(-1);
  return { entries, ...(rows.length > query.limit && oldest ? { next: encodeCursor({ d: "after", id: oldest.id }) } : {}) };
}
