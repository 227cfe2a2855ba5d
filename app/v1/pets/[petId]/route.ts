import { withApi, otherMethods } from "@/lib/http/handler";
import { petIdParamsSchema } from "@/lib/pets/schemas";
import { getPetOrThrow } from "@/lib/pets/service";

// GET /v1/pets/{petId} - one animal (deprecated; sunset 2030-12-05, then 410)
export const GET = withApi({ scope: "pets:read", params: petIdParamsSchema, deprecated: true }, async ({ params }) => ({
  body: await getPetOrThrow(params.petId),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
