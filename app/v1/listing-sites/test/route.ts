import { otherMethods, withApi } from "@/lib/http/handler";
import { connectionTestBodySchema } from "@/lib/listings/uploads/schemas";
import { testConnection } from "@/lib/listings/uploads/service";

// POST /v1/listing-sites/test - log in with these credentials and list the folder, before saving them (budgeted; failures in our words only)
export const POST = withApi({ scope: "listings:manage", tenant: "caller", body: connectionTestBodySchema }, async ({ body, caller, now }) => ({
  body: await testConnection(body, caller, now),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
