import { withApi, otherMethods } from "@/lib/http/handler";
import { newApiKeySchema } from "@/lib/keys/schemas";
import { issueApiKey, listApiKeysWithUsage } from "@/lib/keys/service";
import { organizationScope } from "@/lib/organizations/tenancy";

// GET /v1/keys - staff: every API key with today's usage (never the key itself)
export const GET = withApi({ scope: "keys:manage", tenant: "caller" }, async ({ now, caller }) => ({
  body: await listApiKeysWithUsage(now, organizationScope(caller.tenancy)),
}));

// POST /v1/keys - staff: issue a key (an organisation's staff: free, pro or business, up to 20 live keys); the key is in this response only
export const POST = withApi({ scope: "keys:manage", tenant: "caller", body: newApiKeySchema }, async ({ body, caller }) => ({
  status: 201,
  body: await issueApiKey(body, caller.tenancy),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
