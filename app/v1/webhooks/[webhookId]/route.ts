import { otherMethods, withApi } from "@/lib/http/handler";
import { ownerKeyId } from "@/lib/http/actor";
import { webhookIdParamsSchema, webhookPatchSchema } from "@/lib/webhooks/schemas";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/service";
import { viewerOf } from "@/lib/visibility/policy";

// GET /v1/webhooks/{webhookId} - one of this key's endpoints
export const GET = withApi({ scope: "webhooks:manage", tenant: "caller", params: webhookIdParamsSchema }, async ({ caller, params }) => ({
  body: await getWebhook(ownerKeyId(caller), params.webhookId),
}));

// PATCH /v1/webhooks/{webhookId} - change its URL, events, description, or pause and resume it
export const PATCH = withApi(
  { scope: "webhooks:manage", tenant: "caller", params: webhookIdParamsSchema, body: webhookPatchSchema },
  async ({ caller, params, body }) => ({
    body: await updateWebhook(ownerKeyId(caller), params.webhookId, body, viewerOf(caller)),
  }),
);

// DELETE /v1/webhooks/{webhookId} - remove it with its deliveries log
export const DELETE = withApi({ scope: "webhooks:manage", tenant: "caller", params: webhookIdParamsSchema }, async ({ caller, params }) => {
  await deleteWebhook(ownerKeyId(caller), params.webhookId);
  return { status: 204 };
});

export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
