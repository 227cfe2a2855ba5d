import { withApi, otherMethods } from "@/lib/http/handler";
import { categoryIdParamsSchema } from "@/lib/categories/schemas";
import { listCategoryBreeds } from "@/lib/categories/service";

// GET /v1/categories/{categoryId}/breeds - the category's breeds as the listing sites name them (for a form's suggestions and partners)
export const GET = withApi({ scope: "pets:read", tenant: "public", params: categoryIdParamsSchema }, async ({ params }) => ({
  body: await listCategoryBreeds(params.categoryId),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
