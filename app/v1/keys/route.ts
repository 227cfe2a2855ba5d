import { withApi, otherMethods } from "@/lib/http/handler";
import { newApiKeySchema } from "@/lib/keys/schemas";
import { createApiKey, listApiKeysWithUsage } from "@/lib/keys/service";

// GET /v1/keys - staff: every API key with today's usage (never the key itself)
export const GET = withApi({ scope: "keys:manage" }, async ({ now }) => ({ body: await listApiKeysWithUsage(now) }));

// POST /v1/keys - staff: issue a key; the key is in this response only
export const POST = withApi({ scope: "keys:manage", body: newApiKeySchema }, async ({ body }) => ({
  status: 201,
  body: await createApiKey(body),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
