import { withApi, otherMethods } from "@/lib/http/handler";
import { actorKey, writeContext } from "@/lib/http/actor";
import { viewerOf } from "@/lib/visibility/policy";
import { ifNoneMatchMatches, versionEtag } from "@/lib/core/conditional";
import { readNoOlderThanHeld } from "@/lib/http/responses";
import { idempotently } from "@/lib/http/idempotency";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { idempotentNewPet, newPetSchema } from "@/lib/pets/schemas/pet";
import { listPetsQuerySchema } from "@/lib/pets/schemas/list-query";
import { petView } from "@/lib/pets/present";
import { createPet } from "@/lib/pets/service";
import { fosterNeedsRecords } from "@/lib/placements/rules";
import { listPets } from "@/lib/pets/reads";

// GET /v1/pets - list animals, newest first, keyset-paged through the Link header; a weak ETag and If-None-Match (304) for polling
export const GET = withApi({ scope: "pets:read", tenant: "public", query: listPetsQuerySchema }, async ({ query, url, now, request, caller }) => {
  const view = petView(now, url.origin);
  const viewer = viewerOf(caller);
  const { pets, cursors, etag } = await readNoOlderThanHeld(
    request,
    () => listPets(query, view, viewer),
    (page) => page.etag,
  );
  const link = linkHeader({
    next: cursors.next && withCursor(url, cursors.next),
    prev: cursors.prev && withCursor(url, cursors.prev),
  });
  // private, no-cache: a client's own cache may keep the page, and asks
  // again (If-None-Match) before each use.
  const headers = { Link: link, ETag: etag, "Cache-Control": "private, no-cache" };
  if (ifNoneMatchMatches(request, etag)) return { status: 304, headers };
  return { body: pets, headers };
});

// POST /v1/pets - add an animal (safe to retry with an Idempotency-Key)
export const POST = withApi({ scope: "pets:write", tenant: "caller", body: newPetSchema }, async ({ body, url, request, caller, requestId, now }) => {
  const context = writeContext(caller, requestId);
  // Placing with a foster is a write of the organisation's records, as on POST …/placements.
  if (body.intake?.fosterId !== undefined && !caller.scopes.includes("records:write")) throw fosterNeedsRecords();
  return idempotently({ request, caller: actorKey(context.actor), operation: "createPet", body: idempotentNewPet(body), now }, async (tx) => {
    const pet = await createPet(body, { ...context, tenancy: caller.tenancy }, petView(now, url.origin), tx);
    return { status: 201, body: pet, headers: { Location: new URL(`${url.pathname}/${pet.id}`, url).toString(), ETag: versionEtag(pet.version) } };
  });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
