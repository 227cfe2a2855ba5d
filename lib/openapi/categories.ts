import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { COMMON_HEADERS, commonErrors, errorResponse } from "@/lib/openapi/builders";
import { categoryIdParamsSchema } from "@/lib/categories/schemas";
import { categoryBreedsSchema } from "@/lib/pets/schemas/vocabulary";
import { categoriesSchema } from "@/lib/pets/schemas/pet";

// Categories in the contract: the list (with each category's colours and
// coat lengths) and a category's breeds in the listing sites' words.

export function registerCategories(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  registry.registerPath({
    method: "get",
    path: "/categories",
    operationId: "listCategories",
    summary: "List categories",
    description:
      "The categories an animal can belong to; their ids are the valid `categoryId` values. Each lists the colours and coat lengths its animals are described with, as the listing sites (Petfinder, Adopt-a-Pet, RescueGroups) take them.",
    tags: ["categories"],
    security,
    responses: {
      200: { description: "All categories.", headers: COMMON_HEADERS, content: { "application/json": { schema: categoriesSchema } } },
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/categories/{categoryId}/breeds",
    operationId: "listCategoryBreeds",
    summary: "List a category's breeds",
    description:
      "The breeds the listing sites know for this category's animals, by name: `name` is ours (offer it as an animal's `breed`), with Petfinder's, Adopt-a-Pet's and RescueGroups' own names. A breed not in the list is still allowed on an animal; the listing sites are then sent the category's mixed or unknown breed. Empty for a category the listing sites have no words for.",
    tags: ["categories"],
    security,
    request: { params: categoryIdParamsSchema },
    responses: {
      200: { description: "The category's breeds.", headers: COMMON_HEADERS, content: { "application/json": { schema: categoryBreedsSchema } } },
      400: errorResponse(400, ["invalid_path"]),
      404: errorResponse(404, ["not_found"], {}, "There is no category with this id."),
      ...commonErrors(),
    },
  });
}
