import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Scope } from "@/lib/keys/schemas";

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

/** Locks key `keyId`'s endpoint `id` for the transaction, if the key is `organizationId`'s (undefined: any key's); whether it did. */
export async function lockEndpointOfOrganization(
  tx: Prisma.TransactionClient,
  keyId: bigint,
  id: bigint,
  organizationId: number | undefined,
): Promise<boolean> {
  const org = organizationId === undefined ? null : BigInt(organizationId);
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT w.id FROM webhook_endpoints w JOIN api_keys k ON k.id = w.api_key_id
     WHERE w.id = ${id} AND w.api_key_id = ${keyId} AND (${org}::bigint IS NULL OR k.organization_id = ${org}::bigint)
       FOR UPDATE OF w`;
  return rows.length > 0;
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

export async function updateEndpoint(id: bigint, data: Prisma.WebhookEndpointUpdateInput, client: Prisma.TransactionClient = db()): Promise<EndpointRow> {
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

/** What an attempt needs, read with its claim: the delivery, its endpoint (and its key's state) and the event. */
export interface ClaimedDelivery extends EndpointSecrets {
  id: bigint;
  endpointId: bigint;
  eventPosition: bigint;
  attempts: number;
  url: string;
  enabled: boolean;
  keyRevoked: boolean;
  /** The key's scopes and organisation now: what it is sent is decided at delivery (lib/visibility/policy.ts). */
  key: { scopes: Scope[]; organizationId: bigint | null };
  /** The event types the endpoint subscribes to now. */
  subscribed: string[];
  /** Null when the event is gone (swept). */
  event: { type: string; publicType: string | null; organizationId: bigint; data: Prisma.JsonValue; createdAt: Date } | null;
}

/** How long a claimed attempt may take before another process may take the delivery over (the attempt itself times out at 10 s). */
export const LEASE_SECONDS = 20;

/**
 * Takes deliveries for one attempt each, those that are due and free, and
 * reads what the attempts need, in one statement: a lease that expired, or
 * whose holder (a process, by its application_name) no longer has any
 * connection to the database (it died), does not count. `manual` (a retry
 * asked for through the API) does not wait for the schedule and reopens a
 * finished delivery.
 */
export async function claimDeliveries(ids: bigint[], owner: string, token: string, manual = false): Promise<ClaimedDelivery[]> {
  // On the pool directly (lib/db.ts query()): once per job of deliveries, prepared.
  const rows = await query<{
    id: string;
    endpointId: string;
    eventPosition: string;
    attempts: number;
    url: string;
    enabled: boolean;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: Date | null;
    keyRevoked: boolean;
    keyScopes: Scope[];
    keyOrganizationId: string | null;
    subscribed: string[];
    eventType: string | null;
    eventPublicType: string | null;
    eventOrganizationId: string | null;
    eventData: Prisma.JsonValue;
    eventCreatedAt: Date | null;
  }>(Prisma.sql`
    WITH claimed AS (
      UPDATE webhook_deliveries d
         SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS}), lease_owner = ${owner}, lease_token = ${token},
             status = 'pending', completed_at = NULL, enqueued_at = NULL
       WHERE d.id = ANY (${ids}::bigint[])
         AND (${manual}::boolean OR (d.status = 'pending' AND d.next_attempt_at <= now()))
         AND (d.lease_until IS NULL OR d.lease_until < now()
              OR NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = d.lease_owner))
      RETURNING d.id, d.endpoint_id, d.event_position, d.attempts
    )
    SELECT c.id, c.endpoint_id AS "endpointId", c.event_position AS "eventPosition", c.attempts,
           e.url, e.enabled, e.secret, e.previous_secret AS "previousSecret", e.previous_secret_expires_at AS "previousSecretExpiresAt",
           (k.revoked_at IS NOT NULL) AS "keyRevoked", k.scopes AS "keyScopes", k.organization_id AS "keyOrganizationId", e.events AS subscribed,
           ev.type AS "eventType", ev.public_type AS "eventPublicType", ev.organization_id AS "eventOrganizationId", ev.data AS "eventData", ev.created_at AS "eventCreatedAt"
      FROM claimed c
      JOIN webhook_endpoints e ON e.id = c.endpoint_id
      JOIN api_keys k ON k.id = e.api_key_id
      LEFT JOIN events ev ON ev.position = c.event_position`);
  return rows.map(
    ({ id, endpointId, eventPosition, eventType, eventPublicType, eventOrganizationId, eventData, eventCreatedAt, keyScopes, keyOrganizationId, ...rest }) => ({
      ...rest,
      id: BigInt(id),
      endpointId: BigInt(endpointId),
      eventPosition: BigInt(eventPosition),
      key: { scopes: keyScopes, organizationId: keyOrganizationId === null ? null : BigInt(keyOrganizationId) },
      event:
        eventType && eventCreatedAt
          ? { type: eventType, publicType: eventPublicType, organizationId: BigInt(eventOrganizationId!), data: eventData, createdAt: eventCreatedAt }
          : null,
    }),
  );
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

export interface Success {
  id: bigint;
  endpointId: bigint;
  /** Attempts made, this one included. */
  attempts: number;
  attempt: AttemptRecord;
}

/**
 * Successful attempts, in one statement however many: each attempt, each
 * delivery settled, and each endpoint's "last delivery" (written at most
 * once a second on a busy endpoint, so deliveries do not queue on its row).
 */
export async function recordSuccesses(token: string, successes: Success[]): Promise<void> {
  if (!successes.length) return;
  const rows = JSON.stringify(
    successes.map((s) => ({
      id: String(s.id),
      endpoint_id: String(s.endpointId),
      attempts: s.attempts,
      at: s.attempt.attemptedAt.toISOString(),
      duration_ms: s.attempt.durationMs,
      status_code: s.attempt.statusCode,
      body: s.attempt.responseBody,
    })),
  );
  await query(Prisma.sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${rows}::jsonb)
        AS t(id bigint, endpoint_id bigint, attempts int, at timestamptz, duration_ms int, status_code int, body text)
    ), attempt AS (
      INSERT INTO webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, response_body)
      SELECT id, at, duration_ms, status_code, body FROM input
    ), settled AS (
      -- By the ids as a parameter, so the primary key finds the rows (the
      -- planner cannot see how few rows jsonb_to_recordset gives, and would
      -- scan every delivery ever made).
      UPDATE webhook_deliveries d
         SET status = 'succeeded', attempts = i.attempts, next_attempt_at = NULL, completed_at = now(),
             lease_until = NULL, lease_owner = NULL, lease_token = NULL
        FROM input i
       WHERE d.id = ANY (${successes.map((s) => s.id)}::bigint[]) AND d.id = i.id AND d.lease_token = ${token}
    )
    UPDATE webhook_endpoints w
       SET failing_since = NULL, last_attempt_at = l.at, last_attempt_ok = true, last_status_code = l.status_code
      FROM (SELECT DISTINCT ON (endpoint_id) endpoint_id, at, status_code FROM input ORDER BY endpoint_id, at DESC) l
     WHERE w.id = l.endpoint_id
       AND (w.failing_since IS NOT NULL OR w.last_attempt_ok IS NOT TRUE OR w.last_status_code IS DISTINCT FROM l.status_code
            OR w.last_attempt_at IS NULL OR w.last_attempt_at < l.at - interval '1 second')`);
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

/** How long a queued job may take to start before its delivery is queued again. */
export const REQUEUE_AFTER_SECONDS = 30;

/**
 * Pending deliveries that are due, not held by a live process, and have no
 * recent job (none queued, or one queued long ago and never started):
 * marked as queued now, and returned to be queued. The UPDATE re-checks its
 * condition on rows another instance marks meanwhile, so each is taken once.
 */
export function markDueDeliveriesQueuedSql(take: number): Prisma.Sql {
  return Prisma.sql`
    UPDATE webhook_deliveries SET enqueued_at = now()
     WHERE id IN (
       SELECT id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND (d.enqueued_at IS NULL OR d.enqueued_at < now() - make_interval(secs => ${REQUEUE_AFTER_SECONDS}))
          AND (d.lease_until IS NULL OR d.lease_until < now()
               OR NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = d.lease_owner))
        ORDER BY d.next_attempt_at
        LIMIT ${take})
       AND status = 'pending'
       AND (enqueued_at IS NULL OR enqueued_at < now() - make_interval(secs => ${REQUEUE_AFTER_SECONDS}))
     RETURNING id`;
}
