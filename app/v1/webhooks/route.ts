import { otherMethods, withApi } from "@/lib/http/handler";
import { ownerKeyId } from "@/lib/http/actor";
import { newWebhookSchema } from "@/lib/webhooks/schemas";
import { createWebhook, listWebhooks } from "@/lib/webhooks/service";
import { viewerOf } from "@/lib/visibility/policy";

// GET /v1/webhooks - this key's webhook endpoints
export const GET = withApi({ scope: "webhooks:manage", tenant: "caller" }, async ({ caller }) => ({ body: await listWebhooks(ownerKeyId(caller)) }));

// POST /v1/webhooks - register an endpoint; its signing secret is in this answer only
export const POST = withApi({ scope: "webhooks:manage", tenant: "caller", body: newWebhookSchema }, async ({ caller, body, url }) => {
  const endpoint = await createWebhook(ownerKeyId(caller), body, viewerOf(caller));
  return { status: 201, body: endpoint, headers: { Location: new URL(`${url.pathname}/${endpoint.id}`, url).toString() } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
