import { withApi, otherMethods } from "@/lib/http/handler";
import { openApiDocument } from "@/lib/openapi/document";

// GET /v1/openapi.json - the OpenAPI 3.1 contract, generated from the zod schemas (public)
export const GET = withApi({ scope: null, tenant: "public" }, ({ url }) => ({ body: openApiDocument(url.origin) }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
