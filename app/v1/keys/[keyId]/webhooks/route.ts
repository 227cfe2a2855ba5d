import { otherMethods, withApi } from "@/lib/http/handler";
import { keyIdParamsSchema } from "@/lib/keys/schemas";
import { listAllWebhooks } from "@/lib/webhooks/service";
import { keyOwner } from "@/lib/http/tenant";

// GET /v1/keys/{keyId}/webhooks - staff: a key's webhook endpoints and their state
export const GET = withApi({ scope: "keys:manage", tenant: keyOwner, params: keyIdParamsSchema }, async ({ params }) => ({
  body: await listAllWebhooks(params.keyId),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
