import { otherMethods, withApi } from "@/lib/http/handler";
import { ownerKeyId } from "@/lib/http/actor";
import { webhookIdParamsSchema } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/service";

// POST /v1/webhooks/{webhookId}/test - send a signed webhook.test event now and answer what the receiver did
export const POST = withApi({ scope: "webhooks:manage", tenant: "caller", params: webhookIdParamsSchema }, async ({ caller, params, now }) => ({
  body: await sendTestEvent(ownerKeyId(caller), params.webhookId, now),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
