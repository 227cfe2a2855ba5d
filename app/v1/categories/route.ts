import { withApi, otherMethods } from "@/lib/http/handler";
import { listCategories } from "@/lib/categories/service";

// GET /v1/categories - the categories an animal can belong to (valid categoryId values), with their colours and coat lengths
export const GET = withApi({ scope: "pets:read", tenant: "public" }, async () => ({ body: await listCategories() }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
