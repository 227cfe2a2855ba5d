import { otherMethods, withApi } from "@/lib/http/handler";
import { connectionTestBodySchema } from "@/lib/listings/uploads/schemas";
import { testConnection } from "@/lib/listings/uploads/service";

// POST /v1/listing-sites/test - log in with these credentials and list the folder, before saving them
export const POST = withApi({ scope: "listings:manage", tenant: "caller", body: connectionTestBodySchema }, async ({ body }) => ({ body: await testConnection(body) }));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
