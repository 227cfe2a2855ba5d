import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { validationError } from "@/lib/core/errors";
import { otherMethods, withApi } from "@/lib/http/handler";
import { readPhotoUpload } from "@/lib/http/upload";
import { addPhoto } from "@/lib/photos/service";
import { petView } from "@/lib/pets/present";
import { petIdParamsSchema, photoUploadQuerySchema } from "@/lib/pets/schemas/params";

import { petOwner } from "@/lib/http/tenant";

// POST /v1/pets/{petId}/photos - add a photo (multipart field `file` + `alt`, or the image as the body with ?alt=)
export const POST = withApi(
  { scope: "pets:write", tenant: petOwner, params: petIdParamsSchema, query: photoUploadQuerySchema },
  async ({ params, query, request, caller, requestId, now, url }) => {
    const upload = await readPhotoUpload(request);
    // The form's field parsed as an object, so that a refusal names `alt` as the query's does.
    const alt = upload.alt === undefined ? (query.alt ?? null) : photoUploadQuerySchema.safeParse({ alt: upload.alt });
    if (alt && typeof alt === "object" && !alt.success) throw validationError("invalid_body", alt.error);
    const { photo, pet } = await addPhoto(
      params.petId,
      { bytes: upload.bytes, contentType: upload.contentType, alt: alt && typeof alt === "object" ? (alt.data.alt ?? null) : alt },
      { ...writeContext(caller, requestId), expectedVersions: ifMatchVersions(request), view: petView(now, url.origin) },
    );
    return { status: 201, body: photo, headers: { ETag: versionEtag(pet.version), Location: new URL(`${url.pathname}/${photo.id}`, url).toString() } };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
