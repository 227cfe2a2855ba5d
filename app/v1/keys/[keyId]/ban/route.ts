import { withApi, otherMethods } from "@/lib/http/handler";
import { keyIdParamsSchema } from "@/lib/keys/schemas";
import { unbanApiKey } from "@/lib/keys/service";
import { keyOwner } from "@/lib/http/tenant";

// DELETE /v1/keys/{keyId}/ban - staff: lift a temporary ban
export const DELETE = withApi({ scope: "keys:manage", tenant: keyOwner, params: keyIdParamsSchema }, async ({ params, caller }) => ({
  body: await unbanApiKey(params.keyId, caller.tenancy),
}));

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods(["DELETE"]);
