import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Plan } from "@/lib/keys/plans";

const keyColumns = {
  id: true,
  name: true,
  prefix: true,
  last4: true,
  plan: true,
  scopes: true,
  perMinute: true,
  perDay: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  bannedUntil: true,
  organizationId: true,
} as const;

export type ApiKeyRow = {
  id: bigint;
  name: string;
  prefix: string;
  last4: string;
  plan: Plan;
  scopes: string[];
  perMinute: number | null;
  perDay: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  bannedUntil: Date | null;
  /** null: a platform key. */
  organizationId: bigint | null;
};

export async function insertApiKey(
  data: {
    name: string;
    prefix: string;
    hash: string;
    last4: string;
    plan: Plan;
    scopes: string[];
    perMinute?: number;
    perDay?: number;
    organizationId: bigint | null;
  },
  client: Prisma.TransactionClient = db(),
): Promise<ApiKeyRow> {
  return client.apiKey.create({ data, select: keyColumns });
}

/**
 * Locks the organisation's row until the transaction ends (FOR NO KEY
 * UPDATE: inserts that only reference it, its animals', are not held up),
 * so that two keys issued at once are counted one after the other; returns
 * how many live keys it has.
 */
export async function lockOrganizationAndCountLiveKeys(tx: Prisma.TransactionClient, organizationId: bigint): Promise<number> {
  await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`;
  return tx.apiKey.count({ where: { organizationId, revokedAt: null } });
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRow | null> {
  return db().apiKey.findUnique({ where: { hash }, select: keyColumns });
}

export async function findApiKeyById(id: number): Promise<ApiKeyRow | null> {
  return db().apiKey.findUnique({ where: { id: BigInt(id) }, select: keyColumns });
}

/** Newest first; one organisation's (with `organizationId`) or every key. */
export async function findApiKeys(organizationId?: number): Promise<ApiKeyRow[]> {
  return db().apiKey.findMany({
    where: organizationId === undefined ? {} : { organizationId: BigInt(organizationId) },
    orderBy: { id: "desc" },
    select: keyColumns,
  });
}

/**
 * Changes key `id` if it is one of `organizationId`'s (undefined: any key, for
 * the platform) and, with `liveOnly`, not revoked: the tenancy check is part
 * of the UPDATE. The row after, or null when nothing matched.
 */
export async function updateApiKey(
  id: number,
  data: Partial<Pick<ApiKeyRow, "plan" | "perMinute" | "perDay" | "revokedAt" | "bannedUntil">>,
  scope: { organizationId: number | undefined; liveOnly?: boolean },
): Promise<ApiKeyRow | null> {
  const { count } = await db().apiKey.updateMany({
    where: {
      id: BigInt(id),
      ...(scope.organizationId !== undefined ? { organizationId: BigInt(scope.organizationId) } : {}),
      ...(scope.liveOnly ? { revokedAt: null } : {}),
    },
    data,
  });
  return count ? findApiKeyById(id) : null;
}

/**
 * Bans the key until `until` unless this rate-limit window already banned it
 * (in force, or since lifted by staff): repeating the write is harmless, and
 * a lifted ban is not written again by the same minute's counts. Returns the
 * ban in force afterwards (null: none).
 */
export async function banApiKeyOnce(id: bigint, until: Date, now: Date, windowStart: Date): Promise<Date | null> {
  await db().apiKey.updateMany({
    where: { id, OR: [{ lastBannedAt: null }, { lastBannedAt: { lt: windowStart } }] },
    data: { bannedUntil: until, lastBannedAt: now },
  });
  const row = await db().apiKey.findUnique({ where: { id }, select: { bannedUntil: true } });
  return row?.bannedUntil && row.bannedUntil > now ? row.bannedUntil : null;
}

/**
 * Records use at most once a minute per key, whatever the traffic: the
 * condition makes every other call a no-op, even across app instances.
 */
export async function touchApiKey(id: bigint): Promise<void> {
  await db().$executeRaw`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
}
