import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// Data access for webhook endpoints, deliveries and attempts. No HTTP, no
// rules; ids are bigint here and numbers above.

export const endpointColumns = {
  id: true,
  apiKeyId: true,
  url: true,
  events: true,
  description: true,
  enabled: true,
  disabledReason: true,
  failingSince: true,
  lastAttemptAt: true,
  lastAttemptOk: true,
  lastStatusCode: true,
  createdAt: true,
} as const;

export type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof endpointColumns }>;
export type EndpointSecrets = { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null };

/**
 * Locks the key's row for the rest of the transaction, so two concurrent
 * registrations cannot both see 9 endpoints and make 11; returns how many it has.
 */
export async function lockKeyAndCountEndpoints(tx: Prisma.TransactionClient, keyId: bigint): Promise<number> {
  await tx.$queryRaw`SELECT id FROM api_keys WHERE id = ${keyId} FOR UPDATE`;
  return tx.webhookEndpoint.count({ where: { apiKeyId: keyId } });
}

export async function insertEndpoint(
  tx: Prisma.TransactionClient,
  data: { apiKeyId: bigint; url: string; events: string[]; description: string | null; secret: string; startAfter: bigint },
): Promise<EndpointRow> {
  return tx.webhookEndpoint.create({ data, select: endpointColumns });
}

export async function findEndpointsOfKey(keyId: bigint): Promise<EndpointRow[]> {
  return db().webhookEndpoint.findMany({ where: { apiKeyId: keyId }, orderBy: { id: "asc" }, select: endpointColumns });
}

export async function findEndpoint(keyId: bigint, id: bigint): Promise<EndpointRow | null> {
  return db().webhookEndpoint.findFirst({ where: { id, apiKeyId: keyId }, select: endpointColumns });
}

/** Every endpoint with its key's name (staff, CLI). */
export async function findAllEndpoints(keyId?: bigint): Promise<(EndpointRow & { apiKey: { name: string } })[]> {
  return db().webhookEndpoint.findMany({
    where: keyId === undefined ? {} : { apiKeyId: keyId },
    orderBy: [{ apiKeyId: "asc" }, { id: "asc" }],
    select: { ...endpointColumns, apiKey: { select: { name: true } } },
  });
}

export async function findEndpointSecrets(id: bigint, client: Prisma.TransactionClient = db()): Promise<EndpointSecrets | null> {
  return client.webhookEndpoint.findUnique({ where: { id }, select: { secret: true, previousSecret: true, previousSecretExpiresAt: true } });
}

export async function updateEndpoint(
  id: bigint,
  data: Prisma.WebhookEndpointUpdateInput,
  client: Prisma.TransactionClient = db(),
): Promise<EndpointRow> {
  return client.webhookEndpoint.update({ where: { id }, data, select: endpointColumns });
}

export async function deleteEndpoint(keyId: bigint, id: bigint): Promise<boolean> {
  return (await db().webhookEndpoint.deleteMany({ where: { id, apiKeyId: keyId } })).count > 0;
}

/** Pending deliveries of a disabled endpoint stop: nothing more will be attempted. */
export async function cancelPendingDeliveries(client: Prisma.TransactionClient, endpointId: bigint): Promise<void> {
  await client.webhookDelivery.updateMany({
    where: { endpointId, status: "pending" },
    data: { status: "cancelled", nextAttemptAt: null, completedAt: new Date() },
  });
}

export const deliveryColumns = {
  id: true,
  eventPosition: true,
  eventType: true,
  status: true,
  createdAt: true,
  nextAttemptAt: true,
  attemptLog: {
    orderBy: { id: "asc" },
    select: { attemptedAt: true, durationMs: true, statusCode: true, error: true, errorDetail: true, responseBody: true },
  },
} as const satisfies Prisma.WebhookDeliverySelect;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliveryColumns }>;

/** An endpoint's deliveries, newest first, older than `beforeId` when given. */
export async function findDeliveryPage(endpointId: bigint, page: { beforeId?: number; take: number }): Promise<DeliveryRow[]> {
  return db().webhookDelivery.findMany({
    where: { endpointId, ...(page.beforeId !== undefined ? { id: { lt: BigInt(page.beforeId) } } : {}) },
    orderBy: { id: "desc" },
    take: page.take,
    select: deliveryColumns,
  });
}

export async function findDelivery(endpointId: bigint, id: bigint): Promise<DeliveryRow | null> {
  return db().webhookDelivery.findFirst({ where: { id, endpointId }, select: deliveryColumns });
}

/** What an attempt needs: the delivery, its endpoint (with its key's state) and the event. */
export interface ClaimedDelivery {
  id: bigint;
  endpointId: bigint;
  eventPosition: bigint;
  attempts: number;
}

/** How long a claimed attempt may take before another process may take the delivery over (the attempt itself times out at 10 s). */
export const LEASE_SECONDS = 20;

/**
 * Takes the delivery for one attempt, if it is due and nobody holds it: a
 * lease that expired, or whose holder (a process, by its application_name)
 * no longer has any connection to the database (it died), does not count.
 * `manual` (a retry asked for through the API) does not wait for the
 * schedule and reopens a finished delivery.
 */
export async function claimDelivery(id: bigint, owner: string, token: string, manual = false): Promise<ClaimedDelivery | null> {
  const rows = await db().$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries
       SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS}), lease_owner = ${owner}, lease_token = ${token},
           status = 'pending', completed_at = NULL
     WHERE id = ${id}
       AND (${manual} OR (status = 'pending' AND next_attempt_at <= now()))
       AND (lease_until IS NULL OR lease_until < now()
            OR NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = webhook_deliveries.lease_owner))
     RETURNING id, endpoint_id AS "endpointId", event_position AS "eventPosition", attempts`;
  return rows[0] ?? null;
}

export interface AttemptRecord {
  attemptedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  errorDetail: string | null;
  responseBody: string | null;
}

export async function insertAttempt(tx: Prisma.TransactionClient, deliveryId: bigint, attempt: AttemptRecord): Promise<void> {
  await tx.webhookAttempt.create({ data: { deliveryId, ...attempt }, select: { id: true } });
}

/** Ends the attempt's lease with the delivery's new state; false when the lease was lost meanwhile (another process took over). */
export async function settleDelivery(
  tx: Prisma.TransactionClient,
  id: bigint,
  token: string,
  next: { status: "pending" | "succeeded" | "failed" | "cancelled"; attempts: number; nextAttemptAt: Date | null },
): Promise<boolean> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { id, leaseToken: token },
    data: {
      status: next.status,
      attempts: next.attempts,
      nextAttemptAt: next.nextAttemptAt,
      completedAt: next.status === "pending" ? null : new Date(),
      leaseUntil: null,
      leaseOwner: null,
      leaseToken: null,
    },
  });
  return count > 0;
}

/** Hands a delivery back without counting an attempt (the process is stopping): another may take it at once. */
export async function releaseDelivery(id: bigint, token: string): Promise<void> {
  await db().webhookDelivery.updateMany({
    where: { id, leaseToken: token },
    data: { leaseUntil: null, leaseOwner: null, leaseToken: null, nextAttemptAt: new Date() },
  });
}

/** The endpoint and key state an attempt depends on. */
export async function findEndpointForDelivery(
  client: Prisma.TransactionClient,
  id: bigint,
): Promise<(EndpointSecrets & { url: string; enabled: boolean; failingSince: Date | null; keyRevoked: boolean }) | null> {
  const row = await client.webhookEndpoint.findUnique({
    where: { id },
    select: { url: true, enabled: true, failingSince: true, secret: true, previousSecret: true, previousSecretExpiresAt: true, apiKey: { select: { revokedAt: true } } },
  });
  if (!row) return null;
  const { apiKey, ...rest } = row;
  return { ...rest, keyRevoked: apiKey.revokedAt !== null };
}

/** Pending deliveries that are due and not held by a live process: the ones whose wake-up job may have been lost. */
export async function findDueDeliveries(take: number): Promise<bigint[]> {
  const rows = await db().$queryRaw<{ id: bigint }[]>`
    SELECT id FROM webhook_deliveries
     WHERE status = 'pending' AND next_attempt_at <= now()
       AND (lease_until IS NULL OR lease_until < now()
            OR NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = webhook_deliveries.lease_owner))
     ORDER BY next_attempt_at
     LIMIT ${take}`;
  return rows.map((r) => r.id);
}
