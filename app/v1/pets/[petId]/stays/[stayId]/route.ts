import { closeApplicationsOfAnimalLeavingCare } from "@/lib/applications/service";
import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petOwner } from "@/lib/http/tenant";

import { stayParamsSchema, stayPatchSchema } from "@/lib/stays/schemas";
import { correctStay } from "@/lib/pets/stays";

// PATCH /v1/pets/{petId}/stays/{stayId} - correct a date, type or subtype of the stay's intake or outcome
export const PATCH = withApi(
  { scope: "records:write", tenant: petOwner, params: stayParamsSchema, body: stayPatchSchema },
  async ({ params, body, request, caller, requestId }) => {
    const { stay, pet } = await correctStay(
      params.petId,
      params.stayId,
      body,
      { ...writeContext(caller, requestId), expectedVersions: ifMatchVersions(request) },
      closeApplicationsOfAnimalLeavingCare,
    );
    return { body: stay, headers: { ETag: versionEtag(pet.version) } };
  },
);

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods(["PATCH"]);
