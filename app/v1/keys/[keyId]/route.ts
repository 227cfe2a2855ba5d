import { withApi, otherMethods } from "@/lib/http/handler";
import { keyIdParamsSchema } from "@/lib/keys/schemas";
import { revokeApiKey } from "@/lib/keys/service";
import { keyOwner } from "@/lib/http/tenant";

// DELETE /v1/keys/{keyId} - staff: revoke a key (401 for it from then on)
export const DELETE = withApi({ scope: "keys:manage", tenant: keyOwner, params: keyIdParamsSchema }, async ({ params, caller }) => ({
  body: await revokeApiKey(params.keyId, caller.tenancy),
}));

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods(["DELETE"]);
