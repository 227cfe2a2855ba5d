import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petOwner } from "@/lib/http/tenant";

import { endPlacementSchema, placementParamsSchema } from "@/lib/placements/schemas";
import { endPlacement } from "@/lib/pets/placements";

// POST /v1/pets/{petId}/placements/{placementId}/end - the animal comes back from its foster home (409 placement_ended when it has ended)
export const POST = withApi(
  { scope: "records:write", tenant: petOwner, params: placementParamsSchema, body: endPlacementSchema },
  async ({ params, body, request, caller, requestId }) => {
    const { placement, pet } = await endPlacement(params.petId, params.placementId, body, {
      ...writeContext(caller, requestId),
      expectedVersions: ifMatchVersions(request),
    });
    return { body: placement, headers: { ETag: versionEtag(pet.version) } };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
