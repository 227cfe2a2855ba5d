import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/errors";
import { organizationExists } from "@/lib/organizations/queries";
import { organizationForCreate, organizationScope, unknownOrganization, type Tenancy } from "@/lib/organizations/tenancy";
import type { ListingSite } from "@/lib/listings/sites";
import { checkFtpHost, describeFtpError, openFtp } from "@/lib/listings/uploads/ftp";
import { uploadJobSql } from "@/lib/listings/uploads/jobs";
import {
  DEFAULT_HOSTS,
  LISTING_SITES_PER_ORGANIZATION,
  NEEDS_ACCOUNT_ID,
  UPLOADS_LISTED,
  type ConnectionTest,
  type ConnectionTestBody,
  type ListingSitePatch,
  type ListingSiteView,
  type ListingUpload,
  type NewListingSite,
} from "@/lib/listings/uploads/schemas";
import { buildSnapshot, etagOfBytes } from "@/lib/listings/uploads/snapshot";
import { encryptSecret } from "@/lib/webhooks/secrets";
import { OutboundUrlError } from "@/lib/outbound/address-guard";

// The rules of listing sites. A site belongs to an organisation: its staff
// and its keys with listings:manage see and change only their own (the
// wrapper refuses another's with 403, lib/http/tenant.ts), and every write
// names the organisation again in the statement that changes the row. The
// password goes in sealed and never comes out of this file but to the FTP
// connection (lib/listings/uploads/run.ts).

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

function notFound(id: number): ApiError {
  return new ApiError(404, "not_found", `There is no listing site with id ${id}.`);
}

/** Refuses a host we would never connect to (the same guard as webhooks), as 400 invalid_listing_host. */
async function assertReachable(host: string): Promise<void> {
  try {
    await checkFtpHost(host);
  } catch (error) {
    if (!(error instanceof OutboundUrlError)) throw error;
    const message = error.message;
    throw new ApiError(400, "invalid_listing_host", `The FTP host cannot be used. ${message}`, [{ field: "host", issue: message }]);
  }
}

function assertAccountId(site: ListingSite, accountId: string | null | undefined): void {
  if (NEEDS_ACCOUNT_ID[site] && !accountId) {
    const what = site === "petfinder" ? "Petfinder's shelter ID (the file on the server is named after it)" : "RescueGroups' orgID (every row carries it)";
    throw new ApiError(400, "invalid_body", `This site needs accountId: ${what}.`, [{ field: "accountId", issue: `is required for ${site}` }]);
  }
  if (!NEEDS_ACCOUNT_ID[site] && accountId) {
    throw new ApiError(400, "invalid_body", "Adopt-a-Pet takes no account id: its FTP user name is the account.", [{ field: "accountId", issue: "is not used by adoptapet" }]);
  }
}

export async function createListingSite(input: NewListingSite, tenancy: Tenancy): Promise<ListingSiteView> {
  const organizationId = organizationForCreate(tenancy, input.organizationId, "listing site");
  if (!(await organizationExists(organizationId))) throw unknownOrganization(organizationId);
  assertAccountId(input.site, input.accountId);
  const host = input.host ?? DEFAULT_HOSTS[input.site];
  await assertReachable(host);
  const row = await db().$transaction(async (tx) => {
    // The organisation's row, locked: two requests at once cannot both pass the count.
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${BigInt(organizationId)} FOR UPDATE`;
    const count = await tx.listingSite.count({ where: { organizationId: BigInt(organizationId) } });
    if (count >= LISTING_SITES_PER_ORGANIZATION) {
      throw new ApiError(409, "listing_site_limit_reached", `An organisation can have at most ${LISTING_SITES_PER_ORGANIZATION} listing sites; delete one first.`);
    }
    return tx.listingSite.create({
      data: {
        organizationId: BigInt(organizationId),
        site: input.site,
        host,
        port: input.port,
        secure: input.secure,
        username: input.username,
        password: encryptSecret(input.password),
        accountId: input.accountId ?? null,
        enabled: input.enabled,
      },
      select: PUBLIC_COLUMNS,
    });
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
  if (!row) throw notFound(id);
  return (await present([row]))[0]!;
}

export async function updateListingSite(id: number, patch: ListingSitePatch, tenancy: Tenancy): Promise<ListingSiteView> {
  const current = await db().listingSite.findFirst({ where: { id: BigInt(id), ...owned(tenancy) }, select: { site: true, accountId: true } });
  if (!current) throw notFound(id);
  if (patch.accountId !== undefined) assertAccountId(current.site, patch.accountId);
  if (patch.host !== undefined) await assertReachable(patch.host);
  const data: Prisma.ListingSiteUpdateManyMutationInput = { updatedAt: new Date() };
  if (patch.host !== undefined) data.host = patch.host;
  if (patch.port !== undefined) data.port = patch.port;
  if (patch.secure !== undefined) data.secure = patch.secure;
  if (patch.username !== undefined) data.username = patch.username;
  if (patch.password !== undefined) data.password = encryptSecret(patch.password);
  if (patch.accountId !== undefined) data.accountId = patch.accountId;
  if (patch.enabled !== undefined) data.enabled = patch.enabled;
  // Another server or account has none of the photos sent before.
  if (patch.host !== undefined || patch.username !== undefined || patch.port !== undefined) data.sentPhotos = {};
  const { count } = await db().listingSite.updateMany({ where: { id: BigInt(id), ...owned(tenancy) }, data });
  if (count === 0) throw notFound(id);
  return getListingSite(id, tenancy);
}

export async function deleteListingSite(id: number, tenancy: Tenancy): Promise<void> {
  const { count } = await db().listingSite.deleteMany({ where: { id: BigInt(id), ...owned(tenancy) } });
  if (count === 0) throw notFound(id);
}

/** Queues an upload now (it runs on the queue, after any upload of the site already running); answers with its row. */
export async function startUpload(id: number, tenancy: Tenancy): Promise<ListingUpload> {
  const scope = organizationScope(tenancy);
  // The row and its job in one statement: an upload asked for is never left without a job.
  const [row] = await query<UploadRow>(Prisma.sql`
    WITH site AS (
      SELECT id FROM listing_sites WHERE id = ${BigInt(id)} ${scope === undefined ? Prisma.empty : Prisma.sql`AND organization_id = ${BigInt(scope)}`}
    ), upload AS (
      INSERT INTO listing_uploads (site_id, reason) SELECT id, 'manual'::"ListingUploadReason" FROM site
      RETURNING id, site_id AS "siteId", reason, started_at AS "startedAt", finished_at AS "finishedAt", outcome, animals, photos, warnings, error
    ), job AS (
      SELECT ${uploadJobSql(Prisma.sql`upload."siteId"`, { reason: "manual", delaySeconds: 0, key: "manual", uploadId: Prisma.sql`upload.id` })} AS job FROM upload
    )
    SELECT upload.*, (SELECT count(*) FROM job) AS jobs FROM upload`);
  if (!row) throw notFound(id);
  return toUpload({ ...row, id: BigInt(row.id), siteId: BigInt(row.siteId) });
}

export async function listUploads(id: number, tenancy: Tenancy): Promise<ListingUpload[]> {
  const site = await db().listingSite.findFirst({ where: { id: BigInt(id), ...owned(tenancy) }, select: { id: true } });
  if (!site) throw notFound(id);
  const rows = await db().listingUpload.findMany({ where: { siteId: site.id }, orderBy: { id: "desc" }, take: UPLOADS_LISTED });
  return rows.map(toUpload);
}

/** Logs in with these credentials and lists the root folder: nothing is stored. */
export async function testConnection(input: ConnectionTestBody): Promise<ConnectionTest> {
  const host = input.host ?? DEFAULT_HOSTS[input.site];
  await assertReachable(host);
  try {
    const session = await openFtp({ host, port: input.port, secure: input.secure, username: input.username, password: input.password });
    try {
      return { ok: true, entries: (await session.list("/")).slice(0, 100), error: null };
    } finally {
      session.close();
    }
  } catch (error) {
    return { ok: false, entries: [], error: describeFtpError(error).message };
  }
}

/** The pull feed: the file an upload to this organisation's `site` would send now, and its ETag. */
export async function listingFeed(organizationId: number, site: ListingSite, now: Date): Promise<{ bytes: Buffer; etag: string }> {
  if (!(await organizationExists(organizationId))) throw new ApiError(404, "not_found", `There is no organisation with id ${organizationId}.`);
  // The account id the organisation's own upload uses (RescueGroups' orgID is in every row).
  const account = await db().listingSite.findFirst({
    where: { organizationId: BigInt(organizationId), site },
    orderBy: [{ enabled: "desc" }, { id: "asc" }],
    select: { accountId: true },
  });
  const snapshot = await buildSnapshot(organizationId, site, account?.accountId ?? null, now);
  return { bytes: snapshot.file.bytes, etag: etagOfBytes(snapshot.file.bytes) };
}
