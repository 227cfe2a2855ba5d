import { closeApplicationsOfAnimalLeavingCare } from "@/lib/applications/service";
import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petOwner } from "@/lib/http/tenant";

import { outcomeInputSchema, stayParamsSchema } from "@/lib/stays/schemas";
import { endStay } from "@/lib/pets/stays";

// POST /v1/pets/{petId}/stays/{stayId}/outcome - end the stay: adoption makes the animal sold, any other outcome takes it out of care and closes its applications (409 stay_ended when it has ended)
export const POST = withApi(
  { scope: "records:write", tenant: petOwner, params: stayParamsSchema, body: outcomeInputSchema },
  async ({ params, body, request, caller, requestId }) => {
    const { stay, pet } = await endStay(
      params.petId,
      params.stayId,
      body,
      { ...writeContext(caller, requestId), expectedVersions: ifMatchVersions(request) },
      closeApplicationsOfAnimalLeavingCare,
    );
    return { body: stay, headers: { ETag: versionEtag(pet.version) } };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
