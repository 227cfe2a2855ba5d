import { otherMethods, withApi } from "@/lib/http/handler";
import { ownerKeyId } from "@/lib/http/actor";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { listDeliveriesQuerySchema, webhookIdParamsSchema } from "@/lib/webhooks/schemas";
import { listDeliveries } from "@/lib/webhooks/service";

// GET /v1/webhooks/{webhookId}/deliveries - the deliveries log, newest first, every attempt of each
export const GET = withApi(
  { scope: "webhooks:manage", tenant: "caller", params: webhookIdParamsSchema, query: listDeliveriesQuerySchema },
  async ({ caller, params, query, url }) => {
    const { deliveries, next } = await listDeliveries(ownerKeyId(caller), params.webhookId, query);
    return { body: deliveries, headers: { Link: linkHeader({ next: next && withCursor(url, next) }) } };
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
