import { otherMethods, withApi } from "@/lib/http/handler";
import { ownerKeyId } from "@/lib/http/actor";
import { webhookIdParamsSchema } from "@/lib/webhooks/schemas";
import { rotateSecret } from "@/lib/webhooks/service";

// POST /v1/webhooks/{webhookId}/rotate-secret - a new signing secret (shown once); the old one signs too for 24 hours
export const POST = withApi({ scope: "webhooks:manage", tenant: "caller", params: webhookIdParamsSchema }, async ({ caller, params, now }) => ({
  body: await rotateSecret(ownerKeyId(caller), params.webhookId, now),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
