import type { Prisma } from "@/lib/generated/prisma/client";
import * as queries from "@/lib/webhooks/queries";

// When an endpoint stops receiving: a 410 from the receiver says "this
// endpoint is gone" (Standard Webhooks), and three days of nothing but
// failures means nobody is listening. Either disables it, with the reason
// kept for its owner and for staff; its pending deliveries are cancelled
// (the feed still has every event for when it comes back).

export const FAILING_DAYS_BEFORE_DISABLE = 3;

export function disableReasonFor(statusCode: number | null, failingSince: Date, at: Date): string | null {
  if (statusCode === 410) return "The receiver answered 410 Gone.";
  if (at.getTime() - failingSince.getTime() >= FAILING_DAYS_BEFORE_DISABLE * 86_400_000) {
    return `Every delivery attempt failed for ${FAILING_DAYS_BEFORE_DISABLE} days (since ${failingSince.toISOString()}).`;
  }
  return null;
}

export async function disableEndpoint(client: Prisma.TransactionClient, endpointId: bigint, reason: string): Promise<void> {
  await client.webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true },
    data: { enabled: false, disabledReason: reason, disabledAt: new Date() },
  });
  await queries.cancelPendingDeliveries(client, endpointId);
}

/** Records one attempt's result on its endpoint; returns since when it has been failing (null after a success). */
export async function noteAttempt(
  client: Prisma.TransactionClient,
  endpointId: bigint,
  at: Date,
  ok: boolean,
  statusCode: number | null,
): Promise<Date | null> {
  const rows = await client.$queryRaw<{ failingSince: Date | null }[]>`
    UPDATE webhook_endpoints
       SET failing_since = CASE WHEN ${ok} THEN NULL ELSE COALESCE(failing_since, ${at}) END,
           last_attempt_at = ${at}, last_attempt_ok = ${ok}, last_status_code = ${statusCode}
     WHERE id = ${endpointId}
     RETURNING failing_since AS "failingSince"`;
  return rows[0]?.failingSince ?? null;
}
