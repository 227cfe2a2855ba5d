import { withApi, otherMethods } from "@/lib/http/handler";
import { writeContext } from "@/lib/http/actor";
import { viewerOf } from "@/lib/visibility/policy";
import { ifMatchVersions, ifNoneMatchMatches } from "@/lib/core/conditional";
import { petSuccessor } from "@/lib/http/headers";
import { petIdParamsSchema, petPatchSchema } from "@/lib/pets/schemas";
import { petView } from "@/lib/pets/present";
import { readsFromReplica, withReadPolicy } from "@/lib/replicas";
import { etagOf, findPet, notFound, updatePet } from "@/lib/pets/service";
import { petOwner } from "@/lib/http/tenant";

// GET /v1/pets/{petId} - one animal (deprecated; sunset 2030-12-05, then 410; successor GET /v1/pets?id={petId})
export const GET = withApi(
  { scope: "pets:read", tenant: "public", params: petIdParamsSchema, deprecated: true, successor: (params) => petSuccessor(params.petId) },
  async ({ params, now, url, request, caller }) => {
    const view = petView(now, url.origin);
    // An animal out of care is its organisation's record (lib/visibility).
    const viewer = viewerOf(caller);
    let pet = await findPet(params.petId, view, viewer);
    // As the list does: a tag the replica's copy does not match (or an animal
    // the replica does not have yet) may be newer than the replica, so the
    // primary answers; nobody gets an older version than one they hold.
    if (readsFromReplica() && request.headers.has("if-none-match") && !(pet && ifNoneMatchMatches(request, etagOf(pet.version)))) {
      pet = await withReadPolicy({ primary: true }, () => findPet(params.petId, view, viewer));
    }
    if (!pet) throw notFound(params.petId);
    return { body: pet, headers: { ETag: etagOf(pet.version) } };
  },
);

// PATCH /v1/pets/{petId} - change an animal: its fields, or its photos' order (JSON merge patch; If-Match against its ETag)
export const PATCH = withApi({ scope: "pets:write", tenant: petOwner, params: petIdParamsSchema, body: petPatchSchema }, async ({ params, body, request, caller, requestId, now, url }) => {
  const pet = await updatePet(params.petId, body, { ...writeContext(caller, requestId), expectedVersions: ifMatchVersions(request), view: petView(now, url.origin) });
  return { body: pet, headers: { ETag: etagOf(pet.version) } };
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
