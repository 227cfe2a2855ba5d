import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petOwner } from "@/lib/http/tenant";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";

import { listPlacementsQuerySchema, newPlacementSchema } from "@/lib/placements/schemas";
import { listPlacements, placeAnimal } from "@/lib/pets/placements";

// GET /v1/pets/{petId}/placements - the animal's placements in foster homes, oldest first, keyset-paged through the Link header (its organisation's staff and records:read keys)
export const GET = withApi(
  { scope: "records:read", tenant: petOwner, params: petIdParamsSchema, query: listPlacementsQuerySchema },
  async ({ params, query, url }) => {
    const { placements, cursors } = await listPlacements(params.petId, query);
    return {
      body: placements,
      headers: { Link: linkHeader({ next: cursors.next && withCursor(url, cursors.next), prev: cursors.prev && withCursor(url, cursors.prev) }) },
    };
  },
);

// POST /v1/pets/{petId}/placements - the animal goes to a foster home (or moves to another: the open placement ends at the same instant)
export const POST = withApi(
  { scope: "records:write", tenant: petOwner, params: petIdParamsSchema, body: newPlacementSchema },
  async ({ params, body, request, caller, requestId, url }) => {
    const { placement, pet } = await placeAnimal(params.petId, body, { ...writeContext(caller, requestId), expectedVersions: ifMatchVersions(request) });
    return { status: 201, body: placement, headers: { ETag: versionEtag(pet.version), Location: new URL(`${url.pathname}/${placement.id}`, url).toString() } };
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
