import { writeContext } from "@/lib/http/actor";
import { ifMatchVersions, versionEtag } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petOwner } from "@/lib/http/tenant";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";

import { linkHeader, withCursor } from "@/lib/core/pagination";
import { listStaysQuerySchema, newStaySchema } from "@/lib/stays/schemas";
import { listStays, openStay } from "@/lib/pets/stays";

// GET /v1/pets/{petId}/stays - the animal's stays, oldest first, keyset-paged through the Link header (its organisation's staff and records:read keys)
export const GET = withApi(
  { scope: "records:read", tenant: petOwner, params: petIdParamsSchema, query: listStaysQuerySchema },
  async ({ params, query, url }) => {
    const { stays, cursors } = await listStays(params.petId, query);
    return {
      body: stays,
      headers: { Link: linkHeader({ next: cursors.next && withCursor(url, cursors.next), prev: cursors.prev && withCursor(url, cursors.prev) }) },
    };
  },
);

// POST /v1/pets/{petId}/stays - a new intake: the animal is in care and available again (409 stay_open while a stay is open)
export const POST = withApi(
  { scope: "records:write", tenant: petOwner, params: petIdParamsSchema, body: newStaySchema },
  async ({ params, body, request, caller, requestId, url }) => {
    const { stay, pet } = await openStay(params.petId, body.intake, { ...writeContext(caller, requestId), expectedVersions: ifMatchVersions(request) });
    return { status: 201, body: stay, headers: { ETag: versionEtag(pet.version), Location: new URL(`${url.pathname}/${stay.id}`, url).toString() } };
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
