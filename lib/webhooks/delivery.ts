import { outboundAllowPrivate } from "@/lib/outbound/switch";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { toEvent } from "@/lib/events/service";
import { petView } from "@/lib/pets/present";
import { logger } from "@/lib/log";
import { decryptSecret, tryDecryptSecret } from "@/lib/core/secrets";
import { metrics } from "@/lib/metrics";
import { disableEndpoint, disableReasonFor, noteAttempt } from "@/lib/webhooks/failure";
import * as queries from "@/lib/webhooks/queries";
import { sendWebhook, type AttemptOutcome } from "@/lib/webhooks/send";
import { signDelivery } from "@/lib/webhooks/signature";
import { feedViewOf, keyViewer } from "@/lib/visibility/policy";

// Attempts of deliveries, wherever they run (a queue worker on any instance,
// or a retry asked for through the API): take the deliveries' lease, sign
// and send each event exactly as the feed serves it, then record each
// attempt and what comes next (a job's successes in one statement, a failure
// with its retry or the endpoint's disabling in one transaction). The lease makes a
// second attempt impossible while one is in flight; a crash leaves the
// lease to expire (or to be dropped as soon as the dead process's database
// connections are gone), and the receiver dedupes on `webhook-id`, which is
// the event id on every retry.

/** The secrets to sign with: the current one, and the previous one during the 24 hours after a rotation. */
export function signingSecrets(endpoint: queries.EndpointSecrets, at: Date): string[] {
  const secrets = [decryptSecret(endpoint.secret).secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at) {
    // One sealed under an app secret we no longer have only loses its overlap.
    const previous = tryDecryptSecret(endpoint.previousSecret);
    if (previous) secrets.push(previous);
  }
  return secrets;
}

/** Seconds until retry number `attempt` (1 = the first retry), with ±10 % jitter; null when the schedule is exhausted. */
export function retryDelaySeconds(attempt: number, schedule: number[] = env().WEBHOOK_RETRY_SCHEDULE, random = Math.random): number | null {
  const base = schedule[attempt - 1];
  return base === undefined ? null : base * (0.9 + 0.2 * random());
}

export interface AttemptContext {
  /** Who holds the lease: this process's application_name (lib/db.ts). */
  owner: string;
  /** Aborted on graceful shutdown: the attempt is handed back, not counted. */
  signal?: AbortSignal;
  /** A retry asked for through the API: due at once, whatever its state. */
  manual?: boolean;
}

export type AttemptResult = "not_due" | "cancelled" | "succeeded" | "failed" | "retry_scheduled" | "released";

/** A failed attempt: recorded with what comes next (a retry, or the end), and the endpoint disabled when it should be. */
async function recordFailure(claim: queries.ClaimedDelivery, token: string, outcome: AttemptOutcome): Promise<AttemptResult> {
  return db().$transaction(async (tx) => {
    const at = outcome.startedAt;
    await queries.insertAttempt(tx, claim.id, {
      attemptedAt: at,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
      errorDetail: outcome.errorDetail,
      responseBody: outcome.responseBody,
    });
    const attempts = claim.attempts + 1;
    const failingSince = await noteAttempt(tx, claim.endpointId, at, false, outcome.statusCode);
    const disable = claim.enabled && failingSince ? disableReasonFor(outcome.statusCode, failingSince, at) : null;
    const delay = claim.enabled && !disable ? retryDelaySeconds(attempts) : null;
    if (delay === null) {
      await queries.settleDelivery(tx, claim.id, token, { status: "failed", attempts, nextAttemptAt: null });
      if (disable) await disableEndpoint(tx, claim.endpointId, disable);
      return "failed";
    }
    await queries.settleDelivery(tx, claim.id, token, { status: "pending", attempts, nextAttemptAt: new Date(Date.now() + delay * 1000) });
    return "retry_scheduled";
  });
}

/** What became of one claimed delivery: settled already, or a success still to record. */
type Sent = { result: AttemptResult; success?: queries.Success; log: Record<string, unknown> };

/** One claimed delivery: sign and send the event exactly as the feed serves it; failures are recorded here, successes by the caller (in one statement). */
async function send(claim: queries.ClaimedDelivery, token: string, context: AttemptContext): Promise<Sent> {
  const log = { delivery: Number(claim.id), endpoint: Number(claim.endpointId) };
  if (!claim.event || claim.keyRevoked || (!claim.enabled && !context.manual)) {
    await db().$transaction((tx) => queries.settleDelivery(tx, claim.id, token, { status: "cancelled", attempts: claim.attempts, nextAttemptAt: null }));
    return { result: "cancelled", log };
  }
  // What the key is sent is decided now, by its scopes now (they may have
  // changed since the event was dispatched): nothing when the policy shows it
  // nothing of the event, or something the endpoint no longer subscribes to.
  // No request to take an origin from: photo URLs follow PHOTO_BASE_URL or PUBLIC_BASE_URL (root-relative without either).
  const seen = feedViewOf(keyViewer(claim.key), claim.event.organizationId);
  const event = toEvent({ position: claim.eventPosition, ...claim.event }, petView(new Date()), seen);
  if (!event || !claim.subscribed.includes(event.type)) {
    await db().$transaction((tx) => queries.settleDelivery(tx, claim.id, token, { status: "cancelled", attempts: claim.attempts, nextAttemptAt: null }));
    return { result: "cancelled", log: { ...log, withheld: true } };
  }
  const body = JSON.stringify(event);
  const at = new Date();
  let secrets: string[];
  try {
    secrets = signingSecrets(claim, at);
  } catch (error) {
    logger().error({ err: error, ...log }, "webhook secret cannot be decrypted (SESSION_SECRET replaced without SESSION_SECRET_PREVIOUS?)");
    const outcome: AttemptOutcome = {
      startedAt: at,
      durationMs: 0,
      ok: false,
      statusCode: null,
      error: "signing_error",
      errorDetail: "The endpoint's secret could not be read; rotate it.",
      responseBody: null,
    };
    return { result: await recordFailure(claim, token, outcome), log };
  }
  const headers = signDelivery(event.id, body, secrets, at);
  const outcome = await sendWebhook(claim.url, body, { ...headers }, { allowPrivate: outboundAllowPrivate(), signal: context.signal });
  const detail = { ...log, event: event.id, status: outcome.statusCode, error: outcome.error, ms: outcome.durationMs };
  if (outcome.error === "shutdown") {
    await queries.releaseDelivery(claim.id, token);
    return { result: "released", log: detail };
  }
  if (!outcome.ok) return { result: await recordFailure(claim, token, outcome), log: detail };
  const attempt = {
    attemptedAt: outcome.startedAt,
    durationMs: outcome.durationMs,
    statusCode: outcome.statusCode,
    error: null,
    errorDetail: null,
    responseBody: outcome.responseBody,
  };
  return { result: "succeeded", success: { id: claim.id, endpointId: claim.endpointId, attempts: claim.attempts + 1, attempt }, log: detail };
}

/**
 * One attempt of each of these deliveries that is due and free, side by
 * side (the claim and the successes are one statement each). Safe to call
 * twice for the same delivery (a duplicate job after a crash): the second
 * finds it held or no longer due.
 */
export async function attemptDeliveries(ids: bigint[], context: AttemptContext): Promise<Map<bigint, AttemptResult>> {
  const token = randomUUID();
  const claims = await queries.claimDeliveries(ids, context.owner, token, context.manual);
  const sent = await Promise.all(claims.map((claim) => send(claim, token, context)));
  await queries.recordSuccesses(
    token,
    sent.flatMap((s) => (s.success ? [s.success] : [])),
  );
  for (const { result, log } of sent) {
    logger().info({ ...log, result }, "webhook attempt");
    metrics().webhookAttempts.inc({ outcome: result });
  }
  const results = new Map<bigint, AttemptResult>(ids.map((id) => [id, "not_due"]));
  claims.forEach((claim, i) => results.set(claim.id, sent[i]!.result));
  return results;
}

export async function attemptDelivery(id: bigint, context: AttemptContext): Promise<AttemptResult> {
  return (await attemptDeliveries([id], context)).get(id)!;
}
