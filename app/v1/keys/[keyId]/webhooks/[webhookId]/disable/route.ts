import { otherMethods, withApi } from "@/lib/http/handler";
import { staffOf } from "@/lib/http/actor";
import { keyWebhookParamsSchema } from "@/lib/webhooks/schemas";
import { disableWebhookByStaff } from "@/lib/webhooks/service";
import { keyOwner } from "@/lib/http/tenant";

// POST /v1/keys/{keyId}/webhooks/{webhookId}/disable - staff: stop deliveries to an endpoint (its owner can resume them)
export const POST = withApi({ scope: "keys:manage", tenant: keyOwner, params: keyWebhookParamsSchema }, async ({ caller, params }) => ({
  body: await disableWebhookByStaff(params.keyId, params.webhookId, staffOf(caller).email, caller.tenancy),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
