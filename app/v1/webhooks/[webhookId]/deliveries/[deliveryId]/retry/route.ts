import { otherMethods, withApi } from "@/lib/http/handler";
import { ownerKeyId } from "@/lib/http/actor";
import { deliveryIdParamsSchema } from "@/lib/webhooks/schemas";
import { retryDelivery } from "@/lib/webhooks/service";

// POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry - attempt one delivery again now
export const POST = withApi({ scope: "webhooks:manage", tenant: "caller", params: deliveryIdParamsSchema }, async ({ caller, params }) => ({
  body: await retryDelivery(ownerKeyId(caller), params.webhookId, params.deliveryId),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
