import { withApi, otherMethods } from "@/lib/http/handler";
import { writeContext } from "@/lib/http/actor";
import { viewerOf } from "@/lib/visibility/policy";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { petSuccessor } from "@/lib/http/headers";
import { readNoOlderThanHeld } from "@/lib/http/responses";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";
import { petPatchSchema } from "@/lib/pets/schemas/pet";
import { petView } from "@/lib/pets/present";
import { notFound } from "@/lib/core/errors";
import { updatePet } from "@/lib/pets/service";
import { findPet } from "@/lib/pets/reads";
import { petOwner } from "@/lib/http/tenant";

// GET /v1/pets/{petId} - one animal (deprecated; sunset 2030-12-05, then 410; successor GET /v1/pets?id={petId})
export const GET = withApi(
  { scope: "pets:read", tenant: "public", params: petIdParamsSchema, deprecated: true, successor: (params) => petSuccessor(params.petId) },
  async ({ params, now, url, request, caller }) => {
    const view = petView(now, url.origin);
    // An animal out of care is its organisation's record (lib/visibility).
    const viewer = viewerOf(caller);
    // An animal the replica does not have yet may be on the primary, as may a newer version.
    const pet = await readNoOlderThanHeld(
      request,
      () => findPet(params.petId, view, viewer),
      (found) => (found ? versionEtag(found.version) : null),
    );
    if (!pet) throw notFound("animal", params.petId);
    return { body: pet, headers: { ETag: versionEtag(pet.version) } };
  },
);

// PATCH /v1/pets/{petId} - change an animal: its fields, or its photos' order (JSON merge patch; If-Match against its ETag)
export const PATCH = withApi(
  { scope: "pets:write", tenant: petOwner, params: petIdParamsSchema, body: petPatchSchema },
  async ({ params, body, request, caller, requestId, now, url }) => {
    const pet = await updatePet(params.petId, body, {
      ...writeContext(caller, requestId),
      expectedVersions: ifMatchVersions(request),
      view: petView(now, url.origin),
    });
    return { body: pet, headers: { ETag: versionEtag(pet.version) } };
  },
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
