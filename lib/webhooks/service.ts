import { outboundAllowPrivate } from "@/lib/outbound/switch";
import { randomBytes } from "node:crypto";
import { applicationName, db } from "@/lib/db";
import { newestPosition } from "@/lib/events/queries";
import { eventIdOf, type TestEvent } from "@/lib/events/schemas";
import { assertMaySubscribe, type Viewer } from "@/lib/visibility/policy";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, encodeCursor } from "@/lib/core/pagination";
import { attemptDelivery, signingSecrets } from "@/lib/webhooks/delivery";
import { disableEndpoint } from "@/lib/webhooks/failure";
import * as queries from "@/lib/webhooks/queries";
import {
  WEBHOOKS_PER_KEY,
  type Attempt,
  type Delivery,
  type ListDeliveriesQuery,
  type NewWebhook,
  type StaffWebhook,
  type TestResult,
  type WebhookEndpoint,
  type WebhookPatch,
} from "@/lib/webhooks/schemas";
import { decryptSecret, encryptSecret, generateSecret, tryDecryptSecret } from "@/lib/core/secrets";
import { logger } from "@/lib/log";
import { resealListingPasswords } from "@/lib/listings/uploads/password";
import { organizationScope, type Tenancy } from "@/lib/organizations/tenancy";
import { sendWebhook } from "@/lib/webhooks/send";
import { signDelivery } from "@/lib/webhooks/signature";
import { checkOutboundTarget, OutboundUrlError } from "@/lib/outbound/address-guard";

// The rules of webhook endpoints. An endpoint belongs to the API key that
// registered it: a key sees and changes only its own (another key's id is
// 404, as if it did not exist). Secrets leave the service twice only: when
// an endpoint is registered and when its secret is rotated.

/** How long deliveries carry a signature with the old secret after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export function toEndpoint(row: queries.EndpointRow): WebhookEndpoint {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events as WebhookEndpoint["events"],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    lastAttempt: row.lastAttemptAt ? { at: row.lastAttemptAt.toISOString(), ok: row.lastAttemptOk ?? false, statusCode: row.lastStatusCode } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Refuses a URL we would never call, with the reason, as 400 invalid_webhook_url. */
async function assertDeliverable(url: string): Promise<void> {
  try {
    await checkOutboundTarget(url, { allowPrivate: outboundAllowPrivate() });
  } catch (error) {
    if (!(error instanceof OutboundUrlError)) throw error;
    throw new ApiError(400, "invalid_webhook_url", `The webhook URL cannot be used. ${error.message}`, [{ field: "url", issue: error.message }]);
  }
}

/** `viewer`: the key registering it; what it may subscribe to is the policy's (the stays' events are records). */
export async function createWebhook(keyId: bigint, input: NewWebhook, viewer: Viewer): Promise<WebhookEndpoint & { secret: string }> {
  assertMaySubscribe(viewer, input.events);
  await assertDeliverable(input.url);
  const secret = generateSecret();
  const row = await db().$transaction(async (tx) => {
    const count = await queries.lockKeyAndCountEndpoints(tx, keyId);
    if (count >= WEBHOOKS_PER_KEY) {
      throw new ApiError(409, "webhook_limit_reached", `An API key can have at most ${WEBHOOKS_PER_KEY} webhook endpoints; delete one first.`);
    }
    return queries.insertEndpoint(tx, {
      apiKeyId: keyId,
      url: input.url,
      events: input.events,
      description: input.description || null,
      secret: encryptSecret(secret),
      // Events committed from now on; earlier ones are in the feed.
      startAfter: await newestPosition(tx),
    });
  });
  return { ...toEndpoint(row), secret };
}

export async function listWebhooks(keyId: bigint): Promise<WebhookEndpoint[]> {
  return (await queries.findEndpointsOfKey(keyId)).map(toEndpoint);
}

async function ownEndpointOrThrow(keyId: bigint, id: number): Promise<queries.EndpointRow> {
  const row = await queries.findEndpoint(keyId, BigInt(id));
  if (!row) throw notFound("webhook endpoint", id);
  return row;
}

export async function getWebhook(keyId: bigint, id: number): Promise<WebhookEndpoint> {
  return toEndpoint(await ownEndpointOrThrow(keyId, id));
}

export async function updateWebhook(keyId: bigint, id: number, patch: WebhookPatch, viewer: Viewer): Promise<WebhookEndpoint> {
  if (patch.events !== undefined) assertMaySubscribe(viewer, patch.events);
  const current = await ownEndpointOrThrow(keyId, id);
  if (patch.url !== undefined && patch.url !== current.url) await assertDeliverable(patch.url);
  return db().$transaction(async (tx) => {
    const row = await queries.updateEndpoint(
      current.id,
      {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: patch.events } : {}),
        ...(patch.description !== undefined ? { description: patch.description || null } : {}),
        // Re-enabling starts afresh: no failure record, events from now on.
        ...(patch.enabled === true && !current.enabled
          ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null, startAfter: await newestPosition(tx) }
          : {}),
        ...(patch.enabled === false && current.enabled ? { enabled: false, disabledReason: "Disabled by its owner.", disabledAt: new Date() } : {}),
      },
      tx,
    );
    if (patch.enabled === false && current.enabled) await queries.cancelPendingDeliveries(tx, current.id);
    return toEndpoint(row);
  });
}

export async function deleteWebhook(keyId: bigint, id: number): Promise<void> {
  if (!(await queries.deleteEndpoint(keyId, BigInt(id)))) throw notFound("webhook endpoint", id);
}

/** A new secret, shown once; the old one keeps signing (alongside) for 24 hours. */
export async function rotateSecret(keyId: bigint, id: number, now: Date): Promise<WebhookEndpoint & { secret: string; previousSecretExpiresAt: string }> {
  const current = await ownEndpointOrThrow(keyId, id);
  const stored = await queries.findEndpointSecrets(current.id);
  const secret = generateSecret();
  const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  // An old secret nobody can open any more (the app secret was replaced) has nothing to overlap with.
  const keepPrevious = tryDecryptSecret(stored!.secret) !== null;
  const row = await queries.updateEndpoint(current.id, {
    secret: encryptSecret(secret),
    previousSecret: keepPrevious ? stored!.secret : null,
    previousSecretExpiresAt: keepPrevious ? previousSecretExpiresAt : null,
  });
  return { ...toEndpoint(row), secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
}

function toAttempt(row: queries.DeliveryRow["attemptLog"][number]): Attempt {
  return {
    at: row.attemptedAt.toISOString(),
    durationMs: row.durationMs,
    statusCode: row.statusCode,
    error: row.error as Attempt["error"],
    errorDetail: row.errorDetail,
    responseBody: row.responseBody,
  };
}

function toDelivery(row: queries.DeliveryRow): Delivery {
  return {
    id: Number(row.id),
    eventId: eventIdOf(row.eventPosition),
    eventType: row.eventType as Delivery["eventType"],
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    attempts: row.attemptLog.map(toAttempt),
  };
}

/** Sends a signed `webhook.test` event to the endpoint now, and answers what happened. Not in the feed, not retried. */
export async function sendTestEvent(keyId: bigint, id: number, now: Date): Promise<TestResult> {
  const endpoint = await ownEndpointOrThrow(keyId, id);
  const secrets = await queries.findEndpointSecrets(endpoint.id);
  const event: TestEvent = {
    id: `evt_test_${randomBytes(8).toString("hex")}`,
    type: "webhook.test",
    createdAt: now.toISOString(),
    data: { endpointId: id, message: "A test delivery from Petstore: your endpoint is reachable and can verify our signature." },
  };
  const body = JSON.stringify(event);
  const at = new Date();
  const outcome = await sendWebhook(
    endpoint.url,
    body,
    { ...signDelivery(event.id, body, signingSecrets(secrets!, at), at) },
    { allowPrivate: outboundAllowPrivate() },
  );
  return {
    eventId: event.id,
    succeeded: outcome.ok,
    attempt: {
      at: outcome.startedAt.toISOString(),
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
      errorDetail: outcome.errorDetail,
      responseBody: outcome.responseBody,
    },
  };
}

export interface DeliveryPage {
  deliveries: Delivery[];
  next?: string;
}

/** An endpoint's deliveries, newest first, each with every attempt. */
export async function listDeliveries(keyId: bigint, id: number, query: ListDeliveriesQuery): Promise<DeliveryPage> {
  const endpoint = await ownEndpointOrThrow(keyId, id);
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && cursor.d !== "after") {
    throw new ApiError(400, "invalid_cursor", "The cursor is malformed. Use the URL from the previous response's Link header as it is.", [
      { field: "cursor", issue: "is not a cursor this API issued" },
    ]);
  }
  const rows = await queries.findDeliveryPage(endpoint.id, { beforeId: cursor?.id, take: query.limit + 1 });
  const deliveries = rows.slice(0, query.limit).map(toDelivery);
  const oldest = deliveries.at(-1);
  return { deliveries, ...(rows.length > query.limit && oldest ? { next: encodeCursor({ d: "after", id: oldest.id }) } : {}) };
}

/** Retries one delivery now (whatever its state), and answers it with the new attempt. */
export async function retryDelivery(keyId: bigint, id: number, deliveryId: number): Promise<Delivery> {
  const endpoint = await ownEndpointOrThrow(keyId, id);
  const existing = await queries.findDelivery(endpoint.id, BigInt(deliveryId));
  if (!existing) throw notFound(`Webhook endpoint ${id} has no delivery with id ${deliveryId}.`);
  const result = await attemptDelivery(existing.id, { owner: applicationName(), manual: true });
  if (result === "not_due") {
    throw new ApiError(409, "delivery_in_progress", "An attempt of this delivery is in progress. Look at its deliveries log in a few seconds.", undefined, {
      "Retry-After": "10",
    });
  }
  return toDelivery((await queries.findDelivery(endpoint.id, existing.id))!);
}

// Staff (keys:manage): every key's endpoints, and disabling one.

function toStaffWebhook(row: queries.EndpointRow & { apiKey: { name: string } }): StaffWebhook {
  return { ...toEndpoint(row), keyId: Number(row.apiKeyId), keyName: row.apiKey.name };
}

export async function listAllWebhooks(keyId?: number): Promise<StaffWebhook[]> {
  return (await queries.findAllEndpoints(keyId === undefined ? undefined : BigInt(keyId))).map(toStaffWebhook);
}

/** Staff stop deliveries to an endpoint of one of their organisation's keys (any key's, for the platform and the CLI). */
export async function disableWebhookByStaff(keyId: number, id: number, staffEmail: string, tenancy: Tenancy): Promise<StaffWebhook> {
  await db().$transaction(async (tx) => {
    // The endpoint is locked only if its key is the caller's organisation's: the check and the act are one.
    if (!(await queries.lockEndpointOfOrganization(tx, BigInt(keyId), BigInt(id), organizationScope(tenancy)))) {
      throw notFound(`API key ${keyId} has no webhook endpoint with id ${id}.`);
    }
    await disableEndpoint(tx, BigInt(id), `Disabled by staff (${staffEmail}).`);
  });
  const updated = (await queries.findAllEndpoints(BigInt(keyId))).find((r) => r.id === BigInt(id))!;
  return toStaffWebhook(updated);
}

/**
 * After a SESSION_SECRET rotation: re-encrypts every signing secret still
 * sealed under the previous one, and the listing sites' FTP passwords
 * (lib/listings/uploads/password.ts: a key of their own, the same rotation),
 * run at start by every instance (lib/worker/runner.ts); cheap when there is
 * nothing to do. Returns how many rows were sealed again.
 */
export async function resealStaleSecrets(): Promise<number> {
  const webhooks = await resealWebhookSecrets();
  return webhooks + (await resealListingPasswords());
}

async function resealWebhookSecrets(): Promise<number> {
  const rows = await db().webhookEndpoint.findMany({ select: { id: true, secret: true, previousSecret: true } });
  let resealed = 0;
  for (const row of rows) {
    let current: ReturnType<typeof decryptSecret>;
    let previous: ReturnType<typeof decryptSecret> | null;
    try {
      current = decryptSecret(row.secret);
      previous = row.previousSecret ? decryptSecret(row.previousSecret) : null;
    } catch (error) {
      // Its deliveries will fail to sign until its owner rotates the secret; the others go on.
      logger().error({ err: error, endpoint: Number(row.id) }, "a webhook secret cannot be decrypted with SESSION_SECRET or SESSION_SECRET_PREVIOUS");
      continue;
    }
    if (!current.stale && !previous?.stale) continue;
    await db().webhookEndpoint.update({
      where: { id: row.id },
      data: { secret: encryptSecret(current.secret), ...(previous ? { previousSecret: encryptSecret(previous.secret) } : {}) },
      select: { id: true },
    });
    resealed++;
  }
  return resealed;
}
