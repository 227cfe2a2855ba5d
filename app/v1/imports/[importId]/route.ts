import { otherMethods, withApi } from "@/lib/http/handler";
import { importOwner } from "@/lib/http/tenant";
import { importIdParamsSchema } from "@/lib/imports/schemas";
import { getImport } from "@/lib/imports/service";
import { organizationScope } from "@/lib/organizations/tenancy";

// GET /v1/imports/{importId} - one import: its status, counts, rejected rows and preview (poll it while it runs)
export const GET = withApi({ scope: "pets:write", tenant: importOwner, params: importIdParamsSchema }, async ({ params, caller }) => ({
  body: await getImport(params.importId, organizationScope(caller.tenancy)),
  headers: { "Cache-Control": "no-store" },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
