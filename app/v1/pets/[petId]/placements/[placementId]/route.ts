import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petOwner } from "@/lib/http/tenant";

import { placementParamsSchema, placementPatchSchema } from "@/lib/placements/schemas";
import { correctPlacement } from "@/lib/pets/placements";

// PATCH /v1/pets/{petId}/placements/{placementId} - correct a placement's dates, expected end or note
export const PATCH = withApi(
  { scope: "records:write", tenant: petOwner, params: placementParamsSchema, body: placementPatchSchema },
  async ({ params, body, request, caller, requestId }) => {
    const { placement, pet } = await correctPlacement(params.petId, params.placementId, body, {
      ...writeContext(caller, requestId),
      expectedVersions: ifMatchVersions(request),
    });
    return { body: placement, headers: { ETag: versionEtag(pet.version) } };
  },
);

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods(["PATCH"]);
