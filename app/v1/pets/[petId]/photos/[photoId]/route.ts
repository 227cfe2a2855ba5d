import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { deletePhoto, updatePhotoAlt } from "@/lib/photos/service";
import { petView } from "@/lib/pets/present";
import { photoParamsSchema, photoPatchSchema } from "@/lib/pets/schemas/params";

import { petOwner } from "@/lib/http/tenant";

// DELETE /v1/pets/{petId}/photos/{photoId} - remove a photo (its files go too)
export const DELETE = withApi(
  { scope: "pets:write", tenant: petOwner, params: photoParamsSchema },
  async ({ params, request, caller, requestId, now, url }) => {
    const pet = await deletePhoto(params.petId, params.photoId, {
      ...writeContext(caller, requestId),
      expectedVersions: ifMatchVersions(request),
      view: petView(now, url.origin),
    });
    return { status: 204, headers: { ETag: versionEtag(pet.version) } };
  },
);

// PATCH /v1/pets/{petId}/photos/{photoId} - change a photo's alt text
export const PATCH = withApi(
  { scope: "pets:write", tenant: petOwner, params: photoParamsSchema, body: photoPatchSchema },
  async ({ params, body, request, caller, requestId, now, url }) => {
    const { photo, pet } = await updatePhotoAlt(params.petId, params.photoId, body.alt, {
      ...writeContext(caller, requestId),
      expectedVersions: ifMatchVersions(request),
      view: petView(now, url.origin),
    });
    return { body: photo, headers: { ETag: versionEtag(pet.version) } };
  },
);

export const { GET, POST, PUT, OPTIONS } = otherMethods(["PATCH", "DELETE"]);
