import { z } from "zod";
import { queryInteger } from "@/lib/core/schemas";

export const categoryIdParamsSchema = z.object({
  categoryId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the category.", example: 1 }),
});
